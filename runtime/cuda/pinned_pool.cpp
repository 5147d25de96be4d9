#include "runtime/cuda/pinned_pool.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <vector>

#include "runtime/cuda/cuda_check.hpp"

namespace tensordiag::runtime {

namespace {

struct PinnedPool {
  std::mutex mutex;
  std::map<std::size_t, std::vector<void*>> free;  // by class size
  std::size_t held = 0;                            // bytes in the free lists
};

PinnedPool& pool() {
  static auto* const instance = new PinnedPool;  // never destroyed: see the header
  return *instance;
}

// The class of a block of `bytes`: the next power of two from 256.
std::size_t class_of(std::size_t bytes) {
  std::size_t size = 256;
  while (size < bytes) size *= 2;
  return size;
}

}  // namespace

void* pinned_allocate(std::size_t bytes) {
  void* block = nullptr;
  if (bytes > pinned_pool_largest) {
    check_cuda(cudaMallocHost(&block, bytes), "cudaMallocHost");
    return block;
  }
  const std::size_t size = class_of(bytes);
  {
    PinnedPool& p = pool();
    const std::lock_guard lock(p.mutex);
    if (auto& list = p.free[size]; !list.empty()) {
      block = list.back();
      list.pop_back();
      p.held -= size;
      return block;
    }
  }
  check_cuda(cudaMallocHost(&block, size), "cudaMallocHost");
  return block;
}

void pinned_release(void* block, std::size_t bytes) noexcept {
  if (!block) return;
  if (bytes <= pinned_pool_largest) {
    // A copy into the block may still be in flight where a run ended early (an exception between an
    // enqueued copy and its synchronization): wait for the device before the block can serve
    // another run (cudaFreeHost waits as well).
    cudaDeviceSynchronize();
    const std::size_t size = class_of(bytes);
    PinnedPool& p = pool();
    const std::lock_guard lock(p.mutex);
    if (p.held + size <= pinned_pool_bytes) {
      p.free[size].push_back(block);
      p.held += size;
      return;
    }
  }
  cudaFreeHost(block);
}

}  // namespace tensordiag::runtime
