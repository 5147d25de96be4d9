// One of several processes filling one kernel cache directory at once (test_kernel_cache_processes).
// Usage: kernel_cache_worker DIRECTORY INDEX. Compiles the kernels every worker shares, the one
// it shares with worker INDEX-1 and its own; exits 0 when each ended up as a valid disk entry.
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>

#include "runtime/cuda/kernel_cache.hpp"
#include "sample_kernels.hpp"

using namespace tensordiag::runtime;
using namespace tensordiag::test;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: kernel_cache_worker DIRECTORY INDEX\n";
    return 2;
  }
  try {
    KernelCacheSettings settings;
    settings.directory = argv[1];
    KernelCache cache(settings);
    const int index = std::stoi(argv[2]);
    const std::pair<std::string, std::string> kernels[] = {{saxpy_source, "saxpy.cu"},
                                                           {template_source, "dot_rows.cu"},
                                                           {scale_source(index), "scale.cu"},
                                                           {scale_source(index + 1), "scale.cu"}};
    for (const auto& [source, name] : kernels) {
      const CompiledKernel kernel = cache.get_or_compile(source, name, {}, "sm_90");
      if (kernel.cubin.empty() || !std::filesystem::is_regular_file(kernel.cache_path)) {
        std::cerr << "worker " << index << ": " << name << " has no disk entry\n";
        return 1;
      }
    }
    for (const std::string& warning : cache.warnings()) {
      std::cerr << "worker " << index << ": " << warning << "\n";
    }
    return cache.warnings().empty() ? 0 : 1;
  } catch (const std::exception& error) {
    std::cerr << "worker failed: " << error.what() << "\n";
    return 1;
  }
}
