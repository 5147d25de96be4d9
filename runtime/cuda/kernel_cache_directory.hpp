#pragma once
// The kernel cache's directory as a whole: the files of one entry, its use, and the size cap.
//
// An entry is "<stem>.cubin" (the kernel), "<stem>.cu" (its source, with TENSORDIAG_SAVE_SOURCE)
// and "<stem>.lock" (the advisory lock a process holds while it compiles the entry; see
// FileLock). Its last use is the cubin's modification time, set to now on every disk hit, so
// eviction can drop the least recently used entries first.
//
// Eviction is safe against concurrent readers and writers: an entry is removed only under its
// lock, taken without waiting (an entry being compiled is in use and kept); a reader that has the
// cubin open still reads it whole, and one that comes too late finds no entry and compiles again.
#include <cstdint>
#include <filesystem>
#include <string>

namespace tensordiag::runtime {

struct KernelCacheFiles {
  std::filesystem::path cubin;
  std::filesystem::path source;
  std::filesystem::path lock;
};

KernelCacheFiles kernel_cache_files(const std::filesystem::path& directory, const std::string& stem);

struct KernelCacheUsage {
  std::uintmax_t entries = 0;
  std::uintmax_t bytes = 0;  // cubins and saved sources
};

// What the directory holds now; zero when it does not exist.
KernelCacheUsage kernel_cache_usage(const std::filesystem::path& directory);

// Removes the least recently used entries until the rest take at most `max_bytes`, skipping any
// whose lock is held (the caller's own entry among them), and the leftovers of killed processes
// (lock files without an entry, temporary files older than an hour). Returns what was removed.
KernelCacheUsage prune_kernel_cache(const std::filesystem::path& directory, std::uintmax_t max_bytes);

// prune_kernel_cache down to nothing.
KernelCacheUsage clear_kernel_cache(const std::filesystem::path& directory);

// Records a use of the entry (its cubin's modification time becomes now). A failure only costs
// the entry its place in the eviction order, so it is ignored.
void mark_kernel_cache_entry_used(const std::filesystem::path& cubin);

}  // namespace tensordiag::runtime
