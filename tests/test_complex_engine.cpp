// Complex tensors with unitary factors on the CPU engine (issue 11, item 3): recovery of planted
// complex tensors, ascent of every micro-iteration, unitarity and reconstruction to eps, the
// complex Lambda against a finite-difference gradient, the real engine's run on real data, and the
// options it refuses.
#include <doctest/doctest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <type_traits>

#include "complex_recovery.hpp"
#include "runtime/algorithm/complex_generator.hpp"
#include "runtime/algorithm/complex_pivot_check.hpp"
#include "runtime/algorithm/hosvd_start.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_complex.hpp"
#include "runtime/engines/cpu_complex_engine.hpp"

namespace {

using namespace tensordiag::runtime;
using cd = std::complex<double>;
using tensordiag::testing::check_columns_up_to_phase;
using tensordiag::testing::check_diagonal_is_moduli;

HostTensor<cd> random_complex_tensor(int order, int size, std::uint64_t seed, Layout layout = Layout::c_order) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> gauss;
  HostTensor<cd> t(order, size, layout);
  for (cd& x : t.values()) x = {gauss(random), gauss(random)};
  return t;
}

Options cpu_options() {
  Options options;
  options.backend = Backend::cpu;
  options.verify = true;
  options.max_sweeps = 40;
  return options;
}

// A noisy real tensor of R (not diagonalizable: the runs stall at the same point) diagonalized by
// the real CPU engine and, converted to std::complex<R>, by the complex one, `sweeps` sweeps each.
template <class R>
struct RealAndComplexRuns {
  HostTensor<R> real;
  Result<R> expected;
  Result<std::complex<R>> complex;
};

template <class R>
RealAndComplexRuns<R> real_and_complex_runs(int order, int size, std::uint64_t seed, int sweeps) {
  GeneratorOptions generator;
  generator.order = order;
  generator.size = size;
  generator.seed = seed;
  generator.noise = 0.05;
  RealAndComplexRuns<R> runs{generate_diagonalizable<R>(generator).tensor, {}, {}};
  Options options = cpu_options();
  options.max_sweeps = sweeps;
  options.stall_tol = 0.0;
  options.tol = 0.0;
  runs.expected = diagonalize(runs.real, options);
  const AnyComplexTensor as_complex =
      convert_to_complex(AnyTensor(runs.real), std::is_same_v<R, float> ? Dtype::complex64 : Dtype::complex128);
  runs.complex = diagonalize_complex(std::get<HostTensor<std::complex<R>>>(as_complex), options);
  return runs;
}

}  // namespace

TEST_CASE("complex engine: planted S x_1 U_1 ... x_D U_D recovered to 1e-12, C_ii = |S_i|, factors up to phase and permutation") {
  const double eps = std::numeric_limits<double>::epsilon();
  for (const auto& [order, size, seed] : {std::tuple{3, 4, 1}, std::tuple{3, 7, 2}, std::tuple{4, 5, 3},
                                          std::tuple{5, 3, 4}, std::tuple{3, 12, 5}}) {
    CAPTURE(order);
    CAPTURE(size);
    for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
      GeneratorOptions generator;
      generator.order = order;
      generator.size = size;
      generator.seed = static_cast<std::uint64_t>(seed);
      generator.layout = layout;
      const GeneratedComplexTensor<double> planted = generate_complex_diagonalizable<double>(generator);
      const Result<cd> result = diagonalize_complex(planted.tensor, cpu_options());
      REQUIRE(result.converged());
      CHECK(result.history.back().off_rel <= 1e-12);
      CHECK(result.engine == "cpu_complex");
      const double bound = 30.0 * size * order * eps;
      CHECK(result.verification->reconstruction_error <= bound);
      CHECK(result.verification->orthogonality_error <= bound);
      // The diagonal: real, >= 0, the |S_i| in some order; |U_n^H Q_n| a permutation matrix.
      check_diagonal_is_moduli(result.core, planted.diagonal, 1e-12);
      for (int n = 0; n < order; ++n)
        check_columns_up_to_phase(result.factors[static_cast<std::size_t>(n)], planted.factors[static_cast<std::size_t>(n)]);
    }
  }
}

