// `tensordiag cache info|clear|prune` seen from outside, on a scratch cache directory filled by
// `tensordiag kernels --compile` (NVRTC only, no GPU): info counts what is there, prune obeys
// TENSORDIAG_CACHE_MAX_BYTES, clear empties it, and a bad cap is one line and exit 1.
#include <doctest/doctest.h>

#include <string>

#include "cli_workspace.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "scoped_environment.hpp"

namespace {

using namespace tensordiag;
using namespace tensordiag::testing;
namespace fs = std::filesystem;

// The cubins under `directory` and their bytes, counted here rather than by the code under test.
std::pair<int, std::uintmax_t> cubins_in(const fs::path& directory) {
  std::pair<int, std::uintmax_t> found{0, 0};
  if (!fs::exists(directory)) return found;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory)) {
    if (entry.path().extension() != ".cubin") continue;
    ++found.first;
    found.second += entry.file_size();
  }
  return found;
}

std::string info_text(const fs::path& directory, int entries, std::uintmax_t bytes, std::uintmax_t cap) {
  return "directory: " + directory.string() + "\nentries: " + std::to_string(entries) +
         "\nbytes: " + std::to_string(bytes) + "\ncap: " + std::to_string(cap) + " bytes\n";
}

}  // namespace

TEST_CASE("cli cache: info, prune and clear on a cache filled by kernels --compile") {
  const Workspace workspace;
  const fs::path cache = workspace / "cache";
  test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_CACHE_DIR", cache.string())
      .set("TENSORDIAG_DISABLE_KERNEL_CACHE", std::nullopt)
      .set("TENSORDIAG_CACHE_MAX_BYTES", std::nullopt);

  CliRun run = workspace.run("cache info");
  CHECK(run.exit_code == 0);
  CHECK(run.out == info_text(cache, 0, 0, runtime::default_kernel_cache_max_bytes));
  CHECK(!fs::exists(cache));  // looking creates nothing

  for (const char* kind : {"group_pass", "off_norm"}) {
    REQUIRE(workspace.run("kernels --order 3 --size 4 --compile --arch sm_90 --kernel " + std::string(kind)).exit_code == 0);
  }
  const auto [entries, bytes] = cubins_in(cache);
  REQUIRE(entries == 2);
  run = workspace.run("cache");  // info is the default
  CHECK(run.out == info_text(cache, 2, bytes, runtime::default_kernel_cache_max_bytes));
  CHECK(run.err.empty());

  environment.set("TENSORDIAG_CACHE_MAX_BYTES", "1M");
  CHECK(workspace.run("cache prune").out ==
        "removed 0 entries, 0 bytes; kept 2 entries, " + std::to_string(bytes) + " bytes of a cap of 1048576 bytes\n");
  environment.set("TENSORDIAG_CACHE_MAX_BYTES", std::to_string(bytes - 1));
  run = workspace.run("cache prune");
  CHECK(run.exit_code == 0);
  CHECK(run.out.starts_with("removed 1 entry, "));
  CHECK(cubins_in(cache).first == 1);

  const std::uintmax_t last_bytes = cubins_in(cache).second;
  run = workspace.run("cache clear");
  CHECK(run.exit_code == 0);
  CHECK(run.out == "removed 1 entry, " + std::to_string(last_bytes) + " bytes from " + cache.string() + "\n");
  CHECK(cubins_in(cache).first == 0);
  CHECK(fs::is_empty(cache));

  environment.set("TENSORDIAG_DISABLE_KERNEL_CACHE", "1");
  CHECK(workspace.run("cache info").out.starts_with("directory: " + cache.string() +
                                                   " (off: TENSORDIAG_DISABLE_KERNEL_CACHE is set)\n"));
}

TEST_CASE("cli cache: a bad action or cap is one line, a non-zero exit and no change") {
  const Workspace workspace;
  test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_CACHE_DIR", (workspace / "cache").string());
  check_rejected(workspace, "cache drop", "drop not in");
  for (const char* cap : {"lots", "-1", "0", "1e9"}) {
    environment.set("TENSORDIAG_CACHE_MAX_BYTES", cap);
    check_rejected(workspace, "cache info", "TENSORDIAG_CACHE_MAX_BYTES='" + std::string(cap) + "'");
    check_rejected(workspace, "cache prune", "TENSORDIAG_CACHE_MAX_BYTES");
  }
  environment.set("TENSORDIAG_CACHE_MAX_BYTES", std::nullopt)
      .set("TENSORDIAG_CACHE_DIR", std::nullopt)
      .set("XDG_CACHE_HOME", std::nullopt)
      .set("HOME", std::nullopt);
  check_rejected(workspace, "cache clear", "no kernel cache directory");
}
