// The skew-symmetric CPU engine (structure skew, docs/DESIGN.md section 7): the DSL's angle against
// a brute-force maximizer, the exact Murnaghan step of D = 2, ascent at every micro-iteration, the
// core kept skew, planted block forms recovered, D = 2 against Eigen's eigenvalues, and the input
// checks.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "dsl/evaluate.hpp"
#include "dsl/skew_rule.hpp"
#include "planted_symmetric.hpp"
#include "random_tensor.hpp"
#include "skew_block_entries.hpp"
#include "runtime/algorithm/core_figures.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/murnaghan_step.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/skew_blocks.hpp"
#include "runtime/algorithm/symmetry_check.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/engines/cpu_skew_engine.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using namespace tensordiag::testing;

namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();

Options skew_options() {
  Options options;
  options.structure = Structure::skew;
  options.backend = Backend::cpu;
  return options;
}

template <class T>
GeneratedTensor<T> planted_skew(int order, int size, std::uint64_t seed, double noise = 0.0,
                                Layout layout = Layout::c_order) {
  return planted<T>(order, size, seed, noise, Structure::skew, layout);
}

double objective(const HostTensor<double>& core) { return core_figures(core, Structure::skew).diag_norm2; }

// Q^T Q - I, Frobenius.
double orthogonality(const std::vector<double>& w, int k) {
  double worst = 0;
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j) {
      double dot = 0;
      for (int r = 0; r < k; ++r) dot += w[static_cast<std::size_t>(r * k + i)] * w[static_cast<std::size_t>(r * k + j)];
      worst += std::pow(dot - (i == j ? 1.0 : 0.0), 2);
    }
  return std::sqrt(worst);
}

}  // namespace

TEST_CASE("skew: the DSL's angle maximizes the block objective of the rotated core, against 720 angles") {
  // Random skew tensors far from the block form; every pair of indices in different blocks (or one
  // in none): the objective of the core rotated by the angle the rule picks is the best of the
  // grid, and equals the DSL objective evaluated at that angle.
  for (auto [order, size] : {std::pair{3, 7}, {4, 9}, {5, 6}}) {
    CAPTURE(order);
    const HostTensor<double> core = planted_skew<double>(order, size, 70u + static_cast<unsigned>(order), 3.0).tensor;
    int pairs_checked = 0;
    for (int p = 0; p < size; ++p)
      for (int q = p + 1; q < size; ++q) {
        if (skew_block_of(p, order, size) == skew_block_of(q, order, size)) continue;
        const auto rotated = [&](double c, double s) {
          HostTensor<double> copy = core;
          rotate_pair_every_mode(copy, p, q, dsl::Givens<double>{c, s}, 1);
          return objective(copy);
        };
        const dsl::Givens<double> g = skew_pair_rotation(core, p, q);
        const double chosen = rotated(g.c, g.s);
        const SkewPivot v = skew_pivot_values(core, p, q);
        const double others = objective(core) - (v.a * v.a + v.d * v.d);
        const dsl::PivotValues<double> values{v.a, v.b, v.d, v.e, g.c, g.s};
        CHECK(others + dsl::evaluate(dsl::rules::skew_max_diag.objective, values) ==
              doctest::Approx(chosen).epsilon(1e-13));
        double best = 0;
        for (int k = 0; k < 720; ++k) {
          const double phi = 2 * std::numbers::pi * k / 720;
          best = std::max(best, rotated(std::cos(phi), std::sin(phi)));
        }
        CHECK(chosen >= best - 1e-13 * best);
        CHECK(chosen >= objective(core) - 1e-14 * objective(core));
        ++pairs_checked;
      }
    CHECK(pairs_checked >= size - 1);
  }
}

