#include "runtime/device_arch.hpp"

#include <cuda_runtime_api.h>

namespace tensordiag::runtime {
namespace {

// The error is returned, not kept: clearing cudart's last error leaves later calls unaffected.
DeviceArch no_device(cudaError_t error) {
  cudaGetLastError();
  return {"", std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error)};
}

}  // namespace

DeviceArch current_device_arch() {
  int count = 0;
  if (const cudaError_t error = cudaGetDeviceCount(&count); error != cudaSuccess) {
    return no_device(error);
  }
  if (count == 0) return {"", "no CUDA device"};
  int device = 0;
  int major = 0;
  int minor = 0;
  if (const cudaError_t error = cudaGetDevice(&device); error != cudaSuccess) return no_device(error);
  if (const cudaError_t error = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
      error != cudaSuccess) {
    return no_device(error);
  }
  if (const cudaError_t error = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
      error != cudaSuccess) {
    return no_device(error);
  }
  return {"sm_" + std::to_string(major * 10 + minor), ""};
}

}  // namespace tensordiag::runtime
