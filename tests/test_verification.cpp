// The streamed verification against the plain full reconstruction, its sensitivity to a wrong
// core, the orthogonality error, and Options::verify through diagonalize().
#include <doctest/doctest.h>

#include <cmath>

#include "random_tensor.hpp"
#include "reference_reconstruction.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;
using tensordiag::testing::reference_reconstruction_error;

namespace {

template <class T>
std::vector<Matrix<T>> as_factors(const std::vector<Matrix<double>>& factors) {
  std::vector<Matrix<T>> out;
  for (const auto& m : factors) out.push_back({m.n, std::vector<T>(m.data.begin(), m.data.end())});
  return out;
}

// A planted tensor T = S x_1 Q_1 ... x_D Q_D: with the core S and the factors Q_n it reconstructs
// to rounding.
template <class T>
struct Planted {
  HostTensor<T> tensor;
  HostTensor<T> core;
  std::vector<Matrix<T>> factors;
};

template <class T>
Planted<T> planted(int order, int size, Layout layout, std::uint64_t seed) {
  GeneratorOptions g;
  g.order = order;
  g.size = size;
  g.seed = seed;
  g.layout = layout;
  auto generated = generate_diagonalizable<T>(g);
  HostTensor<T> core(order, size, layout);
  for (int i = 0; i < size; ++i)
    core.values()[static_cast<std::size_t>(i * core.diagonal_stride())] = static_cast<T>(generated.diagonal[static_cast<std::size_t>(i)]);
  return {std::move(generated.tensor), std::move(core), as_factors<T>(generated.factors)};
}

// Small blocks (1000 doubles) take several blocks of slabs and several chunks of the core.
constexpr std::size_t small_blocks = 1000;

template <class T>
void check_equals_full_reconstruction(int order, int size, Layout layout) {
  CAPTURE(order);
  CAPTURE(size);
  CAPTURE(to_string(layout));
  const auto seed = static_cast<std::uint64_t>(10 * order + size);
  // Random: T, C and the factors unrelated, an error near sqrt(2).
  const auto tensor = random_tensor<T>(order, size, seed, layout);
  const auto core = random_tensor<T>(order, size, seed + 1, layout);
  const auto factors = planted<T>(order, size, layout, seed + 2).factors;
  const double random_error = reference_reconstruction_error(tensor, core, factors);
  CHECK(random_error > 0.5);
  CHECK(reconstruction_error(tensor, core, factors) == doctest::Approx(random_error).epsilon(1e-13));
  CHECK(reconstruction_error(tensor, core, factors, small_blocks) == doctest::Approx(random_error).epsilon(1e-13));

  // Planted, with a core off by noise: an error near 1e-3.
  Planted<T> p = planted<T>(order, size, layout, seed + 3);
  const auto noise = random_tensor<T>(order, size, seed + 4, layout);
  for (std::size_t i = 0; i < p.core.count(); ++i) p.core.values()[i] += static_cast<T>(1e-3 * noise.values()[i]);
  const double planted_error = reference_reconstruction_error(p.tensor, p.core, p.factors);
  CHECK(planted_error > 1e-4);
  CHECK(reconstruction_error(p.tensor, p.core, p.factors) == doctest::Approx(planted_error).epsilon(1e-13));
  CHECK(reconstruction_error(p.tensor, p.core, p.factors, small_blocks) == doctest::Approx(planted_error).epsilon(1e-13));
}

}  // namespace

TEST_CASE("the streamed reconstruction error equals the full reconstruction's, orders 3..6, both layouts") {
  for (const Layout layout : {Layout::c_order, Layout::fortran_order})
    for (auto [order, size] : {std::pair{3, 9}, {3, 16}, {4, 7}, {5, 5}, {6, 4}, {6, 5}}) {
      check_equals_full_reconstruction<double>(order, size, layout);
      check_equals_full_reconstruction<float>(order, size, layout);
    }
}

TEST_CASE("every memory budget gives the full reconstruction's error: blocks of slabs, rows of 1, 2 and 3 fixed indices") {
  // D = 5, N = 6: a slab holds 1296 entries, a row with k indices fixed 6^(5-k). Budgets from
  // ample (blocks of slabs at any thread count) down to rows of k = 1, 2 and 3 (two rows fit).
  for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
    CAPTURE(to_string(layout));
    const auto tensor = random_tensor<double>(5, 6, 31, layout);
    Planted<double> p = planted<double>(5, 6, layout, 32);
    for (std::size_t i = 0; i < p.core.count(); ++i) p.core.values()[i] += 1e-4 * tensor.values()[i];
    const double expected = reference_reconstruction_error(p.tensor, p.core, p.factors);
    CHECK(expected > 1e-5);
    for (const std::size_t budget : {std::size_t{1} << 24, std::size_t{2 * 1296}, std::size_t{2 * 216}, std::size_t{2 * 36}}) {
      CAPTURE(budget);
      CHECK(reconstruction_error(p.tensor, p.core, p.factors, budget) == doctest::Approx(expected).epsilon(1e-12));
    }
    // Complex: entries with both parts, unitary factors diag(e^{i theta_j}) Q.
    const auto complex_tensor = random_tensor<std::complex<double>>(4, 5, 33, layout),
               complex_core = random_tensor<std::complex<double>>(4, 5, 35, layout);
    std::vector<Matrix<std::complex<double>>> unitary;
    for (const auto& m : planted<double>(4, 5, layout, 37).factors) {
      Matrix<std::complex<double>> u{m.n, std::vector<std::complex<double>>(m.data.size())};
      for (int j = 0; j < m.n; ++j)
        for (int i = 0; i < m.n; ++i) u(j, i) = std::polar(1.0, 0.7 * (j + 1)) * m(j, i);
      unitary.push_back(std::move(u));
    }
    CHECK(orthogonality_error(unitary) < 1e-14);
    const double full = reconstruction_error(complex_tensor, complex_core, unitary, std::size_t{1} << 24);
    CHECK(full > 0.5);
    for (const std::size_t budget : {std::size_t{2 * 2 * 125}, std::size_t{2 * 2 * 25}})
      CHECK(reconstruction_error(complex_tensor, complex_core, unitary, budget) == doctest::Approx(full).epsilon(1e-12));
  }
}

