// The symmetric CPU engine (structure symmetric, DESIGN.md section 7): planted symmetric tensors
// recovered, the Jacobi eigenvalue method for D = 2, ascent at every micro-iteration, the core
// kept symmetric, and the input checks.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

#include "planted_symmetric.hpp"
#include "random_tensor.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/symmetry_check.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/engines/cpu_symmetric_engine.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using namespace tensordiag::testing;

namespace {

Options symmetric_options() {
  Options options;
  options.structure = Structure::symmetric;
  options.backend = Backend::cpu;
  return options;
}

}  // namespace

TEST_CASE("symmetric: planted S x_1 Q ... x_D Q are recovered, diagonal to 1e-12 and Q up to sign and permutation") {
  for (int order = 3; order <= 6; ++order)
    for (int size : {2, 3, 5, 8}) {
      if (std::pow(size, order) > 3e5) continue;
      CAPTURE(order);
      CAPTURE(size);
      const auto truth = planted<double>(order, size, 500u + static_cast<unsigned>(order * 17 + size));
      Options options = symmetric_options();
      options.verify = true;
      const auto result = diagonalize(truth.tensor, options);
      CHECK(result.converged());
      CHECK(result.sweeps() <= 20);
      CHECK(result.structure == Structure::symmetric);
      REQUIRE(result.factors.size() == static_cast<std::size_t>(order));
      for (const auto& factor : result.factors) CHECK(factor.data == result.factors.front().data);
      check_recovered(truth, result, 1e-12);
      REQUIRE(result.verification);
      constexpr double eps = std::numeric_limits<double>::epsilon();
      CHECK(result.verification->reconstruction_error <= 30.0 * size * order * eps);
      CHECK(result.verification->orthogonality_error <= 50.0 * size * eps);
    }
}

TEST_CASE("symmetric: planted float32 tensors converge to the float32 tolerance") {
  for (auto [order, size] : {std::pair{3, 6}, {4, 4}, {5, 3}}) {
    CAPTURE(order);
    const auto truth = planted<float>(order, size, 77u + static_cast<unsigned>(order));
    const auto result = diagonalize(truth.tensor, symmetric_options());
    CHECK(result.converged());
    CHECK(result.history.back().off_rel <= 1e-5);
  }
}

TEST_CASE("symmetric: D = 2 is the Jacobi eigenvalue method, eigenvalues equal Eigen's to 1e-12") {
  for (int size : {2, 3, 5, 8, 16, 31}) {
    CAPTURE(size);
    // A random symmetric matrix (not planted): (G + G^T) / 2.
    const auto g = random_tensor<double>(2, size, 40u + static_cast<unsigned>(size));
    HostTensor<double> a(2, size);
    Eigen::MatrixXd m(size, size);
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) m(i, j) = a.at({i, j}) = (g.at({i, j}) + g.at({j, i})) / 2;
    const auto result = diagonalize(a, symmetric_options());
    CHECK(result.converged());
    std::vector<double> found = diagonal_of(result.core);
    std::sort(found.begin(), found.end());
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(m);
    const double scale = eigen.eigenvalues().cwiseAbs().maxCoeff();
    for (int i = 0; i < size; ++i) CHECK(std::abs(found[static_cast<std::size_t>(i)] - eigen.eigenvalues()(i)) <= 1e-12 * scale);
    CHECK(reconstruction_error(a, result.core, result.factors) <= 1e-14 * size);
  }
}

