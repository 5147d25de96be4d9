#pragma once
// What the compile-time benchmarks share: a kernel cache directory of their own, removed at exit;
// requests that must come from a given layer of the cache (medians: bench/statistics.hpp).
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/statistics.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/kernel_cache.hpp"

namespace tensordiag::bench {

class ScratchCacheDirectory {
public:
  ScratchCacheDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tensordiag-bench-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchCacheDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchCacheDirectory(const ScratchCacheDirectory&) = delete;
  ScratchCacheDirectory& operator=(const ScratchCacheDirectory&) = delete;

  // Settings for a cache on this directory: the disk layer on, nothing else.
  runtime::KernelCacheSettings settings() const {
    runtime::KernelCacheSettings disk;
    disk.directory = path_;
    return disk;
  }

private:
  std::filesystem::path path_;
};

// No disk layer: every request to a fresh cache compiles.
inline runtime::KernelCacheSettings memory_only() {
  runtime::KernelCacheSettings settings;
  settings.use_disk = false;
  return settings;
}

// One request (no extra NVRTC options) that must be served by `expected`; throws internal_error
// naming `what` otherwise.
inline runtime::CompiledKernel request(runtime::KernelCache& cache, const std::string& source, const std::string& name,
                                       const std::string& arch, runtime::KernelOrigin expected,
                                       const std::string& what) {
  runtime::CompiledKernel kernel = cache.get_or_compile(source, name, {}, arch);
  if (kernel.origin != expected)
    throw internal_error(what + ": " + name + " was served by the " + std::string(runtime::to_string(kernel.origin)));
  return kernel;
}

}  // namespace tensordiag::bench
