// The CPU engine: convergence on diagonalizable tensors, ascent, agreement with the plain
// mode-by-mode algorithm, layouts, stopping.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "dsl/builtin_rules.hpp"
#include "random_tensor.hpp"
#include "reference_engine.hpp"
#include "runtime/engines/cpu_engine.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/engines/pivot_subtensor.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/verification.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::max_abs_difference;
using tensordiag::testing::random_tensor;

namespace {

template <class T>
std::vector<double> sorted_abs_diagonal(const HostTensor<T>& t) {
  std::vector<double> d;
  for (int i = 0; i < t.size(); ++i)
    d.push_back(std::abs(static_cast<double>(t.values()[static_cast<std::size_t>(i * t.diagonal_stride())])));
  std::sort(d.begin(), d.end());
  return d;
}

template <class T>
void check_recovers_diagonalizable(int order, int size, std::uint64_t seed) {
  CAPTURE(order);
  CAPTURE(size);
  constexpr double eps = std::numeric_limits<T>::epsilon();
  const bool single = std::is_same_v<T, float>;
  GeneratorOptions g;
  g.order = order;
  g.size = size;
  g.seed = seed;
  const auto generated = generate_diagonalizable<T>(g);
  Options options;
  options.max_sweeps = 12;
  const auto result = diagonalize(generated.tensor, options);
  CHECK(result.converged());
  CHECK(result.history.back().off_rel <= (single ? 1e-5 : 1e-12));
  CHECK(result.sweeps() <= 12);

  std::vector<double> truth;
  for (double x : generated.diagonal) truth.push_back(std::abs(x));
  std::sort(truth.begin(), truth.end());
  const auto found = sorted_abs_diagonal(result.core);
  const double scale = std::sqrt(diag_norm2(generated.tensor) + off_norm2(generated.tensor));
  CHECK(max_abs_difference(found, truth) <= 100 * size * eps * scale);
  CHECK(reconstruction_error(generated.tensor, result.core, result.factors) <= 50 * size * eps);
  CHECK(orthogonality_error(result.factors) <= 50 * size * eps);
}

}  // namespace

TEST_CASE("diagonalizable tensors are diagonalized and their diagonal recovered (float64)") {
  for (int order : {3, 4, 5, 7})
    for (int size : {2, 3, 7, 8, 16})
      if (std::pow(size, order) <= 3e6) check_recovers_diagonalizable<double>(order, size, 1000u + static_cast<unsigned>(order * 31 + size));
}

TEST_CASE("diagonalizable tensors are diagonalized and their diagonal recovered (float32)") {
  for (int order : {3, 4, 5, 7})
    for (int size : {2, 3, 7, 8, 16})
      if (std::pow(size, order) <= 3e6) check_recovers_diagonalizable<float>(order, size, 2000u + static_cast<unsigned>(order * 31 + size));
}

TEST_CASE_TEMPLATE("every micro-iteration and every group step does not decrease the rule's objective", T, float, double) {
  auto objective = [](const HostTensor<T>& t, bool trace) {
    double sum = 0;
    for (int i = 0; i < t.size(); ++i) {
      const double x = static_cast<double>(t.values()[static_cast<std::size_t>(i * t.diagonal_stride())]);
      sum += trace ? x : x * x;
    }
    return sum;
  };
  const double eps = std::numeric_limits<T>::epsilon();
  auto check_rule = [&](const auto& rule, bool trace) {
    for (auto [order, size, seed] : {std::tuple{3, 6, 1u}, {4, 5, 2u}, {5, 4, 3u}, {3, 9, 4u}}) {
      HostTensor<T> core = random_tensor<T>(order, size, seed);
      for (int sweep = 0; sweep < 3; ++sweep)
        for (const auto& pairs : round_robin_schedule(size)) {
          // Each micro-iteration on a pair's subtensor: its objective at the chosen (c, s) is no
          // less than at the identity.
          for (const auto& pair : pairs) {
            auto sub = gather_pivot_subtensor(core.data(), core.strides(), pair);
            for (int mode = 0; mode < order; ++mode) {
              auto v = pivot_values(sub, mode);
              const T before = dsl::evaluate(rule.objective, v);
              const auto g = dsl::rotation(rule, v);
              v.c = g.c;
              v.s = g.s;
              CHECK(dsl::evaluate(rule.objective, v) >= before - 8 * eps * (1 + std::abs(before)));
              rotate_pivot_subtensor(sub, mode, g);
            }
          }
          const double before = objective(core, trace);
          group_step(core, pairs, rule, 0.0, 1);
          CHECK(objective(core, trace) >= before - 64 * eps * (1 + std::abs(before)));
        }
    }
  };
  check_rule(dsl::rules::max_diag, false);
  check_rule(dsl::rules::max_trace, true);
}

