#include "runtime/cuda/kernel_cache_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <system_error>
#include <vector>

#include "runtime/io/file_lock.hpp"

namespace tensordiag::runtime {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view cubin_extension = ".cubin";
constexpr std::string_view lock_extension = ".lock";
// write_file_atomically's temporary names: "<target>.tmp.XXXXXX".
constexpr std::string_view temporary_marker = ".tmp.";
// A writer keeps its temporary file for the milliseconds of one write; one an hour old was left
// by a killed process.
constexpr auto temporary_file_lifetime = std::chrono::hours(1);

struct EntryOnDisk {
  std::string stem;
  fs::file_time_type last_used;
  std::uintmax_t bytes = 0;
};

std::uintmax_t size_or_zero(const fs::path& path) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  return error ? 0 : size;
}

// The entries, least recently used first. A file that vanishes while we look was evicted by
// another process: it is left out. The directory is walked with error codes, not exceptions:
// eviction is housekeeping and never fails a run.
std::vector<EntryOnDisk> entries_by_last_use(const fs::path& directory) {
  std::vector<EntryOnDisk> entries;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const fs::directory_entry& file = *it;
    const std::string name = file.path().filename().string();
    if (!name.ends_with(cubin_extension)) continue;
    std::error_code stat_error;
    const fs::file_time_type last_used = file.last_write_time(stat_error);
    const std::uintmax_t cubin_bytes = file.file_size(stat_error);
    if (stat_error) continue;
    EntryOnDisk entry{name.substr(0, name.size() - cubin_extension.size()), last_used, cubin_bytes};
    entry.bytes += size_or_zero(kernel_cache_files(directory, entry.stem).source);
    entries.push_back(std::move(entry));
  }
  std::sort(entries.begin(), entries.end(),
            [](const EntryOnDisk& a, const EntryOnDisk& b) { return a.last_used < b.last_used; });
  return entries;
}

// Lock files whose entry is gone and whose lock nobody holds; temporary files of dead writers.
void remove_leftovers(const fs::path& directory) {
  const fs::file_time_type stale_before = fs::file_time_type::clock::now() - temporary_file_lifetime;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const fs::directory_entry& file = *it;
    const std::string name = file.path().filename().string();
    std::error_code ignored;
    if (name.ends_with(lock_extension)) {
      const std::string stem = name.substr(0, name.size() - lock_extension.size());
      const fs::path cubin = kernel_cache_files(directory, stem).cubin;
      if (fs::exists(cubin, ignored)) continue;
      // Look again under the lock: a writer may have stored the entry and let go of the lock
      // between the look above and this one (the lock file of a live entry then went missing:
      // tests/test_kernel_cache_processes.cpp saw it about once in 100 runs beside other load).
      if (std::optional<FileLock> lock = FileLock::try_acquire(file.path()))
        if (!fs::exists(cubin, ignored)) lock->remove_and_release();
    } else if (name.find(temporary_marker) != std::string::npos &&
               file.last_write_time(ignored) < stale_before && !ignored) {
      fs::remove(file.path(), ignored);
    }
  }
}

}  // namespace

KernelCacheFiles kernel_cache_files(const fs::path& directory, const std::string& stem) {
  return {directory / (stem + std::string(cubin_extension)), directory / (stem + ".cu"),
          directory / (stem + std::string(lock_extension))};
}

KernelCacheUsage kernel_cache_usage(const fs::path& directory) {
  KernelCacheUsage usage;
  for (const EntryOnDisk& entry : entries_by_last_use(directory)) {
    ++usage.entries;
    usage.bytes += entry.bytes;
  }
  return usage;
}

KernelCacheUsage prune_kernel_cache(const fs::path& directory, std::uintmax_t max_bytes) {
  const std::vector<EntryOnDisk> entries = entries_by_last_use(directory);
  std::uintmax_t total = 0;
  for (const EntryOnDisk& entry : entries) total += entry.bytes;
  KernelCacheUsage removed;
  for (const EntryOnDisk& entry : entries) {
    if (total <= max_bytes) break;
    const KernelCacheFiles files = kernel_cache_files(directory, entry.stem);
    std::optional<FileLock> lock = FileLock::try_acquire(files.lock);
    if (!lock) continue;  // being compiled, or a directory we may not change
    std::error_code error;
    const bool removed_here = fs::remove(files.cubin, error);  // false: another process evicted it
    if (error) continue;  // the entry stays: it still counts
    fs::remove(files.source, error);
    lock->remove_and_release();
    total -= entry.bytes;
    if (removed_here) {
      ++removed.entries;
      removed.bytes += entry.bytes;
    }
  }
  remove_leftovers(directory);
  return removed;
}

KernelCacheUsage clear_kernel_cache(const fs::path& directory) { return prune_kernel_cache(directory, 0); }

void mark_kernel_cache_entry_used(const fs::path& cubin) {
  ::utimensat(AT_FDCWD, cubin.c_str(), nullptr, 0);
}

}  // namespace tensordiag::runtime
