#include "runtime/algorithm/complex_generator.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "runtime/algorithm/random_stream.hpp"
#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

// A standard complex Gaussian: E|z|^2 = 1.
std::complex<double> complex_gaussian(RandomStream& random) {
  const double re = random.gaussian(), im = random.gaussian();
  return {re * std::sqrt(0.5), im * std::sqrt(0.5)};
}

}  // namespace

Matrix<std::complex<double>> haar_unitary(int n, RandomStream& random) {
  Eigen::MatrixXcd g(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) g(i, j) = complex_gaussian(random);
  const Eigen::HouseholderQR<Eigen::MatrixXcd> qr(g);
  const Eigen::MatrixXcd q = qr.householderQ();
  const Eigen::MatrixXcd& r = qr.matrixQR();
  Matrix<std::complex<double>> m{n, std::vector<std::complex<double>>(static_cast<std::size_t>(n) * n)};
  for (int j = 0; j < n; ++j) {
    // Mezzadri (2007): the phase of R_jj moved into Q makes the distribution Haar.
    const std::complex<double> phase = std::abs(r(j, j)) > 0 ? r(j, j) / std::abs(r(j, j)) : 1.0;
    for (int i = 0; i < n; ++i) m(i, j) = q(i, j) * phase;
  }
  return m;
}

template <class R>
GeneratedComplexTensor<R> generate_complex_diagonalizable(const GeneratorOptions& options) {
  const bool symmetric = options.structure == Structure::symmetric;
  if (!symmetric && options.structure != Structure::general)
    throw user_error("complex tensors are generated with structure general or symmetric");
  const int order = options.order, size = options.size;
  GeneratedComplexTensor<R> out;
  RandomStream random(options.seed);
  for (int i = 0; i < size; ++i) out.diagonal.push_back(complex_gaussian(random));
  for (int n = 0; n < order; ++n) out.factors.push_back(symmetric && n > 0 ? out.factors.front() : haar_unitary(size, random));

  // T = sum_i S_i u_1i (x) .. (x) u_Di, each term built as a Kronecker product over the modes from
  // the slowest in memory to the fastest.
  const std::vector<std::ptrdiff_t> strides = strides_of(order, size, options.layout);
  std::vector<int> modes(static_cast<std::size_t>(order));
  std::iota(modes.begin(), modes.end(), 0);
  std::sort(modes.begin(), modes.end(), [&strides](int a, int b) {
    return strides[static_cast<std::size_t>(a)] > strides[static_cast<std::size_t>(b)];
  });
  const std::size_t count = entry_count(order, size);
  std::vector<std::complex<double>> clean(count), term, next;
  for (int i = 0; i < size; ++i) {
    stop_if_cancelled(options.cancelled);
    term.assign(1, out.diagonal[static_cast<std::size_t>(i)]);
    for (const int mode : modes) {
      const Matrix<std::complex<double>>& u = out.factors[static_cast<std::size_t>(mode)];
      next.resize(term.size() * static_cast<std::size_t>(size));
      for (std::size_t k = 0; k < term.size(); ++k)
        for (int j = 0; j < size; ++j) next[k * static_cast<std::size_t>(size) + static_cast<std::size_t>(j)] = term[k] * u(j, i);
      term.swap(next);
    }
    for (std::size_t k = 0; k < count; ++k) clean[k] += term[k];
  }
  stop_if_cancelled(options.cancelled);
  std::vector<std::complex<R>> values(count);
  if (options.noise > 0) {
    std::vector<std::complex<double>> g(count);
    double clean2 = 0.0, g2 = 0.0;
    for (std::size_t k = 0; k < count; ++k) {
      g[k] = complex_gaussian(random);
      clean2 += std::norm(clean[k]);
    }
    if (symmetric) symmetrize_by_sorted_index(g, order, size, strides);  // before its norm is taken
    for (std::size_t k = 0; k < count; ++k) g2 += std::norm(g[k]);
    const double scale = options.noise * std::sqrt(clean2 / g2);
    for (std::size_t k = 0; k < count; ++k) clean[k] += scale * g[k];
  }
  // Symmetric: the terms are symmetric to rounding (the products run in another order at a permuted
  // index); each orbit takes its sorted index's value, exactly symmetric.
  if (symmetric) symmetrize_by_sorted_index(clean, order, size, strides);
  for (std::size_t k = 0; k < count; ++k) values[k] = std::complex<R>(clean[k]);
  out.tensor = HostTensor<std::complex<R>>(order, size, options.layout, std::move(values));
  return out;
}

template GeneratedComplexTensor<float> generate_complex_diagonalizable(const GeneratorOptions&);
template GeneratedComplexTensor<double> generate_complex_diagonalizable(const GeneratorOptions&);

}  // namespace tensordiag::runtime
