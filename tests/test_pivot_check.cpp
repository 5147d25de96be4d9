// Lambda by the identity Lambda = G - G^T against the seed's full formula, and its 2-norm.
#include <doctest/doctest.h>

#include <Eigen/Dense>

#include "random_tensor.hpp"
#include "reference_reconstruction.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/pivot_check.hpp"

using namespace tensordiag::runtime;
using tensordiag::testing::mode_product;

namespace {

Matrix<double> transpose(const Matrix<double>& m) {
  Matrix<double> t = m;
  for (int i = 0; i < m.n; ++i)
    for (int j = 0; j < m.n; ++j) t(i, j) = m(j, i);
  return t;
}

}  // namespace

TEST_CASE("Lambda by the identity equals the seed's gradient formula with reconstructed tensors") {
  for (auto [order, size] : {std::pair{3, 4}, {3, 5}, {4, 3}, {5, 3}}) {
    CAPTURE(order);
    CAPTURE(size);
    const auto t = tensordiag::testing::random_tensor<double>(order, size, 300u + static_cast<unsigned>(order * size));
    GeneratorOptions g;
    g.order = order;
    g.size = size;
    g.seed = 17;
    const auto factors = generate_diagonalizable<double>(g).factors;  // Haar-random orthogonal M_n

    // C = T x_1 M_1^T ... x_D M_D^T, the core for these factors.
    HostTensor<double> core = t;
    for (int k = 0; k < order; ++k) core = mode_product(core, k, transpose(factors[static_cast<std::size_t>(k)]));

    for (int n = 0; n < order; ++n) {
      // The seed: grad[m, l] = 2 C_{l..l} W_{l->m,n} with W = T x_k M_k^T over k != n, and
      // Lambda = (M_n^T grad - grad^T M_n) / 2.
      HostTensor<double> w = t;
      for (int k = 0; k < order; ++k)
        if (k != n) w = mode_product(w, k, transpose(factors[static_cast<std::size_t>(k)]));
      Eigen::MatrixXd grad(size, size), m(size, size);
      for (int row = 0; row < size; ++row)
        for (int l = 0; l < size; ++l) {
          std::vector<int> diag(static_cast<std::size_t>(order), l), moved(static_cast<std::size_t>(order), l);
          moved[static_cast<std::size_t>(n)] = row;
          grad(row, l) = 2 * core.at(diag) * w.at(moved);
          m(row, l) = factors[static_cast<std::size_t>(n)](row, l);
        }
      const Eigen::MatrixXd seed_lambda = (m.transpose() * grad - grad.transpose() * m) / 2;
      const auto lambda = pivot_lambda(core.data(), core.strides(), size, n);
      double worst = 0, scale = 0;
      for (int i = 0; i < size; ++i)
        for (int j = 0; j < size; ++j) {
          worst = std::max(worst, std::abs(lambda[static_cast<std::size_t>(i * size + j)] - seed_lambda(i, j)));
          scale = std::max(scale, std::abs(seed_lambda(i, j)));
        }
      CHECK(scale > 0.01);
      CHECK(worst <= 1e-13 * scale);

      // ||Lambda||_2 against Eigen's SVD.
      const Eigen::JacobiSVD<Eigen::MatrixXd> svd(seed_lambda);
      CHECK(skew_spectral_norm(lambda, size) == doctest::Approx(svd.singularValues()(0)).epsilon(1e-12));
    }
  }
}
