#pragma once
// SHA-256: the kernel cache's key and the checksum of each cache entry, computed by OpenSSL's
// libcrypto (EVP): code that others maintain and test, and 5 to 7 times faster on the cache's
// inputs than the hand-written FIPS 180-4 version it replaced (bench/results/sha256_2026-11-23.md).
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX, kept out of this header

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
  struct FreeContext {
    void operator()(evp_md_ctx_st* context) const;
  };
  std::unique_ptr<evp_md_ctx_st, FreeContext> context_;
};

Sha256Digest sha256(std::string_view bytes);

// Lower-case hexadecimal, 64 characters.
std::string to_hex(const Sha256Digest& digest);

}  // namespace tensordiag::runtime
