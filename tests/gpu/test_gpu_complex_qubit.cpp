// Complex N = 2 tensors on the qubit path (cuda_qubit; issue 11 item 3 with issue 12's sweeps): one
// accumulated U_n in SU(2) a mode, the tensor read twice a sweep and written once at the end, the
// modes' phases and then the diagonal's fixed on the host. Against the CPU complex engine on the
// same input: complex128, called directly (the engine table takes complex64 only), in core, every
// factor and the figures to 1e-10, both layouts, odd and even D; complex64 through
// diagonalize_complex to 1e-4; a planted complex64 tensor recovered, every sweep raising
// ||diag C||^2, the device's verification equal to the host's; a pivot check below eta = 1.5 is
// the run without it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "complex_recovery.hpp"
#include "gpu/complex_gpu_cpu.hpp"
#include "gpu/qubit_equals_cpu.hpp"
#include "runtime/algorithm/complex_generator.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/diagonalize_complex.hpp"
#include "runtime/engines/gpu_qubit_engine.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using namespace tensordiag::testing;

namespace {

// Three sweeps of the qubit path (called directly) and of the CPU complex engine.
void check_qubit_equals_cpu(const HostTensor<std::complex<double>>& tensor) {
  Options options = fixed_sweeps(3);
  options.backend = Backend::cpu;
  options.verify = false;
  const Result<std::complex<double>> cpu = diagonalize_complex(tensor, options);
  REQUIRE(cpu.engine == "cpu_complex");
  const EngineRun run{RunSettings{StopCriteria{3, 0.0, 0.0}, 0.0, 1, {}}, codegen::lower_builtin_rule("max_diag")};
  check_qubit_run_equals_cpu(run_gpu_qubit_engine(tensor, run), cpu);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("the complex qubit path equals the CPU complex engine in complex128 (1e-10): both layouts, odd and even D") {
    std::uint64_t seed = 1700;
    for (const Shape shape : {Shape{16, 2}, Shape{17, 2, Layout::fortran_order}, Shape{19, 2},
                              Shape{20, 2, Layout::fortran_order}}) {
      CAPTURE(shape.order);
      check_qubit_equals_cpu(planted_complex<double>(shape.order, 2, seed++, shape.layout, 0.5).tensor);
    }
  }

  TEST_CASE("complex64 N = 2 from D = 18 takes the qubit path and equals the CPU complex engine (1e-4)") {
    std::uint64_t seed = 1720;
    for (const Shape shape : {Shape{18, 2, Layout::fortran_order}, Shape{21, 2}}) {
      CAPTURE(shape.order);
      const GeneratedComplexTensor<float> noisy = planted_complex<float>(shape.order, 2, seed++, shape.layout, 0.3);
      const Result<std::complex<float>> gpu = check_gpu_equals_cpu(noisy.tensor, fixed_sweeps(3), 1e-4);
      CHECK(gpu.engine == "cuda_qubit");
      REQUIRE(gpu.verification);
      const double eps = std::numeric_limits<float>::epsilon();
      CHECK(gpu.verification->orthogonality_error <= 30.0 * 2 * shape.order * eps);
      CHECK(gpu.verification->reconstruction_error <= 30.0 * 2 * shape.order * eps);
    }
  }

  TEST_CASE("a planted complex64 N = 2, D = 20 tensor converges on the qubit path and is recovered") {
    constexpr int order = 20;
    const GeneratedComplexTensor<float> truth = planted_complex<float>(order, 2, 1740, Layout::fortran_order);
    const Result<std::complex<float>> gpu = diagonalize_complex(truth.tensor, on(Backend::cuda));
    CHECK(gpu.engine == "cuda_qubit");
    CHECK(gpu.stop_reason == StopReason::tolerance);
    constexpr double eps = std::numeric_limits<float>::epsilon();
    for (std::size_t k = 1; k < gpu.history.size(); ++k)
      CHECK(gpu.history[k].diag_norm2 >= gpu.history[k - 1].diag_norm2 * (1 - 64 * eps));
    // The diagonal real and >= 0, its moduli the planted ones to the core's rounding.
    const double scale = std::sqrt(diag_norm2(truth.tensor) + off_norm2(truth.tensor));
    std::vector<double> found, expected;
    for (int i = 0; i < 2; ++i) {
      const std::complex<float> c = gpu.core.data()[i * gpu.core.diagonal_stride()];
      CHECK(c.imag() == 0.0f);
      CHECK(c.real() >= 0.0f);
      found.push_back(c.real());
      expected.push_back(std::abs(truth.diagonal[static_cast<std::size_t>(i)]));
    }
    std::sort(found.begin(), found.end());
    std::sort(expected.begin(), expected.end());
    for (std::size_t i = 0; i < 2; ++i) CHECK(std::abs(found[i] - expected[i]) <= 100 * order * eps * scale);
    REQUIRE(gpu.verification);
    const Verification host = verify(truth.tensor, gpu);
    CHECK(gpu.verification->reconstruction_error <= 50 * order * eps);
    CHECK(std::abs(gpu.verification->reconstruction_error - host.reconstruction_error) <= 10 * eps);
    CHECK(gpu.verification->orthogonality_error == host.orthogonality_error);
  }

  TEST_CASE("complex64 N = 2 with the pivot check below eta = 1.5 takes the qubit path: the run without it, bit for bit") {
    const GeneratedComplexTensor<float> noisy = planted_complex<float>(19, 2, 1760, Layout::c_order, 0.3);
    Options options = fixed_sweeps(4);
    const Result<std::complex<float>> plain = diagonalize_complex(noisy.tensor, options);
    REQUIRE(plain.engine == "cuda_qubit");
    options.eta = 0.00125;
    const Result<std::complex<float>> checked = diagonalize_complex(noisy.tensor, options);
    CHECK(checked.engine == "cuda_qubit");
    CHECK(checked.core.values() == plain.core.values());
    for (std::size_t n = 0; n < plain.factors.size(); ++n) CHECK(checked.factors[n].data == plain.factors[n].data);
    REQUIRE(checked.pivot_checks.has_value());
    CHECK(checked.pivot_checks->checks == 4LL * 19);
    CHECK(checked.pivot_checks->exact_norms == 0);
  }
}
