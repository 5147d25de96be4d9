#pragma once
// SHA-256 (FIPS 180-4): the kernel cache's key and the checksum of each cache entry. Written here
// rather than taken from a crypto library because DESIGN.md section 6 admits no such dependency,
// and the cache needs nothing beyond this one digest.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tensordiag::runtime {

using Sha256Digest = std::array<std::uint8_t, 32>;

// Incremental hashing: update() any number of times, then finish() once.
class Sha256 {
public:
  Sha256();
  Sha256& update(const void* data, std::size_t size);
  Sha256& update(std::string_view bytes) { return update(bytes.data(), bytes.size()); }
  // @pre finish() was not called before on this object.
  Sha256Digest finish();

private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> block_{};
  std::size_t block_used_ = 0;
  std::uint64_t total_bytes_ = 0;
};

Sha256Digest sha256(std::string_view bytes);

// Lower-case hexadecimal, 64 characters.
std::string to_hex(const Sha256Digest& digest);

}  // namespace tensordiag::runtime