TEST_CASE("skew: the Murnaghan step is orthogonal, exact, and the identity on a block form") {
  RandomStream random(5);
  for (int k : {3, 4})
    for (int trial = 0; trial < 200; ++trial) {
      CAPTURE(k);
      CAPTURE(trial);
      std::vector<double> s(static_cast<std::size_t>(k * k), 0.0);
      // Some trials with equal block values (a degenerate S^T S), some with a zero block.
      for (int i = 0; i < k; ++i)
        for (int j = i + 1; j < k; ++j) {
          const double x = random.gaussian();
          s[static_cast<std::size_t>(i * k + j)] = x;
          s[static_cast<std::size_t>(j * k + i)] = -x;
        }
      // Every third 4 x 4 trial degenerate: S = R^T 0.7 (J (+) J) R, R orthogonal (S^T S = 0.49 I).
      const bool degenerate = k == 4 && trial % 3 == 1;
      if (degenerate) {
        Eigen::MatrixXd gaussian(4, 4), block = Eigen::MatrixXd::Zero(4, 4);
        for (int i = 0; i < 16; ++i) gaussian(i / 4, i % 4) = random.gaussian();
        const Eigen::MatrixXd r = Eigen::HouseholderQR<Eigen::MatrixXd>(gaussian).householderQ();
        block(0, 1) = block(2, 3) = 0.7;
        block(1, 0) = block(3, 2) = -0.7;
        const Eigen::MatrixXd rotated = r.transpose() * block * r;
        for (int i = 0; i < 16; ++i) s[static_cast<std::size_t>(i)] = rotated(i / 4, i % 4);
      }
      const std::vector<double> w = murnaghan_step(s, k);
      CHECK(orthogonality(w, k) <= 10 * eps);
      // W^T S W: the blocks (0, 1), (2, 3) hold everything, s1, s2 >= 0.
      std::vector<double> c(static_cast<std::size_t>(k * k), 0.0);
      double norm2 = 0;
      for (double x : s) norm2 += x * x;
      for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j)
          for (int a = 0; a < k; ++a)
            for (int b = 0; b < k; ++b)
              c[static_cast<std::size_t>(i * k + j)] += w[static_cast<std::size_t>(a * k + i)] *
                                                         s[static_cast<std::size_t>(a * k + b)] *
                                                         w[static_cast<std::size_t>(b * k + j)];
      double block2 = c[1] * c[1] + (k == 4 ? c[11] * c[11] : 0.0);
      CHECK(2 * block2 == doctest::Approx(norm2).epsilon(1e-14));
      CHECK(c[1] >= -1e-15);
      if (k == 4) CHECK(c[11] >= -1e-15);
      // Applied to its own result, the step is the identity (unless s1 = s2, where the planes are
      // not determined).
      if (degenerate) continue;
      const std::vector<double> again = murnaghan_step(c, k);
      for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) CHECK(std::abs(again[static_cast<std::size_t>(i * k + j)] - (i == j)) <= 1e-7);
    }
}

TEST_CASE("skew: every micro-iteration raises the block objective, and C stays skew to 1e-14") {
  for (auto [order, size] : {std::pair{3, 8}, {4, 9}, {5, 7}}) {
    CAPTURE(order);
    HostTensor<double> core = planted_skew<double>(order, size, 300u + static_cast<unsigned>(order), 1.0).tensor;
    const double scale = max_abs(core);
    for (int sweep = 0; sweep < 3; ++sweep)
      for (const auto& pairs : round_robin_schedule(size))
        for (const auto& [p, q] : pairs) {
          const double before = objective(core);
          const auto g = skew_pair_rotation(core, p, q);
          rotate_pair_every_mode(core, p, q, g, 1);
          CHECK(objective(core) >= before - 1e-14 * before);
        }
    CHECK(symmetry_deviation(core, -1).largest <= 1e-14 * scale);
  }
  // Whole runs, D = 2 (the Murnaghan steps) included: the history never goes down.
  for (auto [order, size] : {std::pair{2, 11}, {2, 12}, {3, 7}, {4, 8}}) {
    CAPTURE(order);
    const auto noisy = planted_skew<double>(order, size, 40u + static_cast<unsigned>(size), 1.0).tensor;
    Options options = skew_options();
    options.max_sweeps = 12;
    const auto result = diagonalize(noisy, options);
    for (std::size_t k = 1; k < result.history.size(); ++k)
      CHECK(result.history[k].diag_norm2 >= result.history[k - 1].diag_norm2 * (1 - 1e-14));
    CHECK(symmetry_deviation(result.core, -1).largest <= 1e-14 * max_abs(result.core) * size);
  }
}

