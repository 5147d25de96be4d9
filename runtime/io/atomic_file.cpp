#include "runtime/io/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

namespace tensordiag::runtime {
namespace {

[[noreturn]] void fail(const char* what, const std::filesystem::path& path, int error) {
  throw std::filesystem::filesystem_error(what, path, std::error_code(error, std::generic_category()));
}

// Returns 0, or the errno of the failed write.
int write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return errno;
    if (written == 0) return EIO;
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  return 0;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& target,
                           std::initializer_list<std::string_view> parts) {
  // mkstemp gives a name no other writer uses, so concurrent writers of one target do not collide.
  std::string temporary = target.string() + ".tmp.XXXXXX";
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) fail("cannot create a temporary file", temporary, errno);
  int error = 0;
  for (const std::string_view part : parts) {
    if (error == 0) error = write_all(fd, part);
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    ::unlink(temporary.c_str());
    fail("cannot write a temporary file", temporary, error);
  }
  if (std::rename(temporary.c_str(), target.c_str()) != 0) {
    error = errno;
    ::unlink(temporary.c_str());
    fail("cannot rename a temporary file onto", target, error);
  }
}

}  // namespace tensordiag::runtime
