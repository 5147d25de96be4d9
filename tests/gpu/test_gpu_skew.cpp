// Structure skew on the general GPU engine (skew_angles, then the group pass with the same rotation
// in every mode, padded groups; DESIGN.md section 7) against the CPU skew engine and against the
// mathematics: the same sweeps, core and Q (float64 to 1e-10 relative), C skew to 1e-14, Q
// orthogonal and the same in every factor slot, planted block values recovered to 1e-12 with every
// block entry >= 0, the block objective never down; float32 to its own tolerance; the HOSVD start;
// order 2 declined with its reason (auto runs it on the CPU).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "planted_symmetric.hpp"
#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "skew_block_entries.hpp"
#include "structured_runs.hpp"
#include "runtime/algorithm/skew_blocks.hpp"
#include "runtime/algorithm/skew_schedule.hpp"
#include "runtime/algorithm/symmetry_check.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using namespace tensordiag::testing;

namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();

Options skew_on(Backend backend) { return structured_on(Structure::skew, backend); }

Options fixed_sweeps(int sweeps) { return testing::fixed_sweeps(Structure::skew, sweeps); }

// The GPU's skew result `gpu` against the CPU skew engine's `cpu` on the same tensor: the same
// sweeps, core and Q to `bound` relative, off_rel and the block objective of every sweep to 10
// bound; the GPU's D factors equal bit for bit, its core skew to `skew_bound` of its largest entry,
// the block objective never down, every block entry >= 0.
template <class T>
void check_equals_cpu(const Result<T>& gpu, const Result<T>& cpu, const HostTensor<T>& tensor, double bound) {
  REQUIRE(gpu.backend == Backend::cuda);
  CHECK(gpu.structure == Structure::skew);
  REQUIRE(gpu.sweeps() == cpu.sweeps());
  CHECK(relative_difference(gpu.core.values(), cpu.core.values()) <= bound);
  REQUIRE(gpu.factors.size() == static_cast<std::size_t>(tensor.order()));
  CHECK(relative_difference(gpu.factors.front().data, cpu.factors.front().data) <= bound);
  for (const auto& factor : gpu.factors) CHECK(factor.data == gpu.factors.front().data);
  for (std::size_t k = 0; k < cpu.history.size(); ++k) {
    CHECK(std::abs(gpu.history[k].off_rel - cpu.history[k].off_rel) <= 10 * bound);
    CHECK(gpu.history[k].diag_norm2 == doctest::Approx(cpu.history[k].diag_norm2).epsilon(10 * bound));
    CHECK(gpu.history[k].trace == doctest::Approx(cpu.history[k].trace).epsilon(10 * bound).scale(1));
  }
  for (std::size_t k = 1; k < gpu.history.size(); ++k)
    CHECK(gpu.history[k].diag_norm2 >= gpu.history[k - 1].diag_norm2 * (1 - 10 * bound));
  const double skew_bound = sizeof(T) == 8 ? 1e-14 : 1e-5;
  CHECK(symmetry_deviation(gpu.core, -1).largest <= skew_bound * tensor.size() * max_abs(gpu.core));
  for (const double x : block_entries(gpu.core)) CHECK(x >= 0);
}

// The GPU run of `options` against the CPU's (check_equals_cpu). The general engine runs the skew
// groups (skew_angles, group_pass: its passes a sweep are the groups); the one-block engine takes
// small tensors (small_tensor's skew variant). Returns the GPU result.
template <class T>
Result<T> check_gpu_equals_cpu(const HostTensor<T>& tensor, Options options, double bound) {
  options.backend = Backend::cuda;
  const Result<T> gpu = diagonalize(tensor, options);
  const auto loaded = [&gpu](const char* kind) {
    return std::find(gpu.kernels.begin(), gpu.kernels.end(), kind) != gpu.kernels.end();
  };
  if (gpu.engine == "cuda") {
    CHECK(loaded("skew_angles"));
    CHECK(gpu.passes_per_sweep == static_cast<int>(skew_schedule(tensor.order(), tensor.size()).size()));
  } else {
    CHECK(gpu.engine == "cuda_one_block");
    CHECK(loaded("small_tensor"));
  }
  options.backend = Backend::cpu;
  check_equals_cpu(gpu, diagonalize(tensor, options), tensor, bound);
  return gpu;
}