TEST_CASE("skew: planted block forms S x_1 Q ... x_D Q are recovered to 1e-12, the factor up to rotations within blocks") {
  for (int order = 2; order <= 5; ++order)
    for (int size : {order, order + 1, 2 * order, 2 * order + 1, 3 * order + 2}) {
      if (std::pow(size, order) > 3e5) continue;
      for (Layout layout : {Layout::c_order, Layout::fortran_order}) {
        CAPTURE(order);
        CAPTURE(size);
        const auto truth = planted_skew<double>(order, size, 500u + static_cast<unsigned>(order * 17 + size), 0.0, layout);
        Options options = skew_options();
        options.verify = true;
        const auto result = diagonalize(truth.tensor, options);
        CHECK(result.converged());
        CHECK(result.sweeps() <= 12);
        CHECK(result.structure == Structure::skew);
        REQUIRE(result.factors.size() == static_cast<std::size_t>(order));
        for (const auto& factor : result.factors) CHECK(factor.data == result.factors.front().data);
        // The block values: |S_k| in some order, each C[B_k] >= 0.
        std::vector<double> found = block_entries(result.core), planted_values = truth.diagonal;
        for (double x : found) CHECK(x >= 0);
        for (double& x : planted_values) x = std::abs(x);
        std::sort(found.begin(), found.end());
        std::sort(planted_values.begin(), planted_values.end());
        const double scale = planted_values.back();
        for (std::size_t k = 0; k < found.size(); ++k) CHECK(std::abs(found[k] - planted_values[k]) <= 1e-12 * scale);
        // Each found block's columns span a planted block's columns: sum of squared overlaps = D.
        const Matrix<double>& q = result.factors.front();
        const Matrix<double>& q_true = truth.factors.front();
        for (int k = 0; k < skew_block_count(order, size); ++k) {
          double best = 0;
          for (int l = 0; l < skew_block_count(order, size); ++l) {
            double overlap = 0;
            for (int i = k * order; i < (k + 1) * order; ++i)
              for (int j = l * order; j < (l + 1) * order; ++j) {
                double dot = 0;
                for (int r = 0; r < size; ++r) dot += q(r, i) * q_true(r, j);
                overlap += dot * dot;
              }
            best = std::max(best, overlap);
          }
          CHECK(best == doctest::Approx(order).epsilon(1e-10));
        }
        REQUIRE(result.verification);
        CHECK(result.verification->reconstruction_error <= 30.0 * size * order * eps);
        CHECK(result.verification->orthogonality_error <= 50.0 * size * eps);
        CHECK(symmetry_deviation(result.core, -1).largest <= 1e-14 * max_abs(result.core));
      }
    }
}

TEST_CASE("skew: D = 2 reaches the Murnaghan form, blocks equal Eigen's eigenvalues' imaginary parts to 1e-12") {
  for (int size : {2, 3, 5, 8, 17, 30}) {
    CAPTURE(size);
    // A random skew matrix (not planted): (G - G^T) / 2.
    const auto g = random_tensor<double>(2, size, 40u + static_cast<unsigned>(size));
    HostTensor<double> a(2, size);
    Eigen::MatrixXd m(size, size);
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) m(i, j) = a.at({i, j}) = (g.at({i, j}) - g.at({j, i})) / 2;
    const auto result = diagonalize(a, skew_options());
    CHECK(result.converged());
    CHECK(result.sweeps() <= 10);
    std::vector<double> found = block_entries(result.core);
    std::sort(found.begin(), found.end());
    const Eigen::EigenSolver<Eigen::MatrixXd> eigen(m, false);
    std::vector<double> expected;  // the positive imaginary parts
    for (int i = 0; i < size; ++i)
      if (eigen.eigenvalues()(i).imag() > 0) expected.push_back(eigen.eigenvalues()(i).imag());
    std::sort(expected.begin(), expected.end());
    REQUIRE(expected.size() == found.size());
    for (std::size_t k = 0; k < found.size(); ++k) CHECK(std::abs(found[k] - expected[k]) <= 1e-12 * expected.back());
    CHECK(reconstruction_error(a, result.core, result.factors) <= 1e-14 * size);
    CHECK(result.history.back().off_rel <= 1e-12);
  }
}

