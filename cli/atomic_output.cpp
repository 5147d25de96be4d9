#include "cli/atomic_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "cli/interrupt_signals.hpp"
#include "runtime/core/errors.hpp"

namespace tensordiag::cli {

namespace fs = std::filesystem;

namespace {

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

// A hidden name next to the final one: same directory, so rename() is atomic.
fs::path temporary_name(const fs::path& directory, const std::string& name) {
  return directory / ("." + name + ".tmp-" + std::to_string(::getpid()));
}

}  // namespace

AtomicOutput::AtomicOutput(fs::path directory) : directory_(directory.lexically_normal()) {
  // "out/" names the directory "out": drop the trailing separator so parent_path() climbs.
  if (!directory_.has_filename()) directory_ = directory_.parent_path();
  if (directory_.empty()) directory_ = ".";
  try {
    std::error_code error;
    for (fs::path p = directory_; !p.empty(); p = p.parent_path()) {
      if (fs::exists(p, error) || error) break;
      created_.push_back(p);
    }
    const fs::file_status status = fs::status(directory_, error);
    if (fs::exists(status) && !fs::is_directory(status))
      throw user_error("output path " + quoted(directory_) + " exists and is not a directory");
    fs::create_directories(directory_, error);
    if (error)
      throw user_error("cannot create output directory " + quoted(directory_) + ": " +
                       error.message());
    const fs::path probe = temporary_name(directory_, "probe");
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
      throw user_error("cannot write to output directory " + quoted(directory_) + ": " +
                       std::strerror(errno));
    ::close(fd);
    ::unlink(probe.c_str());
  } catch (...) {
    discard();
    throw;
  }
}

AtomicOutput::~AtomicOutput() {
  if (!done_) discard();
}

fs::path AtomicOutput::stage(const std::string& name) {
  fs::path temporary = temporary_name(directory_, name);
  staged_.emplace_back(temporary, directory_ / name);
  return temporary;
}

void AtomicOutput::stage_text(const std::string& name, std::string_view text) {
  const fs::path path = stage(name);
  std::ofstream file(path, std::ios::binary);
  file.write(text.data(), static_cast<std::streamsize>(text.size()));
  file.close();
  if (!file) throw user_error("cannot write " + quoted(path) + ": " + std::strerror(errno));
}

void AtomicOutput::commit() {
  stop_if_interrupted();
  for (const auto& [temporary, final_path] : staged_) {
    std::error_code error;
    fs::rename(temporary, final_path, error);
    if (error)
      throw user_error("cannot move " + quoted(temporary) + " to " + quoted(final_path) + ": " +
                       error.message());
    committed_.push_back(final_path);
  }
  done_ = true;
}

void AtomicOutput::discard_now() noexcept {
  discard();
  done_ = true;
}

void AtomicOutput::discard() noexcept {
  std::error_code ignored;
  for (const fs::path& path : committed_) fs::remove(path, ignored);
  for (const auto& staged : staged_) fs::remove(staged.first, ignored);
  // Innermost first; remove() leaves a directory that is not empty, i.e. not only ours.
  for (const fs::path& path : created_) fs::remove(path, ignored);
}

}  // namespace tensordiag::cli
