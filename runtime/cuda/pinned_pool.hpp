#pragma once
// Page-locked host memory for the small buffers a run reads its figures through, reused across the
// process's runs: cudaMallocHost and cudaFreeHost cost about 1 ms of a 4 ms D = 3, N = 32 call on an
// H100 (bench/results/end_to_end_h100_2026-11-25.md). Blocks come in power-of-two classes from 256
// bytes; a released block waits in its class's free list while the lists hold at most
// `pinned_pool_bytes`, else it is freed. Blocks over `pinned_pool_largest` bypass the pool.
// Thread-safe; the pool is never destroyed (what it holds at exit goes with the process, after the
// CUDA runtime).
#include <cstddef>

namespace tensordiag::runtime {

inline constexpr std::size_t pinned_pool_bytes = std::size_t{64} << 20;
inline constexpr std::size_t pinned_pool_largest = std::size_t{4} << 20;

// At least `bytes` of page-locked host memory (cudaMallocHost's errors thrown as check_cuda's).
void* pinned_allocate(std::size_t bytes);
// Gives back a block of pinned_allocate(bytes), the same `bytes`, after the current device is idle.
void pinned_release(void* block, std::size_t bytes) noexcept;

}  // namespace tensordiag::runtime