TEST_CASE("skew: float32 planted tensors converge to the float32 tolerance, the HOSVD start gives the same blocks") {
  for (auto [order, size] : {std::pair{2, 9}, {3, 6}, {4, 8}}) {
    CAPTURE(order);
    const auto truth = planted_skew<float>(order, size, 77u + static_cast<unsigned>(order));
    const auto result = diagonalize(truth.tensor, skew_options());
    CHECK(result.converged());
    CHECK(result.history.back().off_rel <= 1e-5);

    const auto exact = planted_skew<double>(order, size, 88u + static_cast<unsigned>(order), 0.01);
    Options options = skew_options();
    const auto from_identity = diagonalize(exact.tensor, options);
    options.init = Init::hosvd;
    options.verify = true;
    const auto from_hosvd = diagonalize(exact.tensor, options);
    CHECK(from_hosvd.hosvd_start);
    std::vector<double> x = block_entries(from_identity.core), y = block_entries(from_hosvd.core);
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    for (std::size_t k = 0; k < x.size(); ++k) CHECK(y[k] == doctest::Approx(x[k]).epsilon(1e-8));
    REQUIRE(from_hosvd.verification);
    CHECK(from_hosvd.verification->reconstruction_error <= 30.0 * size * order * eps);
  }
}

TEST_CASE("skew: the generator's tensors are skew-symmetric, with and without noise, in both layouts") {
  for (double noise : {0.0, 0.3})
    for (Layout layout : {Layout::c_order, Layout::fortran_order}) {
      const auto t = planted_skew<double>(4, 5, 12, noise, layout).tensor;
      CHECK(max_abs(t) > 0.01);
      CHECK(symmetry_deviation(t, -1).largest <= 1e-15 * max_abs(t));
      CHECK(symmetry_deviation(t, 1).largest > 1e-3);
    }
  GeneratorOptions g;
  g.order = 4;
  g.size = 3;
  g.structure = Structure::skew;
  CHECK_THROWS_WITH_AS(generate_diagonalizable<double>(g), doctest::Contains("size >= order"), user_error);
}

TEST_CASE("skew: bad input and options are user errors with a clear message") {
  const auto general = random_tensor<double>(3, 4, 5);
  CHECK_THROWS_WITH_AS(diagonalize(general, skew_options()), doctest::Contains("the tensor is not skew-symmetric: T["),
                       user_error);
  // A symmetric-looking entry with a repeated index: refused as such.
  auto repeated = planted_skew<double>(3, 4, 6).tensor;
  repeated.at({1, 1, 2}) = 0.5;
  repeated.at({1, 2, 1}) = -0.5;
  repeated.at({2, 1, 1}) = 0.5;
  CHECK_THROWS_WITH_AS(diagonalize(repeated, skew_options()), doctest::Contains("has a repeated index"), user_error);
  // Just over the tolerance is refused, just under is taken.
  auto almost = planted_skew<double>(3, 4, 6).tensor;
  const double tolerance = symmetry_tolerance<double>() * max_abs(almost);
  almost.at({0, 1, 2}) += 2 * tolerance;
  CHECK_THROWS_WITH_AS(diagonalize(almost, skew_options()), doctest::Contains("T[0, 1, 2]"), user_error);
  almost.at({0, 1, 2}) -= 1.5 * tolerance;
  CHECK_NOTHROW(diagonalize(almost, skew_options()));

  CHECK_THROWS_WITH_AS(diagonalize(HostTensor<double>(4, 3), skew_options()), doctest::Contains("N >= order D"),
                       user_error);
  const auto matrix = planted_skew<double>(2, 4, 7).tensor;
  CHECK_THROWS_WITH_AS(diagonalize(matrix), doctest::Contains("structure skew"), user_error);
  auto options = skew_options();
  options.rule = "max_trace";
  CHECK_THROWS_WITH_AS(diagonalize(matrix, options), doctest::Contains("rule max_diag, on the blocks"), user_error);
  options = skew_options();
  options.eta = 0.1;
  CHECK_THROWS_WITH_AS(diagonalize(matrix, options), doctest::Contains("pivot check"), user_error);
  options = skew_options();
  options.schedule = SweepSchedule::xor_subspaces;
  CHECK_THROWS_WITH_AS(diagonalize(matrix, options), doctest::Contains("the xor schedule is not available"), user_error);
  // The GPU engines decline a skew matrix (its Murnaghan steps are the CPU's), with the reason.
  options = skew_options();
  options.backend = Backend::cuda;
  CHECK_THROWS_WITH_AS(diagonalize(planted_skew<float>(2, 4, 8).tensor, options),
                       doctest::Contains("structure skew at order 2 (the Murnaghan form of a skew matrix) runs on the CPU "
                                         "engine only"),
                       user_error);
}
