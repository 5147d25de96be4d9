#pragma once
// A compiled cubin loaded through the CUDA runtime API (cudaLibraryLoadData), so tensordiag needs
// no link against the driver library and starts on machines without one.
#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runtime/cuda/cuda_check.hpp"

namespace tensordiag::runtime {

class CudaLibrary {
public:
  explicit CudaLibrary(const std::vector<char>& cubin);
  ~CudaLibrary();
  CudaLibrary(const CudaLibrary&) = delete;
  CudaLibrary& operator=(const CudaLibrary&) = delete;

  // The kernel `name` (an extern "C" __global__ function of the cubin), loaded into the current
  // device's context; remembered per device, so a library kept for later runs
  // (loaded_libraries.hpp) answers them without a driver call. Thread-safe.
  cudaKernel_t kernel(const std::string& name) const;

private:
  cudaLibrary_t library_ = nullptr;
  mutable std::mutex mutex_;
  mutable std::map<std::pair<std::string, int>, cudaKernel_t> loaded_;  // (name, device)
};

// Launches `kernel` with the given arguments (each passed by address, as cudaLaunchKernel wants).
template <class... Args>
void launch(cudaKernel_t kernel, dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
            const Args&... args) {
  void* pointers[] = {const_cast<void*>(static_cast<const void*>(&args))..., nullptr};
  check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, pointers, shared_bytes, stream),
             "cudaLaunchKernel");
}

// The same launch, allowed to begin while the stream's kernel before it still runs (programmatic
// dependent launch; call it only on devices of compute capability 9.0 and later). The kernel must
// run `griddepcontrol.wait` before it reads what that kernel writes or writes what it reads (the
// wait returns once that kernel has finished and its writes are visible); that kernel lets it
// start with `griddepcontrol.launch_dependents`, else at its own end.
template <class... Args>
void launch_overlapping(cudaKernel_t kernel, dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                        const Args&... args) {
  void* pointers[] = {const_cast<void*>(static_cast<const void*>(&args))..., nullptr};
  cudaLaunchAttribute overlap{};
  overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = &overlap;
  config.numAttrs = 1;
  check_cuda(cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(kernel), pointers), "cudaLaunchKernelExC");
}

}  // namespace tensordiag::runtime
