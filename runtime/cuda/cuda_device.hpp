#pragma once
// The GPU, if any. The CUDA runtime loads the driver lazily, so this answers "no device" cleanly
// on a machine without an NVIDIA driver instead of failing at start.
#include <cstddef>
#include <optional>
#include <string>

namespace tensordiag::runtime {

struct CudaDeviceInfo {
  int index = 0;
  std::string name;
  int major = 0;
  int minor = 0;
  int multiprocessors = 0;
  std::size_t total_memory = 0;
  std::size_t free_memory = 0;
  std::size_t l2_bytes = 0;
  std::size_t shared_memory_per_block_optin = 0;

  std::string arch() const { return "sm_" + std::to_string(major) + std::to_string(minor); }
};

// The device `index`, or nothing when there is no usable device (no driver, no GPU, bad index).
std::optional<CudaDeviceInfo> cuda_device(int index = 0);

// The device the engines run on, made current; user_error with the reason when there is none.
CudaDeviceInfo require_cuda_device();

// Why cuda_device() found nothing, as one line ("no CUDA driver", "no CUDA-capable device", ...).
std::string cuda_unavailable_reason();

}  // namespace tensordiag::runtime
