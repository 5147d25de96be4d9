#include "runtime/cuda/sha256.hpp"

#include <openssl/evp.h>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {
namespace {

// EVP calls fail only when OpenSSL cannot allocate or its SHA-256 provider is missing: our
// environment is broken, not the user's input.
void check(int result, const char* call) {
  if (result != 1) throw internal_error(std::string("OpenSSL ") + call + " failed");
}

}  // namespace

void Sha256::FreeContext::operator()(evp_md_ctx_st* context) const { EVP_MD_CTX_free(context); }

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  if (!context_) throw internal_error("OpenSSL EVP_MD_CTX_new failed");
  check(EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr), "EVP_DigestInit_ex(SHA-256)");
}

Sha256& Sha256::update(const void* data, std::size_t size) {
  check(EVP_DigestUpdate(context_.get(), data, size), "EVP_DigestUpdate");
  return *this;
}

Sha256Digest Sha256::finish() {
  Sha256Digest digest;
  unsigned int size = 0;
  check(EVP_DigestFinal_ex(context_.get(), digest.data(), &size), "EVP_DigestFinal_ex");
  if (size != digest.size()) throw internal_error("OpenSSL SHA-256 gave a digest of the wrong size");
  return digest;
}

Sha256Digest sha256(std::string_view bytes) { return Sha256().update(bytes).finish(); }

std::string to_hex(const Sha256Digest& digest) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * digest.size());
  for (const std::uint8_t byte : digest) {
    hex.push_back(digits[byte >> 4]);
    hex.push_back(digits[byte & 0xf]);
  }
  return hex;
}

}  // namespace tensordiag::runtime
