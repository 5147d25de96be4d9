#pragma once
// The reconstruction error of a GPU run, ||T - C x_1 M_1 ... x_D M_D||_F / ||T||_F, computed on the
// device (issue 12: on the host it cost 100x the run). A host input is uploaded once more, into the
// buffer the last product left free; a device input (Memory::cuda) is read where it is; the reconstruction is the generated mode_product kernel
// chained over the modes, ping-ponging between `core` (its values are lost: download them first, or
// set keep_core, which works on a copy) and one scratch tensor; the residual and ||T||^2
// are summed in double by residual_partial and off_norm_final, in a fixed order. Each mode product
// accumulates in double and rounds to the dtype once (mode_product_entry.cuh), where the host's
// verification keeps double throughout: for float32 the two figures differ at the level of float32
// rounding, for float64 at that of float64. Complex tensors the same way (the products in
// Complex<double>, the residual as squared moduli).
#include <cuda_runtime_api.h>

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/algorithm/verification.hpp"
#include "runtime/core/tensor.hpp"
#include "runtime/core/tensor_view.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/gpu_kernels.hpp"

namespace tensordiag::runtime {

// What the device verification works on: the run's buffers (factors: D row-major N x N matrices;
// partials: at least off_norm's partial_doubles; figures: 2 doubles).
template <class T>
struct DeviceVerificationInputs {
  TensorView<T> input;
  DeviceBuffer<T>& core;
  const DeviceBuffer<T>& factors;
  DeviceBuffer<double>& partials;
  DeviceBuffer<double>& figures;
  bool keep_core = false;  // the core is the caller's result (diagonalize_on_device): spend a copy
};

// nullopt when a scratch tensor (and the kept core's copy) do not fit the free device memory (the caller then
// verifies on the host).
template <class T>
std::optional<double> device_reconstruction_error(const DeviceVerificationInputs<T>& on_device, GpuKernels<T>& kernels,
                                                  const std::string& arch, cudaStream_t stream);

// Both errors of a GPU run: the reconstruction on the device (the core's buffer is spent) and the
// orthogonality of the downloaded `factors` on the host, timed together; nullopt when the device
// has no room (the caller then verifies on the host).
template <class T>
std::optional<Verification> verify_on_device(const DeviceVerificationInputs<T>& on_device,
                                             const std::vector<Matrix<T>>& factors, GpuKernels<T>& kernels,
                                             const std::string& arch, cudaStream_t stream);

extern template std::optional<Verification> verify_on_device(const DeviceVerificationInputs<float>&,
                                                             const std::vector<Matrix<float>>&, GpuKernels<float>&,
                                                             const std::string&, cudaStream_t);
extern template std::optional<Verification> verify_on_device(const DeviceVerificationInputs<double>&,
                                                             const std::vector<Matrix<double>>&, GpuKernels<double>&,
                                                             const std::string&, cudaStream_t);
extern template std::optional<Verification> verify_on_device(const DeviceVerificationInputs<std::complex<float>>&,
                                                             const std::vector<Matrix<std::complex<float>>>&,
                                                             GpuKernels<std::complex<float>>&, const std::string&,
                                                             cudaStream_t);
extern template std::optional<Verification> verify_on_device(const DeviceVerificationInputs<std::complex<double>>&,
                                                             const std::vector<Matrix<std::complex<double>>>&,
                                                             GpuKernels<std::complex<double>>&, const std::string&,
                                                             cudaStream_t);
extern template std::optional<double> device_reconstruction_error(const DeviceVerificationInputs<float>&,
                                                                  GpuKernels<float>&, const std::string&, cudaStream_t);
extern template std::optional<double> device_reconstruction_error(const DeviceVerificationInputs<double>&,
                                                                  GpuKernels<double>&, const std::string&, cudaStream_t);
extern template std::optional<double> device_reconstruction_error(const DeviceVerificationInputs<std::complex<float>>&,
                                                                  GpuKernels<std::complex<float>>&, const std::string&,
                                                                  cudaStream_t);
extern template std::optional<double> device_reconstruction_error(const DeviceVerificationInputs<std::complex<double>>&,
                                                                  GpuKernels<std::complex<double>>&, const std::string&,
                                                                  cudaStream_t);

}  // namespace tensordiag::runtime