TEST_CASE("symmetric: every micro-iteration and group step raises ||diag C||^2, and C stays symmetric") {
  for (auto [order, size] : {std::pair{2, 9}, {3, 7}, {4, 5}, {5, 4}, {6, 3}}) {
    CAPTURE(order);
    // Symmetric and far from diagonalizable: the planted tensor under symmetric noise as large.
    HostTensor<double> core = planted<double>(order, size, 900u + static_cast<unsigned>(order), 1.0).tensor;
    const double input_scale = max_abs(core);
    for (int sweep = 0; sweep < 4; ++sweep)
      for (const auto& pairs : round_robin_schedule(size)) {
        // A pair's share of the diagonal, C[p..p]^2 + C[q..q]^2, is its micro-iteration's objective.
        auto share = [&](const PivotPair& pair) {
          const auto d = diagonal_of(core);
          return d[static_cast<std::size_t>(pair.p)] * d[static_cast<std::size_t>(pair.p)] +
                 d[static_cast<std::size_t>(pair.q)] * d[static_cast<std::size_t>(pair.q)];
        };
        std::vector<double> before;
        for (const auto& pair : pairs) before.push_back(share(pair));
        const double total_before = diag_norm2(core);
        symmetric_group_step(core, pairs, 1);
        for (std::size_t k = 0; k < pairs.size(); ++k)
          CHECK(share(pairs[k]) >= before[k] - 1e-14 * (1 + before[k]));
        CHECK(diag_norm2(core) >= total_before - 1e-14 * total_before);
      }
    CHECK(symmetry_deviation(core).largest <= 1e-14 * input_scale);
  }
  // And over whole runs: the history never goes down, the final core symmetric to 1e-14.
  const auto noisy = planted<double>(4, 6, 31, 0.5).tensor;
  const auto result = diagonalize(noisy, symmetric_options());
  CHECK(result.stop_reason == StopReason::stalled);
  for (std::size_t k = 1; k < result.history.size(); ++k)
    CHECK(result.history[k].diag_norm2 >= result.history[k - 1].diag_norm2 * (1 - 1e-14));
  CHECK(symmetry_deviation(result.core).largest <= 1e-14 * max_abs(result.core));
}

TEST_CASE("symmetric: bad input and options are user errors with a clear message") {
  const auto general = random_tensor<double>(3, 4, 5);
  CHECK_THROWS_WITH_AS(diagonalize(general, symmetric_options()), doctest::Contains("the tensor is not symmetric: T["),
                       user_error);
  // Just over the tolerance is refused, just under is taken.
  auto almost = planted<double>(3, 4, 6).tensor;
  const double tolerance = symmetry_tolerance<double>() * max_abs(almost);
  almost.at({0, 1, 2}) += 2 * tolerance;
  CHECK_THROWS_WITH_AS(diagonalize(almost, symmetric_options()), doctest::Contains("T[0, 1, 2]"), user_error);
  almost.at({0, 1, 2}) -= 1.5 * tolerance;
  CHECK_NOTHROW(diagonalize(almost, symmetric_options()));

  const auto matrix = planted<double>(2, 4, 7).tensor;
  CHECK_THROWS_WITH_AS(diagonalize(matrix), doctest::Contains("SVD"), user_error);
  auto options = symmetric_options();
  options.rule = "max_trace";
  CHECK_THROWS_WITH_AS(diagonalize(matrix, options), doctest::Contains("rule max_diag"), user_error);
  options = symmetric_options();
  options.eta = 0.1;
  CHECK_THROWS_WITH_AS(diagonalize(matrix, options), doctest::Contains("pivot check"), user_error);
  options = symmetric_options();
  options.schedule = SweepSchedule::xor_subspaces;
  const auto odd = planted<double>(3, 6, 8).tensor;
  CHECK_THROWS_WITH_AS(diagonalize(odd, options), doctest::Contains("the xor schedule takes N a power of two"),
                       user_error);
}

