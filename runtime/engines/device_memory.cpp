#include "runtime/engines/device_memory.hpp"

#include <cstdio>
#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

}  // namespace

template <class T>
void check_device_memory(const CudaDeviceInfo& device, const HostTensor<T>& tensor) {
  const double needed = static_cast<double>(tensor.count() * sizeof(T)) +
                        static_cast<double>(tensor.order()) * tensor.size() * tensor.size() * sizeof(T) + (64 << 20);
  if (needed > static_cast<double>(device.free_memory))
    throw user_error("the tensor needs " + gib(needed) + " on the GPU, but " + device.name + " has " +
                     gib(static_cast<double>(device.free_memory)) + " free");
}

template void check_device_memory(const CudaDeviceInfo&, const HostTensor<float>&);
template void check_device_memory(const CudaDeviceInfo&, const HostTensor<double>&);

}  // namespace tensordiag::runtime
