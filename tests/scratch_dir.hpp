#pragma once
// Files on disk for tests: a fresh directory that disappears at scope exit, and whole-file reads
// and writes that fail the test on an I/O error.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>

namespace tensordiag::testing {

// A fresh directory under the system temp directory, removed with its contents at scope exit.
class ScratchDir {
public:
  explicit ScratchDir(std::string_view label) {
    std::random_device entropy;
    do {
      path_ = std::filesystem::temp_directory_path() /
              ("tensordiag_test_" + std::string(label) + "_" + std::to_string(entropy()) +
               std::to_string(entropy()));
    } while (!std::filesystem::create_directory(path_));
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

  std::filesystem::path operator/(std::string_view name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

inline void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  REQUIRE(out.good());
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace tensordiag::testing
