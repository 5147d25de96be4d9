// The XOR subspace passes on the GPU (subspace_angles, subspace_apply) against the CPU's
// (runtime/engines/subspace_step.hpp) on the same passes: float64 to 1e-10 relative, with
// subspace_apply's outer modes fused with its load and store or not; the same run
// twice, bit for bit; runs with them converge on planted tensors within one sweep of the round robin.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "codegen/kernel_plan.hpp"
#include "dsl/builtin_rules.hpp"
#include "random_tensor.hpp"
#include "schedule_runs.hpp"
#include "relative_difference.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/xor_schedule.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/engines/cpu_engine.hpp"
#include "scoped_environment.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;
using tensordiag::testing::relative_difference;

namespace {

// The cell bits the GPU engine takes for the shape (its subspace_apply plan), 0 when none fit.
template <class T>
int gpu_cell_bits(int order, int size) {
  const codegen::KernelSpec spec{codegen::KernelKind::subspace_apply, order, size,
                                 std::is_same_v<T, float> ? codegen::ScalarType::float32 : codegen::ScalarType::float64,
                                 Layout::c_order, codegen::lower_builtin_rule("max_diag"), {}};
  const codegen::PlanAttempt attempt = codegen::try_plan(spec);
  return attempt.plan ? std::get<codegen::SubspaceApplyPlan>(attempt.plan->kind_plan).cell_bits : 0;
}

struct Shape {
  int order, size;
  Layout layout;
};

// A GPU run on the XOR passes of exactly `sweeps` sweeps.
Options xor_sweeps_on_gpu(int sweeps) {
  Options options;
  options.backend = Backend::cuda;
  options.schedule = SweepSchedule::xor_subspaces;
  options.max_sweeps = sweeps;
  options.tol = 1e-300;
  options.stall_tol = 0;
  return options;
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("the XOR subspace passes on the GPU equal the same passes on the CPU (float64, 1e-10)") {
    if (!cuda_device()) {
      MESSAGE("skipped: no CUDA device");
      return;
    }
    for (const Shape& shape : {Shape{3, 16, Layout::c_order}, Shape{6, 16, Layout::fortran_order},
                               Shape{5, 8, Layout::c_order}, Shape{3, 32, Layout::fortran_order},
                               Shape{4, 64, Layout::c_order}, Shape{7, 4, Layout::c_order}}) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const int bits = gpu_cell_bits<double>(shape.order, shape.size);
      CAPTURE(bits);
      const auto tensor = random_tensor<double>(shape.order, shape.size, 4100u + static_cast<unsigned>(shape.size * shape.order),
                                                shape.layout);
      // The reference: the same passes on the host, cells where the GPU has them, else one group a pass.
      HostTensor<double> core = tensor;
      std::vector<Matrix<double>> factors(static_cast<std::size_t>(shape.order), Matrix<double>::identity(shape.size));
      const auto passes = xor_schedule(shape.size, bits > 0 ? bits : 1);
      for (int sweep = 0; sweep < 2; ++sweep)
        for (const SubspacePass& pass : passes) {
          if (bits > 0) sweep_pass(core, factors, SweepPass{pass}, dsl::rules::max_diag, 0.0, 0);
          else
            for (const int c : pass.groups) sweep_pass(core, factors, SweepPass{pass.global_group(c)}, dsl::rules::max_diag, 0.0, 0);
        }
      // Real work is compared: two sweeps moved the core far from the input.
      CHECK(relative_difference(core.values(), tensor.values()) > 1e-2);
      // subspace_apply as planned, and with its outer modes through the tile (0), the last fused
      // with the store (1) and the first with the load too (2; kernels_templates/subspace_apply.cu).
      for (const char* fused : {"", "0", "1", "2"}) {
        const std::string fused_setting = *fused ? fused : "(the plan's)";
        CAPTURE(fused_setting);
        test::ScopedEnvironment environment;
        environment.set("TENSORDIAG_SUBSPACE_FUSED", *fused ? std::optional<std::string>(fused) : std::nullopt);
        const auto gpu = diagonalize(tensor, xor_sweeps_on_gpu(2));
        REQUIRE(gpu.engine == "cuda");
        CHECK(gpu.schedule == "xor");
        CHECK(gpu.passes_per_sweep == static_cast<int>(bits > 0 ? passes.size() : static_cast<std::size_t>(shape.size - 1)));
        CHECK(relative_difference(gpu.core.values(), core.values()) <= 1e-10);
        for (std::size_t n = 0; n < factors.size(); ++n) CHECK(relative_difference(gpu.factors[n].data, factors[n].data) <= 1e-10);
      }
    }
  }

