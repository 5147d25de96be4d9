// One of several processes using one kernel cache directory at once (test_kernel_cache_processes).
// Usage: kernel_cache_worker DIRECTORY INDEX [--file-size-limit BYTES] [--unprivileged]
// Compiles the kernels every worker shares, the one it shares with worker INDEX-1 and its own.
// Prints one line per kernel on stdout, "<label> <origin> <SHA-256 of the cubin> <on disk: 0|1>",
// where origin is "compiled" exactly when this process ran NVRTC for it, and each of the cache's
// warnings as one line on stderr. Exits 0 when every kernel was compiled or loaded.
//
// --file-size-limit: writes past BYTES fail (EFBIG) as they would on a full disk.
// --unprivileged: drops root's permission overrides, so that a read-only directory is read-only
// to this process too (the tests run as root on some machines).
#include <linux/capability.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "runtime/cuda/kernel_cache.hpp"
#include "sample_kernels.hpp"

using namespace tensordiag::runtime;
using namespace tensordiag::test;

namespace {

void limit_file_size(rlim_t bytes) {
  ::signal(SIGXFSZ, SIG_IGN);  // a write past the limit then fails with EFBIG instead of killing us
  const rlimit limit{bytes, bytes};
  if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) throw std::runtime_error("setrlimit failed");
}

void drop_permission_overrides() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capget, &header, data) != 0) throw std::runtime_error("capget failed");
  for (const unsigned capability : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER}) {
    data[capability / 32].effective &= ~(1u << (capability % 32));
  }
  if (::syscall(SYS_capset, &header, data) != 0) throw std::runtime_error("capset failed");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: kernel_cache_worker DIRECTORY INDEX [--file-size-limit BYTES] [--unprivileged]\n";
    return 2;
  }
  try {
    for (int i = 3; i < argc; ++i) {
      const std::string_view option = argv[i];
      if (option == "--file-size-limit" && i + 1 < argc) {
        limit_file_size(std::stoull(argv[++i]));
      } else if (option == "--unprivileged") {
        drop_permission_overrides();
      } else {
        throw std::runtime_error("unknown option " + std::string(option));
      }
    }
    KernelCacheSettings settings;
    settings.directory = argv[1];
    KernelCache cache(settings);
    const int index = std::stoi(argv[2]);
    const std::string kernels[][3] = {
        {"saxpy", saxpy_source, "saxpy.cu"},
        {"dot_rows", template_source, "dot_rows.cu"},
        {"scale" + std::to_string(index), scale_source(index), "scale.cu"},
        {"scale" + std::to_string(index + 1), scale_source(index + 1), "scale.cu"}};
    for (const auto& [label, source, name] : kernels) {
      const CompiledKernel kernel = cache.get_or_compile(source, name, {}, "sm_90");
      const std::string_view cubin(kernel.cubin.data(), kernel.cubin.size());
      std::printf("%s %s %s %d\n", label.c_str(), kernel.origin == KernelOrigin::compiled ? "compiled" : "loaded",
                  to_hex(sha256(cubin)).c_str(),
                  static_cast<int>(std::filesystem::is_regular_file(kernel.cache_path)));
    }
    for (const std::string& warning : cache.warnings()) std::cerr << "warning: " << warning << "\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "worker failed: " << error.what() << "\n";
    return 1;
  }
}
