#include "runtime/cuda/device_arch.hpp"

#include "runtime/cuda/cuda_device.hpp"

namespace tensordiag::runtime {

DeviceArch current_device_arch() {
  if (const auto device = cuda_device()) return {device->arch(), ""};
  return {"", cuda_unavailable_reason()};
}

}  // namespace tensordiag::runtime
