#pragma once
// Device memory owned by one object (cudaMalloc / cudaFree), with typed host copies.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/device_memory_meter.hpp"

namespace tensordiag::runtime {

template <class T>
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count == 0) return;
    check_cuda(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)), "cudaMalloc");
    DeviceMemoryMeter::allocated(count * sizeof(T));
  }
  ~DeviceBuffer() {
    if (!data_) return;
    cudaFree(data_);
    DeviceMemoryMeter::freed(count_ * sizeof(T));
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t count() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  // Copies `count` values to the device, starting at element `at`. The source may be host memory or
  // device memory (a caller's CUDA array): cudaMemcpyDefault tells them apart by unified addressing.
  void upload(const T* source, std::size_t count, cudaStream_t stream = nullptr, std::size_t at = 0) {
    check_cuda(cudaMemcpyAsync(data_ + at, source, count * sizeof(T), cudaMemcpyDefault, stream),
               "cudaMemcpy (upload)");
  }
  void upload(const std::vector<T>& host, cudaStream_t stream = nullptr) { upload(host.data(), host.size(), stream); }
  void download(T* host, std::size_t count, cudaStream_t stream = nullptr) const {
    check_cuda(cudaMemcpyAsync(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost, stream), "cudaMemcpy (download)");
  }
  std::vector<T> download(cudaStream_t stream = nullptr) const {
    std::vector<T> host(count_);
    download(host.data(), count_, stream);
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return host;
  }

private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace tensordiag::runtime
