// Several processes fill one cache directory at once, compiling kernels they share and kernels of
// their own: all succeed, every entry is whole, and no temporary file is left behind.
#include <doctest/doctest.h>

#include <spawn.h>
#include <sys/wait.h>

#include <string>
#include <vector>

#include "runtime/cuda/kernel_cache.hpp"
#include "sample_kernels.hpp"
#include "temporary_directory.hpp"

extern char** environ;

using namespace tensordiag::runtime;
using namespace tensordiag::test;
namespace fs = std::filesystem;

TEST_CASE("kernel cache: concurrent processes filling one directory all succeed") {
  constexpr int workers = 6;
  const TemporaryDirectory dir;
  const std::string directory = dir.path().string();
  std::vector<pid_t> children;
  for (int i = 0; i < workers; ++i) {
    std::string index = std::to_string(i);
    std::string program = TENSORDIAG_CACHE_WORKER_PATH;
    char* argv[] = {program.data(), const_cast<char*>(directory.c_str()), index.data(), nullptr};
    pid_t child = 0;
    REQUIRE(::posix_spawn(&child, program.c_str(), nullptr, nullptr, argv, environ) == 0);
    children.push_back(child);
  }
  for (const pid_t child : children) {
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }

  int cubins = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) {
    CAPTURE(entry.path());
    CHECK(entry.path().extension() == ".cubin");
    ++cubins;
  }
  CHECK(cubins == 2 + workers + 1);

  KernelCacheSettings settings;
  settings.directory = dir.path();
  KernelCache reader(settings);
  CHECK(reader.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90").origin ==
        KernelOrigin::disk_cache);
  CHECK(reader.get_or_compile(template_source, "dot_rows.cu", {}, "sm_90").origin ==
        KernelOrigin::disk_cache);
  for (int i = 0; i <= workers; ++i) {
    CHECK(reader.get_or_compile(scale_source(i), "scale.cu", {}, "sm_90").origin ==
          KernelOrigin::disk_cache);
  }
  CHECK(reader.compilations() == 0);
}
