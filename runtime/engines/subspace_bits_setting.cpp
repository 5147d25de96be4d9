#include "runtime/engines/subspace_bits_setting.hpp"

#include <cstdlib>
#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

int subspace_bits_from_environment() {
  const char* text = std::getenv("TENSORDIAG_SUBSPACE_BITS");
  if (!text || !*text) return 0;
  char* end = nullptr;
  const long bits = std::strtol(text, &end, 10);
  if (*end != '\0' || bits < 0 || bits > 10 || bits == 1)
    throw user_error("TENSORDIAG_SUBSPACE_BITS must be 0 or 2..10, not '" + std::string(text) + "'");
  return static_cast<int>(bits);
}

}  // namespace tensordiag::runtime