TEST_CASE("one core entry off by delta gives a reconstruction error of delta / ||T||") {
  for (const Layout layout : {Layout::c_order, Layout::fortran_order})
    for (auto [order, size] : {std::pair{3, 8}, {4, 5}, {5, 4}}) {
      CAPTURE(order);
      CAPTURE(to_string(layout));
      const Planted<double> p = planted<double>(order, size, layout, 7);
      CHECK(reconstruction_error(p.tensor, p.core, p.factors) < 1e-15);
      const double norm = std::sqrt(off_norm2(p.tensor) + diag_norm2(p.tensor));
      for (const double delta : {1e-3, 1e-7, 1e-11}) {
        CAPTURE(delta);
        // An off-diagonal entry: S's zeros must come back as zeros.
        Planted<double> wrong = p;
        wrong.core.values()[1] += delta;
        // The factors are orthogonal, so ||(delta E) x_1 Q_1 ... x_D Q_D|| = delta.
        CHECK(reconstruction_error(wrong.tensor, wrong.core, wrong.factors) == doctest::Approx(delta / norm).epsilon(1e-3));
      }
    }
  const Planted<float> p = planted<float>(4, 6, Layout::c_order, 8);
  Planted<float> wrong = p;
  wrong.core.values()[7] += 1e-2f;
  const double norm = std::sqrt(off_norm2(p.tensor) + diag_norm2(p.tensor));
  CHECK(reconstruction_error(wrong.tensor, wrong.core, wrong.factors) == doctest::Approx(1e-2 / norm).epsilon(1e-3));
}

TEST_CASE("the orthogonality error is max_n ||M_n^T M_n - I||_F") {
  auto factors = planted<double>(3, 6, Layout::c_order, 9).factors;
  CHECK(orthogonality_error(factors) < 1e-14);
  factors[1](2, 3) += 1e-6;
  // M^T M - I = (1e-6) (e_3 m_2^T + m_2 e_3^T) + O(1e-12) with m_2 row 2 of M (a unit vector):
  // its Frobenius norm is 1e-6 sqrt(2 + 2 M[2,3]^2).
  const double m23 = factors[1](2, 3) - 1e-6;
  CHECK(orthogonality_error(factors) == doctest::Approx(1e-6 * std::sqrt(2 + 2 * m23 * m23)).epsilon(1e-5));
}

TEST_CASE("Options::verify: nullopt unless asked, and when asked the errors verify() gives") {
  const Planted<double> p = planted<double>(4, 6, Layout::fortran_order, 10);
  Options options;
  options.backend = Backend::cpu;
  CHECK_FALSE(diagonalize(p.tensor, options).verification.has_value());

  options.verify = true;
  const Result<double> result = diagonalize(p.tensor, options);
  REQUIRE(result.verification.has_value());
  const Verification again = verify(p.tensor, result);
  CHECK(result.verification->reconstruction_error < 1e-14);
  CHECK(result.verification->reconstruction_error == doctest::Approx(again.reconstruction_error).epsilon(1e-6));
  CHECK(result.verification->orthogonality_error == again.orthogonality_error);
  CHECK(result.verification->seconds >= 0.0);

  const auto batch = diagonalize_batch(std::vector<HostTensor<double>>{p.tensor, random_tensor<double>(4, 6, 11, Layout::fortran_order)}, options);
  for (const auto& each : batch) {
    REQUIRE(each.verification.has_value());
    CHECK(each.verification->reconstruction_error < 1e-12);  // the random tensor: 100 sweeps of rounding
  }
}

// Eigen's products are instantiated in this test binary (test_pivot_check.cpp) and in the library;
// the linker keeps one copy of each, so both must be built for the same vector width (the build
// gives every target TENSORDIAG_NATIVE's -march): with the test built for SSE2 and the library for
// AVX2, this run's verification at N = 64 crashed.
TEST_CASE("a CPU run's verification at N = 64 inside the test binary: the errors of a correct run") {
  const auto tensor = random_tensor<double>(3, 64, 8101u, Layout::c_order);
  Options options;
  options.backend = Backend::cpu;
  options.max_sweeps = 2;
  options.verify = true;
  const Result<double> result = diagonalize(tensor, options);
  REQUIRE(result.verification.has_value());
  constexpr double eps = 0x1p-52;
  CHECK(result.verification->reconstruction_error <= 30.0 * 64 * 3 * eps);
  CHECK(result.verification->orthogonality_error <= 30.0 * 64 * eps);
  CHECK(result.history.back().off_rel < 1.0);
}
