#include "runtime/algorithm/skew_power_bound.hpp"

#include <algorithm>
#include <cmath>

#include "runtime/algorithm/rounding_gamma.hpp"

namespace tensordiag::runtime {

SkewPowerBound::SkewPowerBound(const std::vector<double>& lambda, int size, double frobenius)
    : lambda_(lambda), size_(size), frobenius_(frobenius), x_(static_cast<std::size_t>(size)),
      w_(static_cast<std::size_t>(size)) {
  const std::size_t n = static_cast<std::size_t>(size);
  std::vector<double> column2(n, 0.0);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) column2[c] += lambda[r * n + c] * lambda[r * n + c];
  const std::size_t j = static_cast<std::size_t>(std::max_element(column2.begin(), column2.end()) - column2.begin());
  for (std::size_t r = 0; r < n; ++r) x_[r] = lambda[r * n + j];  // Lambda e_j
}

double SkewPowerBound::step() {
  const std::size_t n = static_cast<std::size_t>(size_);
  double x2 = 0.0, w2 = 0.0;
  for (std::size_t r = 0; r < n; ++r) {
    double sum = 0.0;
    for (std::size_t c = 0; c < n; ++c) sum += lambda_[r * n + c] * x_[c];
    w_[r] = sum;
    w2 += sum * sum;
    x2 += x_[r] * x_[r];
  }
  if (!(x2 > 0.0) || !(w2 > 0.0)) return 0.0;
  // ||w|| >= sqrt(w2 / (1 + g)), ||x|| <= sqrt(x2 / (1 - g)); the division and the square root
  // round a few times more: (1 - gamma_{N+6}) covers all of it. Then the product's error gamma_N ||Lambda||_F.
  const double quotient = std::sqrt(w2 / x2) * (1.0 - rounding_gamma(size_ + 6.0)) - rounding_gamma(size_) * frobenius_;
  best_ = std::max(best_, quotient);
  // The next x: w normalized (any scale does: each quotient stands on its own stored x).
  const double inverse = 1.0 / std::sqrt(w2);
  for (std::size_t r = 0; r < n; ++r) x_[r] = w_[r] * inverse;
  return std::max(quotient, 0.0);
}

}  // namespace tensordiag::runtime
