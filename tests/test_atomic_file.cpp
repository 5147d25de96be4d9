// Atomic file writes: the target holds exactly the new bytes, an existing file is replaced whole,
// and a failed write throws and leaves no temporary file.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

#include "runtime/io/atomic_file.hpp"
#include "temporary_directory.hpp"

using tensordiag::runtime::write_file_atomically;
namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("atomic file: writes the parts in order and replaces an existing file") {
  const tensordiag::test::TemporaryDirectory dir;
  const fs::path target = dir.path() / "entry";
  write_file_atomically(target, {"head", std::string_view("\0mid", 4), "", "tail"});
  CHECK(read_file(target) == std::string("head\0midtail", 12));
  write_file_atomically(target, {"new"});
  CHECK(read_file(target) == "new");
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
}

TEST_CASE("atomic file: a failure throws filesystem_error and leaves nothing behind") {
  const tensordiag::test::TemporaryDirectory dir;
  CHECK_THROWS_AS(write_file_atomically(dir.path() / "missing" / "entry", {"x"}),
                  fs::filesystem_error);
  fs::create_directory(dir.path() / "occupied");
  CHECK_THROWS_AS(write_file_atomically(dir.path() / "occupied", {"x"}), fs::filesystem_error);
  CHECK(fs::is_directory(dir.path() / "occupied"));
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
}
