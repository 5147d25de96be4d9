// Symmetric tensors in packed storage on the GPU (issue 11, item 1; engines/gpu_packed_engine.hpp)
// against the CPU packed engine, which makes the same rotations with the same arithmetic: the same
// sweeps, core, Q and figures (float64 to 1e-12 relative, float32 to 1e-4), ||diag C||^2 never
// down from a sweep to the next, a group's orbits at once (packed_group) and a launch a pair
// (packed_rotate, TENSORDIAG_PACKED_MAX_ORBIT); planted symmetric tensors recovered; orders over 12 refused on
// the GPU and run on the CPU under auto.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "planted_symmetric.hpp"
#include "relative_difference.hpp"
#include "scoped_environment.hpp"
#include "runtime/algorithm/packed_generator.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/packed_symmetric.hpp"
#include "runtime/diagonalize_packed.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::relative_difference;

namespace {

template <class T>
PackedSymmetricTensor<T> planted_packed(int order, int size, std::uint64_t seed, double noise) {
  return generate_packed_symmetric<T>(tensordiag::testing::planted_options(order, size, seed, noise)).tensor;
}

Options packed_on(Backend backend, int max_sweeps) {
  Options options;
  options.backend = backend;
  options.max_sweeps = max_sweeps;
  options.verify = true;
  return options;
}

// The GPU run of `options` against the CPU run of the same: the same sweeps, figures, core and Q to
// `bound` relative; Q in every factor slot; ||diag C||^2 never down. Returns the GPU's result.
template <class T>
PackedResult<T> check_gpu_equals_cpu(const PackedSymmetricTensor<T>& tensor, Options options, double bound) {
  // The packed engines themselves: on the CPU orders up to 3 (float32 4) would run through full storage.
  tensordiag::test::ScopedEnvironment packed_engines;
  packed_engines.set("TENSORDIAG_PACKED_FULL_BYTES", "0");
  options.backend = Backend::cuda;
  const PackedResult<T> gpu = diagonalize_packed(tensor, options);
  options.backend = Backend::cpu;
  const PackedResult<T> cpu = diagonalize_packed(tensor, options);
  CHECK(gpu.run.engine == "cuda_packed");
  CHECK(gpu.run.backend == Backend::cuda);
  CHECK(cpu.run.engine == "cpu_packed");
  CHECK(gpu.run.schedule == cpu.run.schedule);
  CHECK(gpu.run.passes_per_sweep == cpu.run.passes_per_sweep);
  REQUIRE(gpu.run.sweeps() == cpu.run.sweeps());
  for (std::size_t s = 0; s < gpu.run.history.size(); ++s) {
    CAPTURE(s);
    CHECK(std::abs(gpu.run.history[s].off_rel - cpu.run.history[s].off_rel) <= 10 * bound * cpu.run.history[0].off_rel);
    CHECK(gpu.run.history[s].diag_norm2 == doctest::Approx(cpu.run.history[s].diag_norm2).epsilon(10 * bound));
    CHECK(gpu.run.history[s].trace == doctest::Approx(cpu.run.history[s].trace).epsilon(10 * bound).scale(1.0));
    if (s > 0) CHECK(gpu.run.history[s].diag_norm2 >= gpu.run.history[s - 1].diag_norm2 * (1 - 10 * bound));
  }
  CHECK(relative_difference(gpu.core.values(), cpu.core.values()) <= bound);
  REQUIRE(gpu.run.factors.size() == static_cast<std::size_t>(tensor.order()));
  CHECK(relative_difference(gpu.run.factors.front().data, cpu.run.factors.front().data) <= bound);
  for (const auto& factor : gpu.run.factors) CHECK(factor.data == gpu.run.factors.front().data);
  return gpu;
}

}  // namespace

