#pragma once
// The pivot check decided by bounds on ||Lambda||_2 instead of its exact value (issue 15 item 2;
// DESIGN.md section 3). Pair (p, q) passes iff 2 |Lambda_pq| >= eta ||Lambda||_2, so with any
// lower <= ||Lambda||_2 <= upper a pair with 2 |Lambda_pq| >= eta upper (1 + margin) passes
// whatever the exact norm is, one with 2 |Lambda_pq| < eta lower (1 - margin) fails, and only the
// pairs in between need more. The stages, cheapest first, each run only when a pair is still open:
//   1. columns: lower = max_j ||Lambda e_j||_2, upper = min(||Lambda||_F / sqrt 2, max_j ||Lambda e_j||_1)
//      (for a real skew Lambda the singular values come in equal pairs); N^2.
//   2. power:   lower = the best of a few power steps (skew_power_bound.hpp); N^2 each.
//   3. gram:    the smallest open 2|Lambda_pq| / eta, lowered by (1 + 2 margin), is tau: a Cholesky
//      factorization of tau^2 I - Lambda^T Lambda that completes proves ||Lambda||_2 < tau, so every
//      open pair passes (gram_norm_test.hpp); N^3 / 2 + N^3 / 6. When it does not complete, more
//      power steps may lift the lower bound past that pair (it fails) and the next open pair is tried.
// Only when a pair is left open after that does the check need the exact norm. The GPU's
// lambda_norm kernel runs the same stages.
#include <optional>
#include <vector>

#include "runtime/algorithm/pivot_schedule.hpp"

namespace tensordiag::runtime {

struct NormBounds {
  double lower = 0.0;
  double upper = 0.0;
};

// Stage 1's bounds.
NormBounds skew_norm_bounds(const std::vector<double>& lambda, int size);

// Relative room left on each side of the threshold for the rounding of the bounds and of the
// exact norm (a Lanczos value on the GPU, good to about 1e-13): a pair that close to it is left to
// the exact norm.
inline constexpr double bounds_margin = 1e-12;

// The check's verdict on one pair from the bounds alone: true (passes), false (fails), or nullopt.
inline std::optional<bool> verdict_by_bounds(double lambda_pq, NormBounds bounds, double eta) {
  const double twice = 2.0 * (lambda_pq < 0 ? -lambda_pq : lambda_pq);
  if (twice >= eta * bounds.upper * (1 + bounds_margin)) return true;
  if (twice < eta * bounds.lower * (1 - bounds_margin)) return false;
  return std::nullopt;
}

// Power steps of stage 2 (products by Lambda), and of each retry after a failed gram test.
inline constexpr int power_products = 6;
inline constexpr int retry_power_products = 16;
// At most this many gram tests a check.
inline constexpr int gram_attempts = 2;

enum class BoundsStage { columns, power, gram, open };

struct BoundsDecision {
  std::optional<std::vector<bool>> verdicts;  // every pair's, or nullopt: the exact norm is needed
  BoundsStage stage = BoundsStage::open;      // the stage that decided the last open pair
  NormBounds bounds;                          // the bounds at the end (upper = tau after a gram test)
  int gram_tests = 0;
};

BoundsDecision decide_by_bounds(const std::vector<double>& lambda, int size, const PivotGroup& pairs, double eta);

// Every pair's verdict, or nullopt when the bounds leave one of them open.
inline std::optional<std::vector<bool>> verdicts_by_bounds(const std::vector<double>& lambda, int size,
                                                           const PivotGroup& pairs, double eta) {
  return decide_by_bounds(lambda, size, pairs, eta).verdicts;
}

// How many mode checks a run made, how many of them needed the exact norm, how many stage 1
// decided alone, and how many gram tests ran (issue 15 item 2).
struct PivotCheckCount {
  long long checks = 0;
  long long exact_norms = 0;
  long long by_columns = 0;
  long long gram_tests = 0;

  void add(const BoundsDecision& decision) {
    ++checks;
    if (!decision.verdicts) ++exact_norms;
    if (decision.stage == BoundsStage::columns) ++by_columns;
    gram_tests += decision.gram_tests;
  }
};

}  // namespace tensordiag::runtime
