#pragma once
// Where the bytes of a .npy file come from: an open file, or a buffer already in memory. The .npy
// parser (npy.cpp) reads both through this one interface, so the fuzzer, which feeds it buffers
// (fuzz/npy_fuzzer.cpp), exercises the same code that reads users' files.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>

namespace tensordiag::runtime {

class NpySource {
public:
  virtual ~NpySource() = default;
  // The total number of bytes, known before reading, so that the parser can check every length
  // the header declares against it before allocating.
  virtual std::uintmax_t size() const = 0;
  // Reads the next count bytes into out; false when fewer were there or the read failed.
  virtual bool read(void* out, std::size_t count) = 0;
  // Why the last read failed, for a one-line message.
  virtual std::string failure_reason() const = 0;
};

// A regular file, opened on construction; a missing, unreadable or non-regular path is a
// user_error naming it.
class NpyFileSource final : public NpySource {
public:
  explicit NpyFileSource(const std::filesystem::path& file);
  std::uintmax_t size() const override { return size_; }
  bool read(void* out, std::size_t count) override;
  std::string failure_reason() const override;

private:
  std::ifstream stream_;
  std::uintmax_t size_ = 0;
};

// A view of bytes owned by the caller, which must outlive the source.
class NpyMemorySource final : public NpySource {
public:
  explicit NpyMemorySource(std::span<const unsigned char> bytes) : bytes_(bytes) {}
  std::uintmax_t size() const override { return bytes_.size(); }
  bool read(void* out, std::size_t count) override;
  std::string failure_reason() const override { return "the buffer ends early"; }

private:
  std::span<const unsigned char> bytes_;
  std::size_t position_ = 0;
};

}  // namespace tensordiag::runtime