TEST_SUITE("gpu") {
TEST_CASE("packed on the GPU: the CPU packed engine's run, float64, orders 2 to 12, odd and even N, both schedules") {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  for (const auto& [order, size, schedule] :
       {std::tuple{3, 6, SweepSchedule::round_robin}, {3, 7, SweepSchedule::round_robin},
        {4, 5, SweepSchedule::round_robin}, {4, 8, SweepSchedule::xor_subspaces}, {2, 9, SweepSchedule::round_robin},
        {5, 5, SweepSchedule::round_robin}, {6, 4, SweepSchedule::round_robin}, {12, 3, SweepSchedule::round_robin},
        {10, 2, SweepSchedule::round_robin}, {3, 64, SweepSchedule::round_robin}, {4, 32, SweepSchedule::xor_subspaces},
        {6, 16, SweepSchedule::round_robin}, {8, 6, SweepSchedule::round_robin}}) {
    CAPTURE(order);
    CAPTURE(size);
    const auto tensor = planted_packed<double>(order, size, 300 + static_cast<std::uint64_t>(order * size), 0.05);
    Options options = packed_on(Backend::cuda, 3);
    options.tol = 0.0;
    options.stall_tol = 0.0;
    options.schedule = schedule;
    const PackedResult<double> gpu = check_gpu_equals_cpu(tensor, options, 1e-12);
    REQUIRE(gpu.run.verification);
    CHECK(gpu.run.verification->reconstruction_error <= 30.0 * size * order * eps);
    CHECK(gpu.run.verification->orthogonality_error <= 50.0 * size * eps);
    // The same with a launch a pair (packed_rotate) in place of a group's orbits at once.
    {
      tensordiag::test::ScopedEnvironment one_pair_a_launch;
      one_pair_a_launch.set("TENSORDIAG_PACKED_MAX_ORBIT", "0");
      check_gpu_equals_cpu(tensor, options, 1e-12);
    }
  }
  // A shape whose orbits hold up to 288 entries (a launch a pair by default), and with them at once.
  const auto large_orbits = planted_packed<double>(9, 14, 909, 0.05);
  Options options = packed_on(Backend::cuda, 2);
  options.tol = 0.0;
  options.stall_tol = 0.0;
  options.verify = false;
  check_gpu_equals_cpu(large_orbits, options, 1e-12);
  tensordiag::test::ScopedEnvironment orbits_at_once;
  orbits_at_once.set("TENSORDIAG_PACKED_MAX_ORBIT", "4096");
  check_gpu_equals_cpu(large_orbits, options, 1e-12);
}

TEST_CASE("packed on the GPU: float32 follows the CPU's float32 run, and the HOSVD start") {
  for (const auto& [order, size] : {std::pair{3, 12}, {5, 6}, {7, 4}}) {
    CAPTURE(order);
    CAPTURE(size);
    const auto tensor = planted_packed<float>(order, size, 400 + static_cast<std::uint64_t>(size), 0.02);
    Options options = packed_on(Backend::cuda, 4);
    options.tol = 0.0;
    options.stall_tol = 0.0;
    check_gpu_equals_cpu(tensor, options, 1e-4);
    options.init = Init::hosvd;
    const PackedResult<float> gpu = check_gpu_equals_cpu(tensor, options, 1e-4);
    CHECK(gpu.run.hosvd_start);
  }
  const auto tensor = planted_packed<double>(4, 9, 77, 0.05);
  Options options = packed_on(Backend::cuda, 3);
  options.init = Init::hosvd;
  options.tol = 0.0;
  options.stall_tol = 0.0;
  check_gpu_equals_cpu(tensor, options, 1e-12);
}

TEST_CASE("packed on the GPU: planted symmetric tensors are recovered to 1e-12 (float64)") {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  for (const auto& [order, size] : {std::pair{3, 8}, {4, 6}, {6, 4}, {2, 12}, {12, 2}, {9, 3}}) {
    CAPTURE(order);
    CAPTURE(size);
    const auto tensor = planted_packed<double>(order, size, 500 + static_cast<std::uint64_t>(order), 0.0);
    const PackedResult<double> gpu = diagonalize_packed(tensor, packed_on(Backend::cuda, 50));
    CHECK(gpu.run.engine == "cuda_packed");
    CHECK(gpu.run.converged());
    CHECK(gpu.run.history.back().off_rel <= 1e-12);
    REQUIRE(gpu.run.verification);
    CHECK(gpu.run.verification->reconstruction_error <= 30.0 * size * order * eps);
    CHECK(gpu.run.verification->orthogonality_error <= 50.0 * size * eps);
  }
}

TEST_CASE("packed on the GPU: order over 12 is refused with --backend cuda and runs on the CPU under auto") {
  const auto tensor = planted_packed<double>(13, 2, 9, 0.05);
  Options options = packed_on(Backend::cuda, 5);
  try {
    diagonalize_packed(tensor, options);
    FAIL("order 13 ran on the GPU");
  } catch (const user_error& error) {
    const std::string message = error.what();
    CHECK(message.find("D <= 12") != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
  options.backend = Backend::automatic;
  const PackedResult<double> result = diagonalize_packed(tensor, options);
  CHECK(result.run.engine == "cpu_packed");
  REQUIRE(result.run.notes.size() == 1);
  CHECK(result.run.notes.front().find("order 13") != std::string::npos);
  // auto takes the GPU where it can.
  options.max_sweeps = 2;
  CHECK(diagonalize_packed(planted_packed<double>(4, 6, 3, 0.05), options).run.engine == "cuda_packed");
}

TEST_CASE("packed on the GPU: a batch runs each tensor as it runs alone, bit for bit") {
  std::vector<PackedSymmetricTensor<double>> batch;
  for (const std::uint64_t seed : {11, 12, 13}) batch.push_back(planted_packed<double>(5, 7, seed, 0.05));
  const Options options = packed_on(Backend::cuda, 6);
  const std::vector<PackedResult<double>> results = diagonalize_packed_batch(batch, options);
  REQUIRE(results.size() == batch.size());
  for (std::size_t b = 0; b < batch.size(); ++b) {
    CAPTURE(b);
    const PackedResult<double> alone = diagonalize_packed(batch[b], options);
    CHECK(results[b].run.engine == "cuda_packed");
    CHECK(results[b].core.values() == alone.core.values());
    CHECK(results[b].run.factors.front().data == alone.run.factors.front().data);
    CHECK(results[b].run.verification->reconstruction_error < 1e-13);
  }
}
}
