#pragma once
// Whether a run's buffers fit the device, asked before any work (issue 13): an engine declines a
// tensor that does not fit, so --backend cuda fails with one line naming the bytes needed and
// free, and --backend auto runs on the CPU with a note that says the same.
#include <complex>
#include <optional>
#include <string>

#include "runtime/core/tensor.hpp"
#include "runtime/cuda/cuda_device.hpp"

namespace tensordiag::runtime {

// The bytes a GPU run of one tensor holds on the device: the tensor, its D factors of N x N and
// 64 MB for the rest (schedules, rotations, partial sums; the qubit path's small arrays).
double device_bytes_needed(int order, int size, std::size_t scalar_bytes);
template <class T>
double device_bytes_needed(const HostTensor<T>& tensor);

// Why `bytes` do not fit next to what is already in use on `device`, or nullopt.
std::optional<std::string> device_memory_refusal(const CudaDeviceInfo& device, double bytes);

// The same on the device a run would take; nullopt when there is none (the run then says why).
std::optional<std::string> current_device_memory_refusal(double bytes);

// Throws user_error with device_memory_refusal's reason.
template <class T>
void check_device_memory(const CudaDeviceInfo& device, const HostTensor<T>& tensor);

extern template double device_bytes_needed(const HostTensor<float>&);
extern template double device_bytes_needed(const HostTensor<double>&);
extern template void check_device_memory(const CudaDeviceInfo&, const HostTensor<float>&);
extern template void check_device_memory(const CudaDeviceInfo&, const HostTensor<double>&);
extern template double device_bytes_needed(const HostTensor<std::complex<float>>&);
extern template double device_bytes_needed(const HostTensor<std::complex<double>>&);
extern template void check_device_memory(const CudaDeviceInfo&, const HostTensor<std::complex<float>>&);
extern template void check_device_memory(const CudaDeviceInfo&, const HostTensor<std::complex<double>>&);

}  // namespace tensordiag::runtime