TEST_CASE("complex engine: every micro-iteration raises ||diag C||^2 on random complex tensors") {
  for (const auto& [order, size, seed] : {std::tuple{3, 6, 21}, std::tuple{4, 4, 22}, std::tuple{3, 5, 23}}) {
    HostTensor<cd> core = random_complex_tensor(order, size, static_cast<std::uint64_t>(seed));
    double before = diag_norm2(core);
    const double scale = before;
    for (int sweep = 0; sweep < 3; ++sweep)
      for (const PivotGroup& group : round_robin_schedule(size))
        for (int mode = 0; mode < order; ++mode)
          for (const auto [p, q] : group) {
            const tensordiag::dsl::UnitaryGivens<double> g = complex_pair_rotation(core, mode, p, q);
            rotate_complex_rows(core, mode, p, q, g);
            const double after = diag_norm2(core);
            CHECK(after >= before - 1e-13 * scale);
            before = after;
          }
  }
}

TEST_CASE("complex engine: |Lambda_pq| is half the size of the gradient of ||diag C||^2 in the plane (p, q)") {
  const HostTensor<cd> core = random_complex_tensor(3, 5, 31);
  for (int mode = 0; mode < 3; ++mode) {
    const std::vector<cd> lambda = complex_pivot_lambda(core, mode);
    for (const auto [p, q] : std::vector<PivotPair>{{0, 1}, {1, 3}, {2, 4}}) {
      // f(t) = ||diag(C x_mode exp(-t X))||^2, X = [[0, -conj(z)], [z, 0]] in the plane (p, q):
      // its slope for z = 1 and z = i are the gradient's two components.
      double squared = 0.0;
      for (const cd z : {cd(1), cd(0, 1)}) {
        const auto f = [&](double t) {
          // exp(-t X) = G^H for G = [[cos t, -conj(z) sin t], [z sin t, cos t]].
          HostTensor<cd> rotated = core;
          rotate_complex_rows(rotated, mode, p, q, tensordiag::dsl::UnitaryGivens<double>{std::cos(t), z * std::sin(t)});
          return diag_norm2(rotated);
        };
        const double h = 1e-6, slope = (f(h) - f(-h)) / (2 * h);
        squared += slope * slope;
      }
      CHECK(std::sqrt(squared) == doctest::Approx(2 * std::abs(lambda[static_cast<std::size_t>(p) * 5 + q])).epsilon(1e-6));
      CHECK(std::abs(lambda[static_cast<std::size_t>(p) * 5 + q] + std::conj(lambda[static_cast<std::size_t>(q) * 5 + p])) <= 1e-14);
    }
    // ||Lambda||_2 against Eigen's singular values.
    Eigen::MatrixXcd m(5, 5);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j) m(i, j) = lambda[static_cast<std::size_t>(i) * 5 + j];
    const Eigen::JacobiSVD<Eigen::MatrixXcd> svd(m);
    CHECK(skew_hermitian_norm(lambda, 5) == doctest::Approx(svd.singularValues()(0)).epsilon(1e-12));
  }
}

TEST_CASE("complex engine: with the pivot check (0 < eta <= 2/N) planted tensors are still diagonalized") {
  GeneratorOptions generator;
  generator.order = 3;
  generator.size = 6;
  generator.seed = 41;
  const GeneratedComplexTensor<double> planted = generate_complex_diagonalizable<double>(generator);
  Options options = cpu_options();
  options.eta = 1.0 / 6;
  const Result<cd> result = diagonalize_complex(planted.tensor, options);
  // The skipped pairs slow the end (measured: off_rel 2.4e-11 after 7 sweeps, where the gain of a
  // sweep falls below stall_tol), so the run may stop by the stall test rather than by tol.
  CHECK(result.history.back().off_rel <= 1e-9);
  for (std::size_t k = 1; k < result.history.size(); ++k)
    CHECK(result.history[k].diag_norm2 >= result.history[k - 1].diag_norm2 * (1 - 1e-14));
  CHECK(result.verification->reconstruction_error <= 1e-13);
  // eta > 2 rejects every pair (|Lambda_pq| <= ||Lambda||_2): nothing moves, the run stalls at once.
  options.eta = 2.5;
  const Result<cd> frozen = diagonalize_complex(planted.tensor, options);
  CHECK(frozen.stop_reason == StopReason::stalled);
  CHECK(frozen.history.back().off_rel == 1.0);
}

