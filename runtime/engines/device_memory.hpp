#pragma once
// Whether a run's buffers fit the device, asked before any work.
#include "runtime/core/tensor.hpp"
#include "runtime/cuda/cuda_device.hpp"

namespace tensordiag::runtime {

// Throws user_error naming the bytes needed and free when the tensor, its D factors of N x N and
// 64 MB for the rest do not fit next to what is already in use on `device`.
template <class T>
void check_device_memory(const CudaDeviceInfo& device, const HostTensor<T>& tensor);

extern template void check_device_memory(const CudaDeviceInfo&, const HostTensor<float>&);
extern template void check_device_memory(const CudaDeviceInfo&, const HostTensor<double>&);

}  // namespace tensordiag::runtime
