#include "runtime/engines/gpu_verification.hpp"

#include <cmath>
#include <utility>

#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_check.hpp"

namespace tensordiag::runtime {

namespace {

// Room for `bytes` more, with 64 MB to spare for the libraries' own allocations.
bool fits_free_memory(std::size_t bytes) {
  std::size_t free = 0, total = 0;
  check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return bytes + (std::size_t{64} << 20) <= free;
}

}  // namespace

template <class T>
std::optional<double> device_reconstruction_error(const DeviceVerificationInputs<T>& on_device, GpuKernels<T>& kernels,
                                                  const std::string& arch, cudaStream_t stream) {
  const TensorView<T>& input = on_device.input;
  // Besides the run's buffers: one scratch tensor, and the core's copy when the core is kept. A
  // host input is uploaded after the products into whichever of the two the reconstruction left
  // free, so the device holds at most two tensors (three with keep_core).
  const bool upload = input.memory() == Memory::host;
  const std::size_t tensors = 1 + (on_device.keep_core ? 1 : 0);
  if (!fits_free_memory(tensors * input.count() * sizeof(T))) return std::nullopt;
  kernels.load_verification(arch);
  DeviceBuffer<T> core_copy(on_device.keep_core ? input.count() : 0);
  DeviceBuffer<T> scratch(input.count());
  if (on_device.keep_core) core_copy.upload(on_device.core.data(), input.count(), stream);
  // R = C x_1 M_1 ... x_D M_D, one mode at a time: x -> out, then the roles swap.
  T* x = on_device.keep_core ? core_copy.data() : on_device.core.data();
  T* out = scratch.data();
  const std::size_t square = static_cast<std::size_t>(input.size()) * input.size();
  for (int mode = 0; mode < input.order(); ++mode) {
    kernels.mode_product(stream, x, on_device.factors.data() + static_cast<std::size_t>(mode) * square, out, mode);
    std::swap(x, out);
  }
  if (upload)
    check_cuda(cudaMemcpyAsync(out, input.data(), input.count() * sizeof(T), cudaMemcpyHostToDevice, stream),
               "cudaMemcpyAsync (the input, for the residual)");
  kernels.residual_partial(stream, upload ? out : input.data(), x, on_device.partials.data());
  kernels.off_norm_final(stream, on_device.partials.data(), static_cast<int>(kernels.off_norm_plan.partial_blocks),
                         on_device.figures.data());
  double sums[2] = {0.0, 0.0};  // ||T - R||^2, ||T||^2
  check_cuda(cudaMemcpyAsync(sums, on_device.figures.data(), sizeof sums, cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync (residual)");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  // As the host's verification: relative to ||T||, absolute for a zero tensor.
  return sums[1] > 0 ? std::sqrt(sums[0] / sums[1]) : std::sqrt(sums[0]);
}

template std::optional<double> device_reconstruction_error(const DeviceVerificationInputs<float>&, GpuKernels<float>&,
                                                           const std::string&, cudaStream_t);
template std::optional<double> device_reconstruction_error(const DeviceVerificationInputs<double>&,
                                                           GpuKernels<double>&, const std::string&, cudaStream_t);
template std::optional<double> device_reconstruction_error(const DeviceVerificationInputs<std::complex<float>>&,
                                                           GpuKernels<std::complex<float>>&, const std::string&,
                                                           cudaStream_t);
template std::optional<double> device_reconstruction_error(const DeviceVerificationInputs<std::complex<double>>&,
                                                           GpuKernels<std::complex<double>>&, const std::string&,
                                                           cudaStream_t);

template <class T>
std::optional<Verification> verify_on_device(const DeviceVerificationInputs<T>& on_device,
                                             const std::vector<Matrix<T>>& factors, GpuKernels<T>& kernels,
                                             const std::string& arch, cudaStream_t stream) {
  const Stopwatch stopwatch;
  const auto reconstruction = device_reconstruction_error(on_device, kernels, arch, stream);
  if (!reconstruction) return std::nullopt;
  return Verification{*reconstruction, orthogonality_error(factors), stopwatch.seconds()};
}

template std::optional<Verification> verify_on_device(const DeviceVerificationInputs<float>&,
                                                      const std::vector<Matrix<float>>&, GpuKernels<float>&,
                                                      const std::string&, cudaStream_t);
template std::optional<Verification> verify_on_device(const DeviceVerificationInputs<double>&,
                                                      const std::vector<Matrix<double>>&, GpuKernels<double>&,
                                                      const std::string&, cudaStream_t);
template std::optional<Verification> verify_on_device(const DeviceVerificationInputs<std::complex<float>>&,
                                                      const std::vector<Matrix<std::complex<float>>>&,
                                                      GpuKernels<std::complex<float>>&, const std::string&,
                                                      cudaStream_t);
template std::optional<Verification> verify_on_device(const DeviceVerificationInputs<std::complex<double>>&,
                                                      const std::vector<Matrix<std::complex<double>>>&,
                                                      GpuKernels<std::complex<double>>&, const std::string&,
                                                      cudaStream_t);

}  // namespace tensordiag::runtime
