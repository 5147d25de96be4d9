// The device verification (runtime/engines/gpu_verification.hpp) against the host's on the same
// core and factors, real and complex: equal to rounding where the residual is at rounding level,
// and equal to 1e-12 relative (float64, complex128) where a wrong core entry makes it large, so
// that it cannot hide a wrong answer; and a complex GPU run's own verification, made on the device
// after its phases are fixed, equal to the host's on its outputs.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <utility>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "complex_recovery.hpp"
#include "random_tensor.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_complex.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/gpu_verification.hpp"

using namespace tensordiag::runtime;
namespace codegen = tensordiag::codegen;
using tensordiag::testing::random_tensor;

namespace {

// The device's reconstruction error of (core, factors) against `tensor`.
template <class T>
double on_device(const HostTensor<T>& tensor, const HostTensor<T>& core, const std::vector<Matrix<T>>& factors) {
  GpuKernels<T> kernels(kernel_spec_for(tensor, codegen::lower_builtin_rule("max_diag"), codegen::KernelKind::group_pass),
                        cuda_device()->arch(), KernelSet::general);
  const CudaStream stream;
  DeviceBuffer<T> d_core(core.count());
  d_core.upload(core.data(), core.count(), stream.get());
  std::vector<T> flat;
  for (const auto& m : factors) flat.insert(flat.end(), m.data.begin(), m.data.end());
  DeviceBuffer<T> d_factors(flat.size());
  d_factors.upload(flat, stream.get());
  DeviceBuffer<double> partials(static_cast<std::size_t>(kernels.off_norm_plan.partial_doubles)), figures(2);
  const auto error = device_reconstruction_error(DeviceVerificationInputs<T>{tensor, d_core, d_factors, partials, figures},
                                                 kernels, cuda_device()->arch(), stream.get());
  REQUIRE(error.has_value());
  return *error;
}

// A seeded tensor: random real entries, or a noisy planted complex one (noise 0.3).
template <class T>
HostTensor<T> test_tensor(int order, int size, unsigned seed, Layout layout) {
  if constexpr (is_complex_v<T>)
    return tensordiag::testing::planted_complex<real_t<T>>(order, size, seed, layout, 0.3).tensor;
  else
    return random_tensor<T>(order, size, seed, layout);
}

template <class T>
void check_against_host(int order, int size, Layout layout, unsigned seed, double rounding_bound) {
  CAPTURE(order);
  CAPTURE(size);
  CAPTURE(seed);
  const HostTensor<T> tensor = test_tensor<T>(order, size, seed, layout);
  Options options;
  options.backend = Backend::cpu;
  options.max_sweeps = 3;
  Result<T> result;
  if constexpr (is_complex_v<T>) result = diagonalize_complex(tensor, options);
  else result = diagonalize(tensor, options);
  const double host = reconstruction_error(tensor, result.core, result.factors);
  const double device = on_device(tensor, result.core, result.factors);
  CHECK(host < 100 * rounding_bound);
  CHECK(std::abs(device - host) <= rounding_bound);
  // One entry of the core wrong by 1e-3 ||T||: both see it, and agree on it.
  double norm2 = 0;
  for (const T x : tensor.values()) norm2 += std::norm(x);
  result.core.values()[result.core.count() / 3] += static_cast<T>(static_cast<real_t<T>>(1e-3 * std::sqrt(norm2)));
  const double host_wrong = reconstruction_error(tensor, result.core, result.factors);
  const double device_wrong = on_device(tensor, result.core, result.factors);
  CHECK(host_wrong == doctest::Approx(1e-3).epsilon(0.01));
  CHECK(std::abs(device_wrong - host_wrong) <= (sizeof(real_t<T>) == 8 ? 1e-12 : 1e-4) * host_wrong);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("the device verification equals the host's on the same core and factors") {
    check_against_host<double>(3, 7, Layout::fortran_order, 1, 1e-13);
    check_against_host<double>(4, 6, Layout::c_order, 2, 1e-13);
    check_against_host<double>(3, 40, Layout::c_order, 3, 1e-13);
    check_against_host<double>(6, 3, Layout::fortran_order, 4, 1e-13);
    check_against_host<float>(5, 4, Layout::c_order, 5, 2e-6);
    check_against_host<float>(3, 33, Layout::fortran_order, 6, 2e-6);
  }

  TEST_CASE("the device verification of complex tensors equals the host's on the same core and factors") {
    check_against_host<std::complex<double>>(3, 7, Layout::fortran_order, 11, 1e-13);
    check_against_host<std::complex<double>>(4, 6, Layout::c_order, 12, 1e-13);
    check_against_host<std::complex<double>>(12, 2, Layout::c_order, 13, 1e-13);
    check_against_host<std::complex<float>>(5, 4, Layout::c_order, 14, 2e-6);
    check_against_host<std::complex<float>>(3, 33, Layout::fortran_order, 15, 2e-6);
  }

  TEST_CASE("a complex GPU run is verified on the device, after its phases are fixed: the host's figures on its outputs") {
    // The run's own verification (on the device, of the core and factors as returned) against the
    // host's verify() of the same result.
    // Shapes past the one-block engine (whose batches are verified on the host).
    for (const auto& [order, size] : {std::pair{3, 40}, std::pair{13, 2}}) {
      CAPTURE(order);
      const HostTensor<std::complex<double>> tensor =
          tensordiag::testing::planted_complex<double>(order, size, 20 + order, Layout::c_order, 0.3).tensor;
      Options options;
      options.backend = Backend::cuda;
      options.max_sweeps = 4;
      options.verify = true;
      const Result<std::complex<double>> gpu = diagonalize_complex(tensor, options);
      CHECK(gpu.engine == "cuda");
      CHECK(gpu.kernels.back() == "mode_product");
      REQUIRE(gpu.verification);
      const Verification host = verify(tensor, gpu);
      CHECK(std::abs(gpu.verification->reconstruction_error - host.reconstruction_error) <= 1e-13);
      CHECK(gpu.verification->orthogonality_error == host.orthogonality_error);
      CHECK(gpu.verification->reconstruction_error <= 30.0 * size * order * 2.2e-16);
      // The phases were fixed before: every diagonal entry real and >= 0.
      for (int i = 0; i < size; ++i) {
        const std::complex<double> c = gpu.core.data()[i * gpu.core.diagonal_stride()];
        CHECK(c.imag() == 0.0);
        CHECK(c.real() >= 0.0);
      }
    }
  }
}