TEST_CASE("complex engine: a real tensor run as complex128 follows the real CPU engine") {
  for (const auto& [order, size, seed] : {std::tuple{3, 6, 51}, std::tuple{4, 4, 52}}) {
    const auto [real, expected, result] = real_and_complex_runs<double>(order, size, static_cast<std::uint64_t>(seed), 6);
    REQUIRE(result.history.size() == expected.history.size());
    for (std::size_t k = 0; k < expected.history.size(); ++k) {
      CHECK(result.history[k].off_rel == doctest::Approx(expected.history[k].off_rel).epsilon(1e-10));
      CHECK(result.history[k].diag_norm2 == doctest::Approx(expected.history[k].diag_norm2).epsilon(1e-12));
    }
    // The same core up to the signs the phase fix flips (index i of mode 1 where C_ii < 0).
    for (std::size_t k = 0; k < real.count(); ++k) {
      CHECK(std::abs(result.core.data()[k].imag()) <= 1e-13);
      CHECK(std::abs(result.core.data()[k].real()) ==
            doctest::Approx(std::abs(expected.core.data()[k])).epsilon(1e-9).scale(1e-6));
    }
  }
}

TEST_CASE("complex engine: a real tensor run as complex64 follows the real float32 engine (the fixed slabs of N = 8, 16, 32)") {
  // complex64's innermost mode at N = 8, 16, 32 runs on the fixed 64-256-byte slabs in complex
  // arithmetic, the float32 engine's on its own real forms: two code paths, one result to rounding.
  for (const auto& [order, size, seed] : {std::tuple{3, 8, 53}, std::tuple{3, 16, 54}, std::tuple{3, 32, 55}}) {
    CAPTURE(size);
    const auto [real, expected, result] = real_and_complex_runs<float>(order, size, static_cast<std::uint64_t>(seed), 4);
    REQUIRE(result.history.size() == expected.history.size());
    for (std::size_t k = 0; k < expected.history.size(); ++k)
      CHECK(result.history[k].diag_norm2 == doctest::Approx(expected.history[k].diag_norm2).epsilon(1e-5));
    double largest = 0.0, difference = 0.0;
    for (std::size_t k = 0; k < real.count(); ++k) {
      largest = std::max(largest, static_cast<double>(std::abs(expected.core.data()[k])));
      difference = std::max(difference, static_cast<double>(std::abs(std::abs(result.core.data()[k]) -
                                                                     std::abs(expected.core.data()[k]))));
    }
    CHECK(difference <= 1e-4 * largest);
  }
}

TEST_CASE("complex engine: complex64 converges to its own tolerance") {
  GeneratorOptions generator;
  generator.order = 4;
  generator.size = 5;
  generator.seed = 61;
  const GeneratedComplexTensor<float> planted = generate_complex_diagonalizable<float>(generator);
  const Result<std::complex<float>> result = diagonalize_complex(planted.tensor, cpu_options());
  CHECK(result.converged());
  CHECK(result.tol == 1e-5);
  CHECK(result.verification->reconstruction_error <= 30.0 * 5 * 4 * std::numeric_limits<float>::epsilon());
  CHECK(result.verification->orthogonality_error <= 30.0 * 5 * 4 * std::numeric_limits<float>::epsilon());
}

TEST_CASE("complex engine: what it refuses is a user_error") {
  const HostTensor<cd> t = random_complex_tensor(3, 4, 71);
  const auto refused = [&t](Options options, const std::string& expected) {
    try {
      diagonalize_complex(t, options);
      FAIL("accepted: " << expected);
    } catch (const tensordiag::user_error& error) {
      CHECK(std::string(error.what()).find(expected) != std::string::npos);
    }
  };
  Options options = cpu_options();
  options.rule = "max_trace";
  refused(options, "real-only");
  options = cpu_options();
  options.structure = Structure::symmetric;
  refused(options, "the tensor is not symmetric");  // complex symmetric tensors: test_complex_symmetric.cpp
  options.structure = Structure::skew;
  refused(options, "structure skew takes real tensors");
  options = cpu_options();
  options.schedule = SweepSchedule::xor_subspaces;
  CHECK_THROWS_WITH_AS(diagonalize_complex(random_complex_tensor(3, 5, 72), options),
                       doctest::Contains("the xor schedule takes N a power of two"), tensordiag::user_error);
  options = cpu_options();
  options.rule = "no_such_rule";
  refused(options, "unknown rule");
  HostTensor<cd> bad = t;
  bad.values()[5] = cd(0, std::numeric_limits<double>::quiet_NaN());
  CHECK_THROWS_WITH_AS(diagonalize_complex(bad, cpu_options()), doctest::Contains("NaN or Inf at flat index 5"),
                       tensordiag::user_error);
}

