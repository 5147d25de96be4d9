#pragma once
// CUDA runtime errors become exceptions with one line naming the call that failed.
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace tensordiag::runtime {

// A CUDA call failed at run time (no device, out of memory, a launch error): the CLI prints it as
// one line and exits non-zero.
struct cuda_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw cuda_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorName(status) + " (" +
                     cudaGetErrorString(status) + ")");
}

}  // namespace tensordiag::runtime
