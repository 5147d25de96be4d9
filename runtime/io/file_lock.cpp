#include "runtime/io/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace tensordiag::runtime {
namespace {

int open_lock_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  // flock needs no write access: an existing lock file in a read-only directory still serves.
  return fd >= 0 ? fd : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
}

int flock_retrying(int fd, int operation) {
  int result = 0;
  do {
    result = ::flock(fd, operation);
  } while (result != 0 && errno == EINTR);
  return result;
}

// Whether `path` still names the file open as `fd`.
bool still_named(int fd, const std::filesystem::path& path) {
  struct stat opened = {};
  struct stat named = {};
  return ::fstat(fd, &opened) == 0 && ::stat(path.c_str(), &named) == 0 &&
         opened.st_dev == named.st_dev && opened.st_ino == named.st_ino;
}

}  // namespace

std::optional<FileLock> FileLock::lock(const std::filesystem::path& path, bool wait) {
  for (;;) {
    const int fd = open_lock_file(path);
    if (fd < 0) return std::nullopt;
    if (flock_retrying(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      return std::nullopt;
    }
    if (still_named(fd, path)) return FileLock(path, fd);
    ::close(fd);  // removed (or replaced) while we waited: start over on the current file
  }
}

std::optional<FileLock> FileLock::acquire(const std::filesystem::path& path) {
  return lock(path, true);
}

std::optional<FileLock> FileLock::try_acquire(const std::filesystem::path& path) {
  return lock(path, false);
}

FileLock::FileLock(FileLock&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor of the open file releases the lock
}

void FileLock::remove_and_release() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());
  ::close(std::exchange(fd_, -1));
}

}  // namespace tensordiag::runtime