TEST_CASE("the fused group step equals the plain mode-by-mode algorithm, without and with pivot checks") {
  // The innermost mode's forms in float64: N = 4 one AVX2 vector a slab, N = 8, 16, 32 the fixed
  // slabs of 64, 128 and 256 bytes, N = 3, 5, 6, 7 the loop form.
  for (auto [order, size, eta] : {std::tuple{3, 6, 0.0}, {4, 5, 0.0}, {5, 3, 0.0}, {3, 8, 0.2}, {4, 4, 0.45}, {3, 7, 0.25},
                                  {3, 16, 0.0}, {3, 32, 0.0}, {4, 8, 0.0}}) {
    CAPTURE(order);
    CAPTURE(size);
    CAPTURE(eta);
    const auto input = random_tensor<double>(order, size, static_cast<std::uint64_t>(order * 100 + size));
    HostTensor<double> reference = input;
    std::vector<Matrix<double>> reference_factors(static_cast<std::size_t>(order), Matrix<double>::identity(size));
    int rejected = 0;
    for (int sweep = 0; sweep < 3; ++sweep)
      rejected += tensordiag::testing::reference_sweep(reference, reference_factors, dsl::rules::max_diag, eta);
    if (eta > 0) CHECK(rejected > 0);  // the check really rejected something

    Options options;
    options.max_sweeps = 3;
    options.eta = eta;
    options.tol = 1e-300;
    options.stall_tol = 0;
    const auto result = diagonalize(input, options);
    REQUIRE(result.sweeps() == 3);
    CHECK(max_abs_difference(result.core.values(), reference.values()) <= 1e-12);
    for (int n = 0; n < order; ++n)
      CHECK(max_abs_difference(result.factors[static_cast<std::size_t>(n)].data,
                               reference_factors[static_cast<std::size_t>(n)].data) <= 1e-12);
  }
}

TEST_CASE("a Fortran-order tensor gives the same decomposition as its C-order twin") {
  for (auto [order, size] : {std::pair{3, 7}, {4, 6}, {6, 4}}) {
    const auto c_tensor = random_tensor<double>(order, size, 77u + static_cast<unsigned>(size));
    const auto f_tensor = tensordiag::testing::relayout(c_tensor, Layout::fortran_order);
    Options options;
    options.max_sweeps = 4;
    const auto from_c = diagonalize(c_tensor, options);
    const auto from_f = diagonalize(f_tensor, options);
    CHECK(from_f.core.layout() == Layout::fortran_order);
    const auto f_as_c = tensordiag::testing::relayout(from_f.core, Layout::c_order);
    CHECK(max_abs_difference(f_as_c.values(), from_c.core.values()) <= 1e-12);
    for (int n = 0; n < order; ++n)
      CHECK(max_abs_difference(from_f.factors[static_cast<std::size_t>(n)].data, from_c.factors[static_cast<std::size_t>(n)].data) <= 1e-12);
  }
}