// The planted block values |S_k|, sorted, against the found ones to `bound` of the largest.
template <class T>
void check_blocks_recovered(const GeneratedTensor<T>& truth, const Result<T>& result, double bound) {
  std::vector<double> found = block_entries(result.core), planted_values;
  for (const auto x : truth.diagonal) planted_values.push_back(std::abs(static_cast<double>(x)));
  std::sort(found.begin(), found.end());
  std::sort(planted_values.begin(), planted_values.end());
  REQUIRE(found.size() == planted_values.size());
  for (std::size_t k = 0; k < found.size(); ++k)
    CHECK(std::abs(found[k] - planted_values[k]) <= bound * planted_values.back());
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("skew planted tensors, D = 3..6, float64: the GPU equals the CPU skew engine and recovers the blocks") {
    const Shape shapes[] = {{3, 7},  {3, 9}, {3, 12, Layout::fortran_order}, {3, 31}, {3, 64}, {4, 9},
                            {4, 10, Layout::fortran_order}, {4, 16}, {5, 11}, {6, 13}, {3, 3}, {4, 5}};
    unsigned seed = 1200;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const auto truth = planted<double>(shape.order, shape.size, seed++, 0.0, Structure::skew, shape.layout);
      Options options = skew_on(Backend::cuda);
      options.verify = true;
      const Result<double> gpu = check_gpu_equals_cpu(truth.tensor, options, 1e-10);
      CHECK(gpu.converged());
      check_blocks_recovered(truth, gpu, 1e-12);
      REQUIRE(gpu.verification);
      CHECK(gpu.verification->reconstruction_error <= 30.0 * shape.size * shape.order * eps);
      CHECK(gpu.verification->orthogonality_error <= 50.0 * shape.size * eps);
    }
  }

  TEST_CASE("skew tensors far from a block form (noise as large as S): 3 sweeps equal the CPU's (float64, 1e-10)") {
    const Shape shapes[] = {{3, 8}, {3, 20, Layout::fortran_order}, {4, 11}, {5, 7}, {7, 9, Layout::fortran_order}};
    unsigned seed = 1300;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      check_gpu_equals_cpu(planted<double>(shape.order, shape.size, seed++, 1.0, Structure::skew, shape.layout).tensor,
                           fixed_sweeps(3), 1e-10);
    }
  }

  TEST_CASE("skew float32 on the GPU: the CPU's core and Q to 1e-4 after 4 sweeps, planted blocks to the float32 tolerance") {
    unsigned seed = 1400;
    for (const Shape shape : {Shape{3, 10}, Shape{4, 9, Layout::fortran_order}, Shape{3, 40}}) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const auto noisy = planted<float>(shape.order, shape.size, seed++, 0.5, Structure::skew, shape.layout);
      check_gpu_equals_cpu(noisy.tensor, fixed_sweeps(4), 1e-4);
      const auto truth = planted<float>(shape.order, shape.size, seed++, 0.0, Structure::skew, shape.layout);
      const Result<float> gpu = diagonalize(truth.tensor, skew_on(Backend::cuda));
      CHECK(gpu.converged());
      CHECK(gpu.history.back().off_rel <= 1e-5);
      check_blocks_recovered(truth, gpu, 1e-5);
    }
  }

  TEST_CASE("skew with the HOSVD start on the GPU: the blocks and the stall level of the start from the identity") {
    for (const Shape shape : {Shape{3, 20}, Shape{4, 12, Layout::fortran_order}}) {
      CAPTURE(shape.order);
      const auto truth = planted<double>(shape.order, shape.size, 1500u + shape.order, 1e-3, Structure::skew, shape.layout);
      Options options = skew_on(Backend::cuda);
      options.verify = true;
      const Result<double> plain = diagonalize(truth.tensor, options);
      options.init = Init::hosvd;
      const Result<double> started = diagonalize(truth.tensor, options);
      CHECK(started.hosvd_start);
      CHECK(started.engine == "cuda");
      // With noise both stall at its level (not at the tolerance): at the same one.
      CHECK(started.history.back().off_rel == doctest::Approx(plain.history.back().off_rel).epsilon(1e-3));
      std::vector<double> x = block_entries(plain.core), y = block_entries(started.core);
      std::sort(x.begin(), x.end());
      std::sort(y.begin(), y.end());
      for (std::size_t k = 0; k < x.size(); ++k) CHECK(y[k] == doctest::Approx(x[k]).epsilon(1e-10));
      REQUIRE(started.verification);
      CHECK(started.verification->reconstruction_error <= 30.0 * shape.size * shape.order * eps);
      for (const auto& factor : started.factors) CHECK(factor.data == started.factors.front().data);
    }
  }

  TEST_CASE("skew on the one-block engine: small tensors and batches, equal the CPU tensor by tensor (float64, 1e-10)") {
    // A single skew tensor takes the one-block engine up to 5832 entries at D = 3 and 1296 above
    // (gpu_small_engine.cpp: where it measured faster), a larger one the general engine.
    struct Expected {
      Shape shape;
      const char* engine;
    };
    unsigned seed = 1700;
    for (const Expected& c : {Expected{{3, 7}, "cuda_one_block"}, Expected{{4, 5, Layout::fortran_order}, "cuda_one_block"},
                              Expected{{3, 12}, "cuda_one_block"}, Expected{{4, 6}, "cuda_one_block"},
                              Expected{{3, 20}, "cuda"}, Expected{{4, 8}, "cuda"}}) {
      CAPTURE(c.shape.order);
      CAPTURE(c.shape.size);
      const auto truth = planted<double>(c.shape.order, c.shape.size, seed++, 0.0, Structure::skew, c.shape.layout);
      const Result<double> gpu = check_gpu_equals_cpu(truth.tensor, skew_on(Backend::cuda), 1e-10);
      CHECK(gpu.engine == c.engine);
      CHECK(gpu.converged());
      check_blocks_recovered(truth, gpu, 1e-12);
    }
    // A batch of noisy ones, in one launch; and float32.
    std::vector<HostTensor<double>> tensors;
    for (unsigned b = 0; b < 5; ++b)
      tensors.push_back(planted<double>(4, 6, 1750 + b, 0.5, Structure::skew).tensor);
    Options options = fixed_sweeps(4);
    const std::vector<Result<double>> gpu = diagonalize_batch(tensors, options);
    options.backend = Backend::cpu;
    REQUIRE(gpu.size() == tensors.size());
    for (std::size_t b = 0; b < tensors.size(); ++b) {
      CAPTURE(b);
      CHECK(gpu[b].engine == "cuda_one_block");
      check_equals_cpu(gpu[b], diagonalize(tensors[b], options), tensors[b], 1e-10);
    }
    const auto noisy = planted<float>(3, 9, 1760, 0.5, Structure::skew, Layout::fortran_order);
    const Result<float> small32 = check_gpu_equals_cpu(noisy.tensor, fixed_sweeps(4), 1e-4);
    CHECK(small32.engine == "cuda_one_block");
  }

  TEST_CASE("skew at order 2 is the CPU's: backend cuda declines it with the reason, auto runs it there") {
    const auto matrix = planted<double>(2, 8, 1600, 0.5, Structure::skew).tensor;
    CHECK_THROWS_WITH_AS(diagonalize(matrix, skew_on(Backend::cuda)),
                         doctest::Contains("structure skew at order 2 (the Murnaghan form of a skew matrix) runs on the "
                                           "CPU engine only"),
                         user_error);
    const Result<double> result = diagonalize(matrix, skew_on(Backend::automatic));
    CHECK(result.backend == Backend::cpu);
    CHECK(result.converged());
  }
}
