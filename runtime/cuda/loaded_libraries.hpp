#pragma once
// The process's loaded kernel libraries, one per distinct cubin: a run asks for its kernels' cubins
// and gets the library already loaded when an earlier run of the process loaded the same one (by
// the kernel cache's key, which names the cubin: no copy or hash of its bytes).
// Loading (cudaLibraryLoadData) was most of a warm run's kernel time: 1.1 of 5.0 ms for a whole
// D = 3, N = 32 call on an H100 (bench/results/end_to_end_h100_2026-11-25.md). Thread-safe (GPU
// ranks load from threads of their own). At most `kept_libraries` stay loaded; beyond, the least
// recently asked one that no run holds is unloaded. The table is never destroyed: libraries left
// at exit go with the process, after the CUDA runtime (no unload in a static destructor).
#include <cstddef>
#include <memory>
#include <vector>

#include "runtime/cuda/cuda_library.hpp"
#include "runtime/cuda/sha256.hpp"

namespace tensordiag::runtime {

inline constexpr std::size_t kept_libraries = 256;

// `key` names `cubin` (the kernel cache's key of the request that gave it: equal keys, equal bytes).
std::shared_ptr<const CudaLibrary> loaded_library(const Sha256Digest& key, const std::vector<char>& cubin);

// How many libraries the table holds (for tests).
std::size_t loaded_library_count();

}  // namespace tensordiag::runtime
