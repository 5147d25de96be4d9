// The kernel cache's size cap: the least recently used entries go first, a disk hit is a use, the
// entry just written and any entry being compiled stay; clear removes the cache's files and only
// them. Entry ages are set explicitly (in the past), so the order never rests on clock ticks.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <fstream>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/cuda/kernel_cache_directory.hpp"
#include "runtime/io/file_lock.hpp"
#include "sample_kernels.hpp"
#include "temporary_directory.hpp"

using namespace tensordiag::runtime;
using namespace tensordiag::test;
namespace fs = std::filesystem;

namespace {

KernelCacheSettings disk_at(const fs::path& directory, std::uintmax_t max_bytes = default_kernel_cache_max_bytes) {
  KernelCacheSettings settings;
  settings.directory = directory;
  settings.max_bytes = max_bytes;
  return settings;
}

fs::file_time_type hours_ago(int hours) {
  return fs::file_time_type::clock::now() - std::chrono::hours(hours);
}

std::string stem_of(const fs::path& cubin) { return cubin.stem().string(); }

std::set<std::string> file_names(const fs::path& directory) {
  std::set<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

}  // namespace

TEST_CASE("kernel cache: prune evicts the least recently used entries first, and a disk hit is a use") {
  const TemporaryDirectory dir;
  constexpr int count = 6;
  std::vector<fs::path> entries;
  {
    KernelCache cache(disk_at(dir.path()));
    for (int i = 0; i < count; ++i) {
      entries.push_back(cache.get_or_compile(scale_source(i), "scale.cu", {}, "sm_90").cache_path);
    }
  }
  // Last uses in a seeded random order, a minute apart: used[0] the longest ago.
  std::vector<int> used(count);
  std::iota(used.begin(), used.end(), 0);
  std::shuffle(used.begin(), used.end(), std::mt19937(13));
  for (int k = 0; k < count; ++k) {
    fs::last_write_time(entries[used[k]], hours_ago(1) + std::chrono::minutes(k));
  }
  // A hit on the least recently used entry makes it the most recently used.
  CHECK(KernelCache(disk_at(dir.path())).get_or_compile(scale_source(used[0]), "scale.cu", {}, "sm_90").origin ==
        KernelOrigin::disk_cache);
  std::rotate(used.begin(), used.begin() + 1, used.end());

  std::uintmax_t newest_three = 0;
  std::uintmax_t oldest_three = 0;
  for (int k = 0; k < count; ++k) (k < 3 ? oldest_three : newest_three) += fs::file_size(entries[used[k]]);
  REQUIRE(kernel_cache_usage(dir.path()).entries == count);
  REQUIRE(kernel_cache_usage(dir.path()).bytes == oldest_three + newest_three);

  const KernelCacheUsage removed = prune_kernel_cache(dir.path(), newest_three);
  CHECK(removed.entries == 3);
  CHECK(removed.bytes == oldest_three);
  for (int k = 0; k < count; ++k) {
    CAPTURE(k);
    CHECK(fs::exists(entries[used[k]]) == (k >= 3));
    if (k < 3) CHECK(!fs::exists(kernel_cache_files(dir.path(), stem_of(entries[used[k]])).lock));
  }
  // One byte less and the oldest of the rest goes too.
  CHECK(prune_kernel_cache(dir.path(), newest_three - 1).entries == 1);
  CHECK(!fs::exists(entries[used[3]]));
  CHECK(kernel_cache_usage(dir.path()).entries == 2);
}

TEST_CASE("kernel cache: writing past the cap evicts the oldest entries, never the one just written") {
  constexpr int count = 6;
  std::vector<std::uintmax_t> sizes;
  {
    const TemporaryDirectory sizing;
    KernelCache cache(disk_at(sizing.path()));
    for (int i = 0; i < count; ++i) {
      sizes.push_back(fs::file_size(cache.get_or_compile(scale_source(i), "scale.cu", {}, "sm_90").cache_path));
    }
  }
  // Room for two entries and a half of the largest.
  const std::uintmax_t cap = *std::max_element(sizes.begin(), sizes.end()) * 5 / 2;

  const TemporaryDirectory dir;
  KernelCache cache(disk_at(dir.path(), cap));
  std::vector<fs::path> entries;
  std::deque<int> expected;  // the model: the newest entries, dropping the oldest while over the cap
  std::uintmax_t expected_bytes = 0;
  for (int i = 0; i < count; ++i) {
    CAPTURE(i);
    entries.push_back(cache.get_or_compile(scale_source(i), "scale.cu", {}, "sm_90").cache_path);
    expected.push_back(i);
    expected_bytes += sizes[i];
    while (expected_bytes > cap) {
      expected_bytes -= sizes[expected.front()];
      expected.pop_front();
    }
    for (int j = 0; j <= i; ++j) {
      CAPTURE(j);
      CHECK(fs::exists(entries[j]) == (std::find(expected.begin(), expected.end(), j) != expected.end()));
    }
    CHECK(kernel_cache_usage(dir.path()).bytes == expected_bytes);
    CHECK(expected.size() == static_cast<std::size_t>(std::min(i + 1, 2)));  // the cap holds two
    fs::last_write_time(entries[i], hours_ago(1) + std::chrono::minutes(i));
  }

  // A cap below one entry keeps the entry just written and nothing else.
  KernelCache tiny(disk_at(dir.path(), 1));
  const fs::path kept = tiny.get_or_compile(saxpy_source, "saxpy.cu", {}, "sm_90").cache_path;
  CHECK(fs::exists(kept));
  CHECK(kernel_cache_usage(dir.path()).entries == 1);
  CHECK(tiny.warnings().empty());
}

TEST_CASE("kernel cache: an entry being compiled is not evicted, and clear removes the cache's files only") {
  const TemporaryDirectory dir;
  KernelCacheSettings settings = disk_at(dir.path());
  settings.save_source = true;
  std::vector<fs::path> entries;
  {
    KernelCache cache(settings);
    for (int i = 0; i < 3; ++i) {
      entries.push_back(cache.get_or_compile(scale_source(i), "scale.cu", {}, "sm_90").cache_path);
    }
  }
  const KernelCacheFiles busy = kernel_cache_files(dir.path(), stem_of(entries[1]));
  REQUIRE(fs::exists(busy.source));
  {
    const std::optional<FileLock> compiling = FileLock::acquire(busy.lock);
    REQUIRE(compiling);
    const KernelCacheUsage removed = clear_kernel_cache(dir.path());
    CHECK(removed.entries == 2);
    CHECK(file_names(dir.path()) == std::set<std::string>{busy.cubin.filename().string(),
                                                           busy.source.filename().string(),
                                                           busy.lock.filename().string()});
  }

  // Leftovers of killed processes go; a young temporary file (a write in flight) and files that
  // are not the cache's stay.
  std::ofstream(dir.path() / "ghost-0123.lock");
  std::ofstream(dir.path() / "old.cubin.tmp.AbCdEf") << "partial";
  fs::last_write_time(dir.path() / "old.cubin.tmp.AbCdEf", hours_ago(2));
  std::ofstream(dir.path() / "young.cubin.tmp.GhIjKl") << "partial";
  std::ofstream(dir.path() / "notes.txt") << "mine";
  CHECK(clear_kernel_cache(dir.path()).entries == 1);
  CHECK(file_names(dir.path()) == std::set<std::string>{"young.cubin.tmp.GhIjKl", "notes.txt"});
  CHECK(kernel_cache_usage(dir.path()).entries == 0);

  // A process that finds its entry evicted compiles it again.
  const CompiledKernel again = KernelCache(settings).get_or_compile(scale_source(0), "scale.cu", {}, "sm_90");
  CHECK(again.origin == KernelOrigin::compiled);
  CHECK(fs::exists(again.cache_path));
}

TEST_CASE("kernel cache: the directory of a missing cache is empty and prune leaves it missing") {
  const TemporaryDirectory dir;
  CHECK(kernel_cache_usage(dir.path() / "none").entries == 0);
  CHECK(clear_kernel_cache(dir.path() / "none").entries == 0);
  CHECK(!fs::exists(dir.path() / "none"));
}