TEST_CASE("reproducible: run after run and at any thread count, core, factors and figures bit for bit") {
  GeneratorOptions g;
  g.order = 4;
  g.size = 24;  // 331776 entries: above the threshold for threads
  g.seed = 5;
  g.noise = 0.05;
  const auto generated = generate_diagonalizable<double>(g);
  Options options;
  options.max_sweeps = 2;
  options.threads = 1;
  options.verify = true;
  const auto one = diagonalize(generated.tensor, options);
  REQUIRE(one.verification.has_value());
  for (const int threads : {1, 2, 3}) {
    CAPTURE(threads);
    options.threads = threads;
    const auto again = diagonalize(generated.tensor, options);
    CHECK(again.core.values() == one.core.values());
    for (std::size_t n = 0; n < one.factors.size(); ++n) CHECK(again.factors[n].data == one.factors[n].data);
    REQUIRE(again.history.size() == one.history.size());
    for (std::size_t k = 0; k < one.history.size(); ++k) {
      CHECK(again.history[k].off_rel == one.history[k].off_rel);
      CHECK(again.history[k].diag_norm2 == one.history[k].diag_norm2);
      CHECK(again.history[k].trace == one.history[k].trace);
    }
    REQUIRE(again.verification.has_value());
    CHECK(again.verification->reconstruction_error == one.verification->reconstruction_error);
    CHECK(again.verification->orthogonality_error == one.verification->orthogonality_error);
  }
}

TEST_CASE("stopping: tolerance, stall, max sweeps, callback, and the history") {
  GeneratorOptions g;
  g.order = 4;
  g.size = 6;
  g.seed = 9;
  g.noise = 0.3;  // not diagonalizable: off_rel levels off above 0
  const auto noisy = generate_diagonalizable<double>(g);
  Options options;
  const auto stalled = diagonalize(noisy.tensor, options);
  CHECK(stalled.stop_reason == StopReason::stalled);
  CHECK(stalled.history.back().off_rel > 0.05);
  CHECK(stalled.history.front().sweep == 0);
  CHECK(stalled.history.front().off_rel == 1.0);
  for (std::size_t k = 1; k < stalled.history.size(); ++k) {
    CHECK(stalled.history[k].sweep == static_cast<int>(k));
    CHECK(stalled.history[k].diag_norm2 >= stalled.history[k - 1].diag_norm2 * (1 - 1e-14));
  }

  options.max_sweeps = 2;
  const auto capped = diagonalize(noisy.tensor, options);
  CHECK(capped.stop_reason == StopReason::max_sweeps);
  CHECK(capped.sweeps() == 2);

  Options with_callback;
  int calls = 0;
  with_callback.on_sweep = [&](const SweepRecord& record) {
    ++calls;
    CHECK(record.sweep == calls);
    return record.sweep == 2;
  };
  const auto stopped = diagonalize(noisy.tensor, with_callback);
  CHECK(stopped.stop_reason == StopReason::callback);
  CHECK(stopped.sweeps() == 2);
  CHECK(calls == 2);

  // max_trace stalls on its own objective, the trace, which rises monotonically.
  Options trace_rule;
  trace_rule.rule = "max_trace";
  const auto trace_stalled = diagonalize(noisy.tensor, trace_rule);
  CHECK(trace_stalled.stop_reason == StopReason::stalled);
  CHECK(trace_stalled.sweeps() < 100);
  for (std::size_t k = 1; k < trace_stalled.history.size(); ++k)
    CHECK(trace_stalled.history[k].trace >= trace_stalled.history[k - 1].trace - 1e-12);

  g.noise = 0;
  const auto clean = diagonalize(generate_diagonalizable<double>(g).tensor, Options{});
  CHECK(clean.stop_reason == StopReason::tolerance);
  CHECK(clean.converged());
}

