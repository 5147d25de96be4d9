#pragma once
// An advisory exclusive lock (flock) on a lock file, shared by processes and by threads: every
// holder opens the file itself, and flock locks belong to the open file, not the process.
//
// A lock file may be removed while others wait on it (the kernel cache removes an evicted entry's
// lock file). A waiter that then gets the lock holds it on a file no longer in the directory while
// a newcomer creates and locks a new one: two holders. So after flock, the holder checks that the
// path still names the file it locked, and starts over when not.
#include <filesystem>
#include <optional>

namespace tensordiag::runtime {

class FileLock {
public:
  // Waits for the lock; nullopt when the lock file cannot be opened or created (a read-only
  // directory): the caller goes on unlocked.
  static std::optional<FileLock> acquire(const std::filesystem::path& path);
  // Never waits: nullopt also when another holder has it.
  static std::optional<FileLock> try_acquire(const std::filesystem::path& path);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  // Removes the lock file, then releases the lock; waiters see the removal and start over.
  void remove_and_release();

private:
  FileLock(std::filesystem::path path, int fd) : path_(std::move(path)), fd_(fd) {}
  static std::optional<FileLock> lock(const std::filesystem::path& path, bool wait);

  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace tensordiag::runtime
