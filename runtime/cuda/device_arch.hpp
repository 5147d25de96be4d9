#pragma once
// The architecture of the CUDA device this process would run on, asked through the CUDA runtime
// API. cudart loads the driver (libcuda.so) only at its first call, so binaries linked against it
// start on machines without an NVIDIA driver; there this query answers "no device" with the reason.
#include <string>

namespace tensordiag::runtime {

struct DeviceArch {
  std::string arch;    // "sm_90" for compute capability 9.0; empty when no device is usable
  std::string reason;  // why none is usable, e.g. "cudaErrorInsufficientDriver: ..."; else empty

  bool found() const { return !arch.empty(); }
};

DeviceArch current_device_arch();

}  // namespace tensordiag::runtime
