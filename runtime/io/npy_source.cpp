#include "runtime/io/npy_source.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void cannot_open(const fs::path& file, const std::string& why) {
  throw user_error(file.string() + ": cannot open" + why);
}

}  // namespace

NpyFileSource::NpyFileSource(const fs::path& file) {
  std::error_code error;
  const auto status = fs::status(file, error);
  if (status.type() == fs::file_type::not_found) cannot_open(file, ": no such file");
  if (error) cannot_open(file, ": " + error.message());
  if (fs::is_directory(status)) cannot_open(file, ": is a directory, not a .npy file");
  if (!fs::is_regular_file(status)) cannot_open(file, ": not a regular file");
  size_ = fs::file_size(file, error);
  if (error) cannot_open(file, ": " + error.message());
  errno = 0;
  stream_.open(file, std::ios::binary);
  if (!stream_) cannot_open(file, " for reading: " + failure_reason());
}

bool NpyFileSource::read(void* out, std::size_t count) {
  errno = 0;
  stream_.read(static_cast<char*>(out), static_cast<std::streamsize>(count));
  return static_cast<std::size_t>(stream_.gcount()) == count && !stream_.bad();
}

// errno's text after a failed stream operation (libstdc++ streams sit on C stdio, which sets it).
std::string NpyFileSource::failure_reason() const {
  return errno != 0 ? std::string(std::strerror(errno)) : std::string("unknown reason");
}

bool NpyMemorySource::read(void* out, std::size_t count) {
  if (count > bytes_.size() - position_) return false;
  if (count != 0) std::memcpy(out, bytes_.data() + position_, count);
  position_ += count;
  return true;
}

}  // namespace tensordiag::runtime
