#include "runtime/algorithm/pivot_norm_bounds.hpp"

#include <algorithm>
#include <cmath>

#include "runtime/algorithm/gram_norm_test.hpp"
#include "runtime/algorithm/rounding_gamma.hpp"
#include "runtime/algorithm/skew_power_bound.hpp"

namespace tensordiag::runtime {

NormBounds skew_norm_bounds(const std::vector<double>& lambda, int size) {
  const std::size_t n = static_cast<std::size_t>(size);
  std::vector<double> column2(n, 0.0), column1(n, 0.0);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) {
      const double x = lambda[r * n + c];
      column2[c] += x * x;
      column1[c] += std::abs(x);
    }
  double frobenius2 = 0.0;
  for (const double x : column2) frobenius2 += x;
  return {std::sqrt(*std::max_element(column2.begin(), column2.end())),
          std::min(std::sqrt(0.5 * frobenius2), *std::max_element(column1.begin(), column1.end()))};
}

namespace {

double entry(const std::vector<double>& lambda, int size, PivotPair pair) {
  return lambda[static_cast<std::size_t>(pair.p) * static_cast<std::size_t>(size) + static_cast<std::size_t>(pair.q)];
}

// The verdicts under `bounds`, or nullopt; `smallest_open` gets the smallest 2 |Lambda_pq| of the
// open pairs.
std::optional<std::vector<bool>> verdicts_under(const std::vector<double>& lambda, int size, const PivotGroup& pairs,
                                                double eta, NormBounds bounds, double& smallest_open) {
  std::vector<bool> verdicts;
  bool open = false;
  smallest_open = INFINITY;
  for (const auto pair : pairs) {
    const double x = entry(lambda, size, pair);
    const auto verdict = verdict_by_bounds(x, bounds, eta);
    if (!verdict) {
      open = true;
      smallest_open = std::min(smallest_open, 2.0 * std::abs(x));
    } else {
      verdicts.push_back(*verdict);
    }
  }
  if (open) return std::nullopt;
  return verdicts;
}

}  // namespace

BoundsDecision decide_by_bounds(const std::vector<double>& lambda, int size, const PivotGroup& pairs, double eta) {
  BoundsDecision decision;
  double largest = 0.0;
  for (const double x : lambda) largest = std::max(largest, std::abs(x));
  if (largest == 0.0) {  // the exact norm is 0: every pair passes
    decision.verdicts = std::vector<bool>(pairs.size(), true);
    decision.stage = BoundsStage::columns;
    return decision;
  }
  if (!std::isfinite(largest)) return decision;
  // Every stage works on Lambda times 2^-e, its largest entry in [1, 2): exact, and squares then
  // neither overflow nor underflow to matter (the norm is >= 1, rounding terms >= 1e-16; entries
  // rounded to subnormals move it by <= N 2^-1074). Bounds and entries alike are in those units.
  const int exponent = std::ilogb(largest);
  std::vector<double> scaled(lambda.size());
  for (std::size_t i = 0; i < lambda.size(); ++i) scaled[i] = std::ldexp(lambda[i], -exponent);
  NormBounds& bounds = decision.bounds;
  bounds = skew_norm_bounds(scaled, size);
  double smallest_open = 0.0;
  const auto settle = [&](BoundsStage stage) {
    decision.verdicts = verdicts_under(scaled, size, pairs, eta, bounds, smallest_open);
    if (decision.verdicts) decision.stage = stage;
    return decision.verdicts.has_value();
  };
  const auto finish = [&]() {
    bounds = {std::ldexp(bounds.lower, exponent), std::ldexp(bounds.upper, exponent)};
    return decision;
  };
  if (settle(BoundsStage::columns)) return finish();

  // >= ||Lambda||_F: the sum of N^2 squares is within gamma_{N^2 + 2} relative.
  double frobenius2 = 0.0;
  for (const double x : scaled) frobenius2 += x * x;
  const double n2 = static_cast<double>(size) * static_cast<double>(size);
  const double frobenius = std::sqrt(frobenius2 * (1.0 + rounding_gamma(n2 + 2.0))) * (1.0 + 2.0 * unit_roundoff);
  SkewPowerBound power(scaled, size, frobenius);
  const auto raise_lower = [&](int products) {
    for (int k = 0; k < products; ++k) power.step();
    bounds.lower = std::max(bounds.lower, power.best());
  };
  raise_lower(power_products);
  if (settle(BoundsStage::power)) return finish();

  std::optional<GramNormTest> gram;
  for (int attempt = 0; attempt < gram_attempts; ++attempt) {
    // Every open pair has 2 |Lambda_pq| >= smallest_open = eta tau (1 + 2 margin) > eta tau (1 + margin).
    const double tau = smallest_open / (eta * (1 + 2 * bounds_margin));
    if (!(tau > bounds.lower)) break;  // the norm is >= lower >= tau: no test can succeed
    if (!gram) gram.emplace(scaled, size, frobenius);
    ++decision.gram_tests;
    if (gram->certifies_below(tau)) {
      bounds.upper = std::min(bounds.upper, tau);
      settle(BoundsStage::gram);
      return finish();
    }
    // Probably ||Lambda||_2 >= tau: more power steps may prove it, failing that pair.
    const double before = smallest_open;
    raise_lower(retry_power_products);
    if (settle(BoundsStage::gram)) return finish();
    if (smallest_open == before) break;  // the same pair is still open
  }
  return finish();
}

}  // namespace tensordiag::runtime