TEST_CASE("complex engine: the HOSVD start (unitary bases of G_n = T_(n) T_(n)^H) keeps the result and its checks") {
  GeneratorOptions generator;
  generator.order = 4;
  generator.size = 6;
  generator.seed = 81;
  generator.noise = 0.01;
  const GeneratedComplexTensor<double> planted = generate_complex_diagonalizable<double>(generator);
  const HosvdStart<cd> start = hosvd_start(planted.tensor, 0, Structure::general);
  for (const Matrix<cd>& q : start.bases) {
    CHECK(orthogonality_error(std::vector<Matrix<cd>>{q}) <= 1e-13);
    // Each column's entry of largest modulus is real and > 0.
    for (int k = 0; k < q.n; ++k) {
      int largest = 0;
      for (int i = 1; i < q.n; ++i)
        if (std::abs(q(i, k)) > std::abs(q(largest, k))) largest = i;
      CHECK(q(largest, k).imag() == 0.0);
      CHECK(q(largest, k).real() > 0.0);
    }
  }
  // T' = T x_n Q_n^H reconstructs T with the bases as factors.
  CHECK(reconstruction_error(planted.tensor, start.rotated, start.bases) <= 1e-14);
  Options options = cpu_options();
  options.init = Init::hosvd;
  const Result<cd> result = diagonalize_complex(planted.tensor, options);
  const Result<cd> plain = diagonalize_complex(planted.tensor, cpu_options());
  CHECK(result.hosvd_start);
  CHECK(result.history.front().off_rel < 1.0);
  CHECK(result.verification->reconstruction_error <= 1e-14);
  CHECK(result.verification->orthogonality_error <= 1e-13);
  CHECK(result.history.back().off_rel == doctest::Approx(plain.history.back().off_rel).epsilon(1e-6));
  for (int i = 0; i < 6; ++i) CHECK(result.core.data()[i * result.core.diagonal_stride()].imag() == 0.0);
}

TEST_CASE("complex engine: the xor schedule recovers planted tensors within one sweep of the round robin, its groups in the GPU's subspace order") {
  for (auto [order, size] : {std::pair{3, 8}, {3, 16}, {4, 8}, {5, 4}}) {
    CAPTURE(order);
    CAPTURE(size);
    GeneratorOptions generator;
    generator.order = order;
    generator.size = size;
    generator.seed = 4000u + static_cast<unsigned>(order * 37 + size);
    const GeneratedComplexTensor<double> truth = generate_complex_diagonalizable<double>(generator);
    const Result<cd> round_robin = diagonalize_complex(truth.tensor, cpu_options());
    Options options = cpu_options();
    options.schedule = SweepSchedule::xor_subspaces;
    const Result<cd> xor_run = diagonalize_complex(truth.tensor, options);
    CHECK(round_robin.schedule == "round-robin");
    CHECK(xor_run.schedule == "xor");
    CHECK(xor_run.passes_per_sweep == size - 1);
    CHECK(xor_run.converged());
    CHECK(xor_run.sweeps() <= round_robin.sweeps() + 1);
    std::vector<double> found, expected;
    for (int i = 0; i < size; ++i) {
      found.push_back(xor_run.core.data()[i * xor_run.core.diagonal_stride()].real());
      expected.push_back(std::abs(truth.diagonal[static_cast<std::size_t>(i)]));
    }
    std::sort(found.begin(), found.end());
    std::sort(expected.begin(), expected.end());
    for (int i = 0; i < size; ++i) CHECK(found[i] == doctest::Approx(expected[i]).epsilon(1e-12));
    for (std::size_t k = 1; k < xor_run.history.size(); ++k)
      CHECK(xor_run.history[k].diag_norm2 >= xor_run.history[k - 1].diag_norm2 * (1 - 1e-14));
  }
}
