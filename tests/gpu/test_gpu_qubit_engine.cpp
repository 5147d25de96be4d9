// The N = 2 path of large D (cuda_qubit, runtime/engines/gpu_qubit_engine.hpp) against the CPU
// engine and the mathematics: the same sweeps from two reductions of the unchanged tensor give the
// core and factors of the CPU's explicit rotations (float64 to 1e-10, called directly: the table
// takes the path for float32 only), float32 runs take it through diagonalize(), equal the CPU to
// 1e-4, diagonalize a planted tensor, and verify themselves as the host verifies them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "gpu/qubit_equals_cpu.hpp"
#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/engines/gpu_qubit_engine.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;
using tensordiag::testing::check_qubit_run_equals_cpu;
using tensordiag::testing::relative_difference;

namespace {

// Three sweeps of the qubit path (called directly) and of the CPU engine.
void check_qubit_equals_cpu(const HostTensor<double>& tensor, const std::string& rule) {
  Options options;
  options.backend = Backend::cpu;
  options.rule = rule;
  options.max_sweeps = 3;
  options.tol = 1e-300;
  options.stall_tol = 0;
  const auto cpu = diagonalize(tensor, options);
  const EngineRun run{RunSettings{StopCriteria{3, 1e-300, 0.0}, 0.0, 1, {}}, codegen::lower_builtin_rule(rule)};
  check_qubit_run_equals_cpu(run_gpu_qubit_engine(tensor, run), cpu);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("the qubit path equals the CPU engine in float64 (1e-10): both layouts, both rules, odd and even D") {
    unsigned seed = 700;
    for (const Layout layout : {Layout::c_order, Layout::fortran_order})
      for (const int order : {20, 21, 23}) {
        CAPTURE(order);
        CAPTURE(layout == Layout::c_order);
        check_qubit_equals_cpu(random_tensor<double>(order, 2, seed++, layout), "max_diag");
      }
    check_qubit_equals_cpu(random_tensor<double>(20, 2, seed++, Layout::c_order), "max_trace");
  }

  TEST_CASE("float32 N = 2 from D = 20 takes the qubit path, equals the CPU (1e-4), diagonalizes a planted tensor") {
    GeneratorOptions g;
    g.order = 21;
    g.size = 2;
    g.seed = 91;
    const auto planted = generate_diagonalizable<float>(g);
    Options options;
    options.max_sweeps = 3;
    options.tol = 1e-300;
    options.stall_tol = 0;
    options.backend = Backend::cpu;
    const auto cpu = diagonalize(planted.tensor, options);
    options.backend = Backend::cuda;
    const auto gpu = diagonalize(planted.tensor, options);
    CHECK(gpu.engine == "cuda_qubit");
    CHECK(relative_difference(gpu.core.values(), cpu.core.values()) <= 1e-4);
    for (std::size_t n = 0; n < cpu.factors.size(); ++n)
      CHECK(relative_difference(gpu.factors[n].data, cpu.factors[n].data) <= 1e-4);

    // To convergence: the planted diagonal recovered, every sweep raising ||diag C||^2, and the
    // device's verification equal to the host's.
    constexpr double eps = std::numeric_limits<float>::epsilon();
    Options converge;
    converge.backend = Backend::cuda;
    converge.max_sweeps = 30;
    converge.verify = true;
    const auto result = diagonalize(planted.tensor, converge);
    CHECK(result.engine == "cuda_qubit");
    CHECK(result.stop_reason == StopReason::tolerance);
    // ||T||^2 - ||diag C||^2 cancels on a converged planted tensor: the figure stops at its
    // resolution, 5 D 2^-53 ||T||^2, and never reads 0.
    const double resolution = std::sqrt(5.0 * 21 * 0x1p-53 * (diag_norm2(planted.tensor) + off_norm2(planted.tensor))) /
                              std::sqrt(off_norm2(planted.tensor));
    for (const SweepRecord& record : result.history) CHECK(record.off_rel >= resolution * (1 - 1e-6));
    std::vector<double> truth{std::abs(planted.diagonal[0]), std::abs(planted.diagonal[1])};
    std::vector<double> found{std::abs(static_cast<double>(result.core.values().front())),
                              std::abs(static_cast<double>(result.core.values().back()))};
    std::sort(truth.begin(), truth.end());
    std::sort(found.begin(), found.end());
    const double scale = std::sqrt(diag_norm2(planted.tensor) + off_norm2(planted.tensor));
    for (std::size_t i = 0; i < 2; ++i) CHECK(std::abs(found[i] - truth[i]) <= 100 * 21 * eps * scale);
    for (std::size_t k = 1; k < result.history.size(); ++k)
      CHECK(result.history[k].diag_norm2 >= result.history[k - 1].diag_norm2 * (1 - 64 * eps));
    REQUIRE(result.verification.has_value());
    const Verification host = verify(planted.tensor, result);
    CHECK(result.verification->reconstruction_error <= 50 * 21 * eps);
    CHECK(std::abs(result.verification->reconstruction_error - host.reconstruction_error) <= 10 * eps);
    CHECK(result.verification->orthogonality_error == host.orthogonality_error);
  }

  TEST_CASE("float32 N = 2 with the pivot check below eta = 1.5 takes the qubit path: the run without it, bit for bit") {
    const auto tensor = random_tensor<float>(21, 2, 930u, Layout::fortran_order);
    Options options;
    options.backend = Backend::cuda;
    options.max_sweeps = 4;
    options.tol = 1e-300;
    options.stall_tol = 0;
    const Result<float> plain = diagonalize(tensor, options);
    REQUIRE(plain.engine == "cuda_qubit");
    for (const double eta : {0.00125, 1.4}) {
      CAPTURE(eta);
      options.eta = eta;
      const Result<float> checked = diagonalize(tensor, options);
      CHECK(checked.engine == "cuda_qubit");
      CHECK(checked.core.values() == plain.core.values());
      for (std::size_t n = 0; n < plain.factors.size(); ++n) CHECK(checked.factors[n].data == plain.factors[n].data);
      REQUIRE(checked.pivot_checks.has_value());
      CHECK(checked.pivot_checks->checks == 4LL * 21);
      CHECK(checked.pivot_checks->exact_norms == 0);
    }
    // From 1.5 the qubit path declines (the check may reject there); auto runs it elsewhere.
    options.eta = 2.5;
    options.backend = Backend::automatic;
    options.max_sweeps = 1;
    CHECK(diagonalize(tensor, options).engine != "cuda_qubit");
  }
}
