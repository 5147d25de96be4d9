// The device verification (runtime/engines/gpu_verification.hpp) against the host's on the same
// core and factors: equal to rounding where the residual is at rounding level, and equal to 1e-12
// relative (float64) where a wrong core entry makes it large, so that it cannot hide a wrong answer.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "random_tensor.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/diagonalize.hpp"
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

template <class T>
void check_against_host(int order, int size, Layout layout, unsigned seed, double rounding_bound) {
  CAPTURE(order);
  CAPTURE(size);
  CAPTURE(seed);
  const HostTensor<T> tensor = random_tensor<T>(order, size, seed, layout);
  Options options;
  options.backend = Backend::cpu;
  options.max_sweeps = 3;
  Result<T> result = diagonalize(tensor, options);
  const double host = reconstruction_error(tensor, result.core, result.factors);
  const double device = on_device(tensor, result.core, result.factors);
  CHECK(host < 100 * rounding_bound);
  CHECK(std::abs(device - host) <= rounding_bound);
  // One entry of the core wrong by 1e-3 ||T||: both see it, and agree on it.
  double norm2 = 0;
  for (const T x : tensor.values()) norm2 += static_cast<double>(x) * static_cast<double>(x);
  result.core.values()[result.core.count() / 3] += static_cast<T>(1e-3 * std::sqrt(norm2));
  const double host_wrong = reconstruction_error(tensor, result.core, result.factors);
  const double device_wrong = on_device(tensor, result.core, result.factors);
  CHECK(host_wrong == doctest::Approx(1e-3).epsilon(0.01));
  CHECK(std::abs(device_wrong - host_wrong) <= (sizeof(T) == 8 ? 1e-12 : 1e-4) * host_wrong);
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
}
