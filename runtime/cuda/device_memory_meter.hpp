#pragma once
// The device memory this process's DeviceBuffers hold, now and at most since the last reset: what
// a run reports as its device memory peak (the CUDA context and the libraries' own workspaces,
// cuBLAS's and cuSOLVER's, are not counted). Process-wide: runs on several devices at once (a
// thread a GPU rank) share one meter.
#include <atomic>
#include <cstddef>

namespace tensordiag::runtime {

class DeviceMemoryMeter {
public:
  static void allocated(std::size_t bytes) {
    const std::size_t now = in_use_.fetch_add(bytes) + bytes;
    std::size_t peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
  }
  static void freed(std::size_t bytes) { in_use_.fetch_sub(bytes); }
  static std::size_t in_use() { return in_use_.load(); }
  static std::size_t peak() { return peak_.load(); }
  // The peak from now on starts at what is held now.
  static void reset_peak() { peak_.store(in_use_.load()); }

private:
  static inline std::atomic<std::size_t> in_use_{0};
  static inline std::atomic<std::size_t> peak_{0};
};

}  // namespace tensordiag::runtime