  // The apply pass starts while the pass's angle kernel runs (gpu_subspace_passes.hpp): a read of
  // the tensor before the previous pass wrote it, or a write before the angles read it, would make
  // runs differ (and drift from the CPU's passes, checked above on fewer tiles).
  TEST_CASE_TEMPLATE("the XOR passes on the GPU give the same core and factors bit for bit, run after run", T, float, double) {
    if (!cuda_device()) {
      MESSAGE("skipped: no CUDA device");
      return;
    }
    for (const Shape& shape : {Shape{3, 128, Layout::c_order}, Shape{5, 16, Layout::fortran_order}}) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const auto tensor = random_tensor<T>(shape.order, shape.size, 4700u + static_cast<unsigned>(shape.size), shape.layout);
      const Options options = xor_sweeps_on_gpu(3);
      const auto first = diagonalize(tensor, options);
      REQUIRE(first.schedule == "xor");
      CHECK(relative_difference(first.core.values(), tensor.values()) > 1e-2);
      for (int run = 0; run < 3; ++run) {
        const auto again = diagonalize(tensor, options);
        CHECK(again.core.values() == first.core.values());
        for (std::size_t n = 0; n < first.factors.size(); ++n) CHECK(again.factors[n].data == first.factors[n].data);
      }
    }
  }

  TEST_CASE_TEMPLATE("the XOR schedule on the GPU reaches the tolerance within one sweep of the round robin", T, float, double) {
    if (!cuda_device()) {
      MESSAGE("skipped: no CUDA device");
      return;
    }
    for (const Shape& shape : {Shape{3, 32, Layout::c_order}, Shape{4, 16, Layout::fortran_order},
                               Shape{4, 32, Layout::c_order}, Shape{6, 8, Layout::c_order},
                               Shape{3, 128, Layout::c_order}}) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      GeneratorOptions g;
      g.order = shape.order;
      g.size = shape.size;
      g.seed = 950u + static_cast<unsigned>(shape.size);
      g.layout = shape.layout;
      const auto planted = generate_diagonalizable<T>(g);
      Options options;
      options.backend = Backend::cuda;
      options.max_sweeps = 20;
      const auto [round_robin, by_xor] = tensordiag::testing::run_both_schedules(planted.tensor, options);
      // auto takes the XOR passes where they measured faster (gpu_engine.cpp, auto_takes_xor): at
      // order 3, at order 4 (cells of 4) for N a power of two from 8, as at D = 4, N = 16 and 32; the
      // round robin at D = 6, N = 8.
      options.schedule = SweepSchedule::automatic;
      const auto automatic = diagonalize(planted.tensor, options);
      const bool auto_xor = shape.order <= 4;
      CHECK(automatic.schedule == (auto_xor ? "xor" : "round-robin"));
      // The subspace passes load none of the group passes' kernels.
      if (auto_xor) CHECK(automatic.kernels == std::vector<std::string>{"off_norm", "subspace_apply", "subspace_angles"});
      REQUIRE(round_robin.converged());
      CHECK(by_xor.schedule == "xor");
      CHECK(by_xor.passes_per_sweep < round_robin.passes_per_sweep);
      CHECK(by_xor.converged());
      CHECK(by_xor.sweeps() <= round_robin.sweeps() + 1);
      for (std::size_t s = 1; s < by_xor.history.size(); ++s)
        CHECK(by_xor.history[s].diag_norm2 >= by_xor.history[s - 1].diag_norm2 * (1 - 1e-5));
    }
  }
}