TEST_CASE("bad input and options are user errors with a clear message") {
  const auto matrix = random_tensor<double>(2, 4, 1);
  CHECK_THROWS_WITH_AS(diagonalize(matrix), doctest::Contains("SVD"), user_error);
  auto with_nan = random_tensor<double>(3, 3, 2);
  with_nan.values()[5] = std::nan("");
  CHECK_THROWS_WITH_AS(diagonalize(with_nan), doctest::Contains("NaN or Inf at flat index 5"), user_error);
  const auto tensor = random_tensor<float>(3, 3, 3);
  Options bad_rule;
  bad_rule.rule = "max_magic";
  CHECK_THROWS_WITH_AS(diagonalize(tensor, bad_rule), doctest::Contains("unknown rule 'max_magic'"), user_error);
  Options bad_eta;
  bad_eta.eta = -1;
  CHECK_THROWS_WITH_AS(diagonalize(tensor, bad_eta), doctest::Contains("eta"), user_error);
  Options cuda;
  cuda.backend = Backend::cuda;
  CHECK_THROWS_WITH_AS(diagonalize(tensor, cuda), doctest::Contains("CUDA"), user_error);
}

TEST_CASE("a batch on the CPU equals its tensors one by one, and mixed shapes are refused") {
  std::vector<HostTensor<double>> tensors;
  for (unsigned seed = 0; seed < 4; ++seed) tensors.push_back(random_tensor<double>(3, 5, 900 + seed));
  Options options;
  options.backend = Backend::cpu;
  options.max_sweeps = 5;
  const auto batch = diagonalize_batch(tensors, options);
  REQUIRE(batch.size() == 4);
  for (std::size_t b = 0; b < tensors.size(); ++b)
    CHECK(max_abs_difference(batch[b].core.values(), diagonalize(tensors[b], options).core.values()) == 0.0);
  tensors.push_back(random_tensor<double>(3, 6, 1));
  CHECK_THROWS_WITH_AS(diagonalize_batch(tensors, options), doctest::Contains("one shape"), user_error);
}

TEST_CASE("the factor update, row by row on any number of threads, equals the pair-by-pair column update bit for bit") {
  // The update as it was written first: for each pair, columns p and q of every row.
  auto pair_by_pair = [](std::vector<Matrix<double>>& factors, const GroupRotations<double>& group) {
    for (int mode = 0; mode < group.order; ++mode) {
      Matrix<double>& m = factors[static_cast<std::size_t>(mode)];
      for (std::size_t pair = 0; pair < group.pairs.size(); ++pair) {
        const auto g = group.at(mode, pair);
        const auto [p, q] = group.pairs[pair];
        for (int row = 0; row < m.n; ++row) {
          const double x = m(row, p), y = m(row, q);
          m(row, p) = g.c * x + g.s * y;
          m(row, q) = g.c * y - g.s * x;
        }
      }
    }
  };
  // 400: 160000 entries a factor, over the 2^17 from which its rows go to the threads.
  for (const auto& [size, threads] : {std::pair{2, 1}, {3, 1}, {8, 1}, {17, 1}, {64, 1}, {64, 3}, {400, 1}, {400, 3}}) {
    CAPTURE(size);
    CAPTURE(threads);
    const auto values = random_tensor<double>(2, size, 70u + static_cast<unsigned>(size));
    std::vector<Matrix<double>> factors(3, Matrix<double>::identity(size));
    for (std::size_t n = 0; n < factors.size(); ++n)
      for (std::size_t i = 0; i < factors[n].data.size(); ++i) factors[n].data[i] = values.values()[i] + static_cast<double>(n);
    auto reference = factors;
    RandomStream random(static_cast<std::uint64_t>(size));
    const auto groups = round_robin_schedule(size);
    const std::size_t used = size > 64 ? 12 : groups.size();  // (400: a few groups suffice)
    for (std::size_t g_index = 0; g_index < used; ++g_index) {
      GroupRotations<double> group(3, groups[g_index]);
      for (auto& g : group.rotations) {
        const double phi = random.gaussian();
        g = {std::cos(phi), std::sin(phi)};
      }
      group.at(1, 0) = {1.0, 0.0};  // the identity, as converged pairs have
      apply_group_to_factors(factors, group, threads);
      pair_by_pair(reference, group);
    }
    for (std::size_t n = 0; n < factors.size(); ++n) CHECK(factors[n].data == reference[n].data);
  }
}
