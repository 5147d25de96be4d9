// SHA-256 against the FIPS 180-2 appendix B test vectors (and the empty message from NIST's
// example values), hashed whole and in uneven pieces so that block boundaries are crossed.
#include <doctest/doctest.h>

#include <string>

#include "runtime/cuda/sha256.hpp"

using tensordiag::runtime::Sha256;
using tensordiag::runtime::sha256;
using tensordiag::runtime::to_hex;

TEST_CASE("sha256: FIPS 180-2 test vectors") {
  CHECK(to_hex(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(to_hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(to_hex(sha256(std::string(1'000'000, 'a'))) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256: the digest does not depend on how the message is split into updates") {
  std::string message;
  for (int i = 0; i < 1000; ++i) message.push_back(static_cast<char>('!' + i % 90));
  const std::string whole = to_hex(sha256(message));
  for (const std::size_t piece : {1u, 3u, 55u, 56u, 63u, 64u, 65u, 127u}) {
    Sha256 hasher;
    for (std::size_t at = 0; at < message.size(); at += piece) {
      hasher.update(std::string_view(message).substr(at, piece));
    }
    CHECK(to_hex(hasher.finish()) == whole);
  }
}
