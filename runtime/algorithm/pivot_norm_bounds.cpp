#include "runtime/algorithm/pivot_norm_bounds.hpp"

#include <algorithm>
#include <cmath>

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

std::optional<std::vector<bool>> verdicts_by_bounds(const std::vector<double>& lambda, int size,
                                                    const PivotGroup& pairs, double eta) {
  const NormBounds bounds = skew_norm_bounds(lambda, size);
  std::vector<bool> verdicts;
  for (const auto [p, q] : pairs) {
    const auto verdict = verdict_by_bounds(lambda[static_cast<std::size_t>(p) * static_cast<std::size_t>(size) +
                                                  static_cast<std::size_t>(q)],
                                           bounds, eta);
    if (!verdict) return std::nullopt;
    verdicts.push_back(*verdict);
  }
  return verdicts;
}

}  // namespace tensordiag::runtime
