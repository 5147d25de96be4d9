// Several processes use one cache directory at once (tests/workers/kernel_cache_worker.cpp): started
// cold together they compile every kernel exactly once and all get the same cubins; a read-only
// or full directory costs each one warning line and nothing else.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/cuda/kernel_cache.hpp"
#include "sample_kernels.hpp"
#include "temporary_directory.hpp"

extern char** environ;

using namespace tensordiag::runtime;
using namespace tensordiag::test;
namespace fs = std::filesystem;

namespace {

struct KernelLine {
  std::string label;
  std::string origin;  // compiled or loaded
  std::string cubin_sha256;
  bool on_disk = false;
};

struct WorkerRun {
  int exit_code = -1;
  std::vector<KernelLine> kernels;
  std::vector<std::string> error_lines;
};

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// Starts a worker with its stdout and stderr going to files under `logs`; returns its pid.
pid_t start_worker(const fs::path& cache, int index, const fs::path& logs, std::vector<std::string> options) {
  std::vector<std::string> arguments = {TENSORDIAG_CACHE_WORKER_PATH, cache.string(), std::to_string(index)};
  arguments.insert(arguments.end(), options.begin(), options.end());
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  const std::string out = (logs / ("out" + std::to_string(index))).string();
  const std::string err = (logs / ("err" + std::to_string(index))).string();
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&files, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t child = 0;
  const int spawned = ::posix_spawn(&child, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  REQUIRE(spawned == 0);
  return child;
}

WorkerRun finish_worker(pid_t child, int index, const fs::path& logs) {
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  WorkerRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::istringstream out(read_file(logs / ("out" + std::to_string(index))));
  for (KernelLine line; out >> line.label >> line.origin >> line.cubin_sha256 >> line.on_disk;) {
    run.kernels.push_back(line);
  }
  std::istringstream err(read_file(logs / ("err" + std::to_string(index))));
  for (std::string line; std::getline(err, line);) run.error_lines.push_back(line);
  return run;
}

// Workers 0..count-1 started together, then waited for.
std::vector<WorkerRun> run_workers(const fs::path& cache, int count, const std::vector<std::string>& options = {}) {
  const TemporaryDirectory logs;
  std::vector<pid_t> children;
  for (int i = 0; i < count; ++i) children.push_back(start_worker(cache, i, logs.path(), options));
  std::vector<WorkerRun> runs;
  for (int i = 0; i < count; ++i) runs.push_back(finish_worker(children[i], i, logs.path()));
  return runs;
}

std::multiset<std::string> file_kinds(const fs::path& directory) {
  std::multiset<std::string> kinds;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory)) {
    kinds.insert(entry.path().extension().string());
  }
  return kinds;
}

}  // namespace

TEST_CASE("kernel cache: 8 processes started cold at once compile every kernel once, to one cubin") {
  constexpr int workers = 8;
  const TemporaryDirectory dir;
  const std::vector<WorkerRun> runs = run_workers(dir.path(), workers);

  std::map<std::string, int> compiles;
  std::map<std::string, std::set<std::string>> cubins;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    CAPTURE(i);
    CHECK(runs[i].exit_code == 0);
    CHECK(runs[i].error_lines.empty());
    REQUIRE(runs[i].kernels.size() == 4);
    for (const KernelLine& kernel : runs[i].kernels) {
      compiles[kernel.label] += kernel.origin == "compiled" ? 1 : 0;
      cubins[kernel.label].insert(kernel.cubin_sha256);
      CHECK(kernel.on_disk);
    }
  }
  // saxpy, dot_rows and scale0..scale8, each requested by 2 to 8 of the processes.
  REQUIRE(compiles.size() == 2 + workers + 1);
  for (const auto& [label, count] : compiles) {
    CAPTURE(label);
    CHECK(count == 1);
    CHECK(cubins[label].size() == 1);
  }

  // One cubin and one lock file per kernel, no temporary file.
  std::multiset<std::string> expected;
  for (int i = 0; i < 2 + workers + 1; ++i) expected.insert({".cubin", ".lock"});
  std::string listing;  // shown when the check fails
  for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) listing += entry.path().filename().string() + " ";
  CAPTURE(listing);
  CHECK(file_kinds(dir.path()) == expected);

  KernelCacheSettings settings;
  settings.directory = dir.path();
  KernelCache reader(settings);
  CHECK(reader.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90").origin == KernelOrigin::disk_cache);
  CHECK(reader.get_or_compile(template_source, "dot_rows.cu", {}, "sm_90").origin == KernelOrigin::disk_cache);
  for (int i = 0; i <= workers; ++i) {
    CHECK(reader.get_or_compile(scale_source(i), "scale.cu", {}, "sm_90").origin == KernelOrigin::disk_cache);
  }
  CHECK(reader.compilations() == 0);
}

TEST_CASE("kernel cache: a read-only directory is read, and costs one warning when it lacks a kernel") {
  const TemporaryDirectory dir;
  const fs::path full = dir.path() / "filled";
  const fs::path empty = dir.path() / "empty";
  REQUIRE(run_workers(full, 1).at(0).exit_code == 0);
  fs::create_directory(empty);
  for (const fs::path& directory : {full, empty}) {
    fs::permissions(directory, fs::perms::owner_read | fs::perms::owner_exec);
  }

  const WorkerRun reader = run_workers(full, 1, {"--unprivileged"}).at(0);
  CHECK(reader.exit_code == 0);
  CHECK(reader.error_lines.empty());
  REQUIRE(reader.kernels.size() == 4);
  for (const KernelLine& kernel : reader.kernels) CHECK(kernel.origin == "loaded");

  const std::vector<WorkerRun> runs = run_workers(empty, 2, {"--unprivileged"});
  for (const WorkerRun& run : runs) {
    CHECK(run.exit_code == 0);
    REQUIRE(run.error_lines.size() == 1);
    CHECK(run.error_lines[0].find(empty.string()) != std::string::npos);
    REQUIRE(run.kernels.size() == 4);
    for (const KernelLine& kernel : run.kernels) {
      CHECK(kernel.origin == "compiled");
      CHECK(!kernel.on_disk);
    }
  }
  CHECK(fs::is_empty(empty));
}

TEST_CASE("kernel cache: a full disk (writes fail past a file-size limit) costs one warning") {
  const TemporaryDirectory dir;
  // Smaller than any entry, larger than nothing: every cubin's write fails partway.
  const std::vector<WorkerRun> runs = run_workers(dir.path(), 2, {"--file-size-limit", "1000"});
  for (const WorkerRun& run : runs) {
    CHECK(run.exit_code == 0);
    REQUIRE(run.error_lines.size() == 1);
    CHECK(run.error_lines[0].find("File too large") != std::string::npos);
    REQUIRE(run.kernels.size() == 4);
    for (const KernelLine& kernel : run.kernels) {
      CHECK(kernel.origin == "compiled");
      CHECK(!kernel.on_disk);
    }
  }
  // The failed writes left no entry and no temporary file, only the (empty) lock files.
  for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) {
    CAPTURE(entry.path());
    CHECK(entry.path().extension() == ".lock");
  }
}
