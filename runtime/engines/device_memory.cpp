#include "runtime/engines/device_memory.hpp"

#include <cmath>
#include <cstdio>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

}  // namespace

double device_bytes_needed(int order, int size, std::size_t scalar_bytes) {
  const double entries = std::pow(static_cast<double>(size), order);
  return (entries + static_cast<double>(order) * size * size) * static_cast<double>(scalar_bytes) + (64 << 20);
}

template <class T>
double device_bytes_needed(const HostTensor<T>& tensor) {
  return device_bytes_needed(tensor.order(), tensor.size(), sizeof(T));
}

std::optional<std::string> device_memory_refusal(const CudaDeviceInfo& device, double bytes) {
  if (bytes <= static_cast<double>(device.free_memory)) return std::nullopt;
  return "the tensor needs " + gib(bytes) + " on the GPU, but " + device.name + " has " +
         gib(static_cast<double>(device.free_memory)) + " free";
}

std::optional<std::string> current_device_memory_refusal(double bytes) {
  const std::optional<CudaDeviceInfo> device = cuda_device();
  if (!device) return std::nullopt;
  return device_memory_refusal(*device, bytes);
}

template <class T>
void check_device_memory(const CudaDeviceInfo& device, const HostTensor<T>& tensor) {
  if (const auto refusal = device_memory_refusal(device, device_bytes_needed(tensor))) throw user_error(*refusal);
}

template double device_bytes_needed(const HostTensor<float>&);
template double device_bytes_needed(const HostTensor<double>&);
template void check_device_memory(const CudaDeviceInfo&, const HostTensor<float>&);
template void check_device_memory(const CudaDeviceInfo&, const HostTensor<double>&);
template double device_bytes_needed(const HostTensor<std::complex<float>>&);
template double device_bytes_needed(const HostTensor<std::complex<double>>&);
template void check_device_memory(const CudaDeviceInfo&, const HostTensor<std::complex<float>>&);
template void check_device_memory(const CudaDeviceInfo&, const HostTensor<std::complex<double>>&);

}  // namespace tensordiag::runtime
