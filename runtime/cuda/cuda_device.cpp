#include "runtime/cuda/cuda_device.hpp"

#include <cuda_runtime_api.h>

#include "runtime/cuda/cuda_check.hpp"
#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

std::optional<CudaDeviceInfo> cuda_device(int index) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || index < 0 || index >= count) {
    cudaGetLastError();  // clear the sticky "no device" status for later calls
    return std::nullopt;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, index) != cudaSuccess) return std::nullopt;
  CudaDeviceInfo info;
  info.index = index;
  info.name = prop.name;
  info.major = prop.major;
  info.minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  info.total_memory = prop.totalGlobalMem;
  info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  info.shared_memory_per_block_optin = prop.sharedMemPerBlockOptin;
  if (cudaSetDevice(index) == cudaSuccess) {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) info.free_memory = free_bytes;
  }
  return info;
}

CudaDeviceInfo require_cuda_device() {
  const auto device = cuda_device();
  if (!device) throw user_error("the CUDA backend needs a GPU: " + cuda_unavailable_reason());
  check_cuda(cudaSetDevice(device->index), "cudaSetDevice");
  return *device;
}

std::string cuda_unavailable_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  cudaGetLastError();
  if (status == cudaErrorInsufficientDriver || status == cudaErrorNoDevice || status == cudaSuccess)
    return status == cudaErrorInsufficientDriver ? "no NVIDIA driver (or one too old for CUDA 13)"
                                                 : "no CUDA-capable GPU";
  return std::string("no usable GPU: ") + cudaGetErrorString(status);
}

}  // namespace tensordiag::runtime
