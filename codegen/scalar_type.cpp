#include "codegen/scalar_type.hpp"

#include <charconv>
#include <cmath>

#include "codegen/codegen_error.hpp"

namespace tensordiag::codegen {

std::string_view to_string(ScalarType scalar) { return scalar == ScalarType::float32 ? "float32" : "float64"; }

std::string_view cuda_type(ScalarType scalar) { return scalar == ScalarType::float32 ? "float" : "double"; }

std::size_t size_of(ScalarType scalar) { return scalar == ScalarType::float32 ? sizeof(float) : sizeof(double); }

ScalarType parse_scalar_type(std::string_view name) {
  if (name == "float32") return ScalarType::float32;
  if (name == "float64") return ScalarType::float64;
  throw codegen_error("unsupported dtype '" + std::string(name) + "': use float32 or float64");
}

// The shortest digits that read back as the same float (or double), so the literal is exactly the
// value the host computes with static_cast<T>(value) (dsl/evaluate.hpp).
std::string literal(double value, ScalarType scalar) {
  char buffer[32];
  std::to_chars_result written{};
  if (scalar == ScalarType::float32) {
    const float narrow = static_cast<float>(value);
    if (!std::isfinite(narrow))
      throw codegen_error("the constant " + std::to_string(value) + " is not a finite float32");
    written = std::to_chars(buffer, buffer + sizeof buffer, narrow);
  } else {
    if (!std::isfinite(value)) throw codegen_error("the constant " + std::to_string(value) + " is not finite");
    written = std::to_chars(buffer, buffer + sizeof buffer, value);
  }
  std::string text(buffer, written.ptr);
  // "2" would be an int in C++: make it a floating literal.
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  if (scalar == ScalarType::float32) text += 'f';
  return text;
}

std::string math_function(std::string_view name, ScalarType scalar) {
  return std::string(name) + (scalar == ScalarType::float32 ? "f" : "");
}

}  // namespace tensordiag::codegen