TEST_CASE("symmetric: the xor schedule recovers planted tensors within one sweep of the round robin, its groups in the GPU's subspace order") {
  for (auto [order, size] : {std::pair{3, 8}, {3, 16}, {3, 32}, {4, 8}, {5, 4}}) {
    CAPTURE(order);
    CAPTURE(size);
    const auto truth = planted<double>(order, size, 900u + static_cast<unsigned>(order * 31 + size));
    const auto round_robin = diagonalize(truth.tensor, symmetric_options());
    Options options = symmetric_options();
    options.schedule = SweepSchedule::xor_subspaces;
    const auto xor_run = diagonalize(truth.tensor, options);
    CHECK(xor_run.schedule == "xor");
    CHECK(round_robin.schedule == "round-robin");
    CHECK(xor_run.passes_per_sweep == size - 1);  // every group once, a pass each
    CHECK(xor_run.converged());
    CHECK(xor_run.sweeps() <= round_robin.sweeps() + 1);
    check_recovered(truth, xor_run, 1e-12);
    CHECK(symmetry_deviation(xor_run.core).largest <= 1e-14 * max_abs(xor_run.core));
    for (std::size_t k = 1; k < xor_run.history.size(); ++k)
      CHECK(xor_run.history[k].diag_norm2 >= xor_run.history[k - 1].diag_norm2 * (1 - 1e-14));
  }
}

TEST_CASE("symmetric: the generator's tensors are symmetric, with and without noise, in both layouts") {
  for (double noise : {0.0, 0.3})
    for (Layout layout : {Layout::c_order, Layout::fortran_order}) {
      GeneratorOptions g;
      g.order = 4;
      g.size = 3;
      g.seed = 12;
      g.noise = noise;
      g.layout = layout;
      g.structure = Structure::symmetric;
      const auto t = generate_diagonalizable<double>(g).tensor;
      CHECK(symmetry_deviation(t).largest <= 1e-15 * max_abs(t));
      g.structure = Structure::general;
      CHECK(symmetry_deviation(generate_diagonalizable<double>(g).tensor).largest > 1e-3);
    }
}

TEST_CASE("symmetric: a batch equals its tensors one by one") {
  std::vector<HostTensor<double>> tensors;
  for (unsigned seed = 0; seed < 3; ++seed) tensors.push_back(planted<double>(3, 5, 60 + seed, 0.1).tensor);
  const auto batch = diagonalize_batch(tensors, symmetric_options());
  REQUIRE(batch.size() == tensors.size());
  for (std::size_t b = 0; b < tensors.size(); ++b) {
    CHECK(batch[b].structure == Structure::symmetric);
    CHECK(batch[b].core.values() == diagonalize(tensors[b], symmetric_options()).core.values());
  }
}

TEST_CASE("symmetric: D = 2 runs equal their group steps with Q updated pair by pair, bit for bit") {
  // The engine against its steps taken by hand, Q's columns p, q rotated pair after pair as the
  // factor update did before it went row by row (group_pass.cpp).
  for (int size : {7, 40}) {
    CAPTURE(size);
    const auto g = random_tensor<double>(2, size, 120u + static_cast<unsigned>(size));
    HostTensor<double> a(2, size);
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) a.at({i, j}) = (g.at({i, j}) + g.at({j, i})) / 2;
    Options options = symmetric_options();
    options.max_sweeps = 2;
    const auto result = diagonalize(a, options);
    REQUIRE(result.sweeps() == 2);

    HostTensor<double> core = a;
    Matrix<double> q = Matrix<double>::identity(size);
    for (int sweep = 0; sweep < 2; ++sweep)
      for (const auto& pairs : round_robin_schedule(size)) {
        const auto group = symmetric_group_step(core, pairs, 1);
        for (std::size_t k = 0; k < pairs.size(); ++k) {
          const auto rotation = group.at(0, k);
          for (int row = 0; row < size; ++row) {
            const double x = q(row, pairs[k].p), y = q(row, pairs[k].q);
            q(row, pairs[k].p) = rotation.c * x + rotation.s * y;
            q(row, pairs[k].q) = rotation.c * y - rotation.s * x;
          }
        }
      }
    CHECK(result.core.values() == core.values());
    CHECK(result.factors.front().data == q.data);
  }
}
