#pragma once
// Numbers as the DSL prints them, in expressions and in the generated CUDA source alike. No Hana:
// codegen includes it.
#include <charconv>
#include <string>

namespace tensordiag::dsl {

// Shortest text that reads back as the same double ("2", "0.5", "1e-300").
inline std::string format_number(double value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

}  // namespace tensordiag::dsl
