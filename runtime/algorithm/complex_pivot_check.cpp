#include "runtime/algorithm/complex_pivot_check.hpp"

#include <Eigen/Dense>

#include <algorithm>

namespace tensordiag::runtime {

template <class R>
std::vector<std::complex<double>> complex_pivot_lambda(const HostTensor<std::complex<R>>& core, int mode) {
  const int n = core.size();
  const std::ptrdiff_t diagonal = core.diagonal_stride(), stride = core.strides()[static_cast<std::size_t>(mode)];
  std::vector<std::complex<double>> g(static_cast<std::size_t>(n) * n);
  for (int l = 0; l < n; ++l) {
    // C_{l->j,n}: the diagonal entry (l, .., l) with index `mode` moved from l to j.
    const std::complex<double> diag_conj = std::conj(std::complex<double>(core.data()[l * diagonal]));
    for (int j = 0; j < n; ++j)
      g[static_cast<std::size_t>(j) * n + l] =
          diag_conj * std::complex<double>(core.data()[l * diagonal + (j - l) * stride]);
  }
  std::vector<std::complex<double>> lambda(g.size());
  for (int j = 0; j < n; ++j)
    for (int l = 0; l < n; ++l)
      lambda[static_cast<std::size_t>(j) * n + l] =
          g[static_cast<std::size_t>(j) * n + l] - std::conj(g[static_cast<std::size_t>(l) * n + j]);
  return lambda;
}

double skew_hermitian_norm(const std::vector<std::complex<double>>& lambda, int size) {
  // i Lambda is Hermitian with Lambda's eigenvalues times i: its largest |eigenvalue| is the norm.
  const Eigen::Map<const Eigen::Matrix<std::complex<double>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> x(
      lambda.data(), size, size);
  const Eigen::MatrixXcd hermitian = std::complex<double>(0, 1) * x;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXcd> solver(hermitian, Eigen::EigenvaluesOnly);
  return std::max(std::abs(solver.eigenvalues().minCoeff()), std::abs(solver.eigenvalues().maxCoeff()));
}

template std::vector<std::complex<double>> complex_pivot_lambda(const HostTensor<std::complex<float>>&, int);
template std::vector<std::complex<double>> complex_pivot_lambda(const HostTensor<std::complex<double>>&, int);

}  // namespace tensordiag::runtime
