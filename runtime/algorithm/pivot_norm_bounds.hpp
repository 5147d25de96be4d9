#pragma once
// The pivot check decided by bounds on ||Lambda||_2 that need no eigensolver (issue 15 item 2).
// For a real skew-symmetric Lambda (its singular values come in equal pairs):
//   lower = max_j ||Lambda e_j||_2  <=  ||Lambda||_2  <=  upper = min(||Lambda||_F / sqrt(2), max_j ||Lambda e_j||_1).
// A pair with 2 |Lambda_pq| >= eta * upper passes whatever the exact norm is; one with
// 2 |Lambda_pq| < eta * lower fails. Only when some pair of the group lies between the two does the
// check need the exact norm. The GPU's lambda_norm kernel applies the same test.
#include <optional>
#include <vector>

#include "runtime/algorithm/pivot_schedule.hpp"

namespace tensordiag::runtime {

struct NormBounds {
  double lower = 0.0;
  double upper = 0.0;
};

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

// Every pair's verdict, or nullopt when the bounds leave one of them open.
std::optional<std::vector<bool>> verdicts_by_bounds(const std::vector<double>& lambda, int size,
                                                    const PivotGroup& pairs, double eta);

// How many mode checks a run made and how many of them needed the exact norm.
struct PivotCheckCount {
  long long checks = 0;
  long long exact_norms = 0;
};

}  // namespace tensordiag::runtime
