#include "runtime/algorithm/gram_norm_test.hpp"

#include <Eigen/Dense>
#include <cmath>

#include "runtime/algorithm/rounding_gamma.hpp"

namespace tensordiag::runtime {

GramNormTest::GramNormTest(const std::vector<double>& lambda, int size, double frobenius)
    : size_(size), frobenius2_(frobenius * frobenius * (1.0 + 2.0 * unit_roundoff)),
      gram_(static_cast<std::size_t>(size) * static_cast<std::size_t>(size)) {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMajor> x(lambda.data(), size, size);
  Eigen::Map<RowMajor>(gram_.data(), size, size).noalias() = x.transpose() * x;
}

bool GramNormTest::certifies_below(double tau) const {
  const std::size_t n = static_cast<std::size_t>(size_);
  const double tau2 = tau * tau;
  const double g = rounding_gamma(size_ + 1.0);
  const double shift = 1.01 * (g / (1.0 - g) * static_cast<double>(size_) * tau2 +
                               rounding_gamma(size_) * frobenius2_ + 5.0 * unit_roundoff * (tau2 + frobenius2_));
  // Left-looking Cholesky of A = (tau^2 - shift) I - S_hat, lower triangle, row by row.
  std::vector<double> factor(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      double sum = i == j ? (tau2 - shift) - gram_[i * n + i] : -gram_[i * n + j];
      for (std::size_t k = 0; k < j; ++k) sum -= factor[i * n + k] * factor[j * n + k];
      if (i == j) {
        if (!(sum > 0.0)) return false;  // not positive (or NaN): nothing proved
        factor[i * n + i] = std::sqrt(sum);
      } else {
        factor[i * n + j] = sum / factor[j * n + j];
      }
    }
  }
  return true;
}

}  // namespace tensordiag::runtime
