#include "codegen/scalar_type.hpp"

#include <charconv>
#include <cmath>

#include "codegen/codegen_error.hpp"

namespace tensordiag::codegen {

std::string_view to_string(ScalarType scalar) {
  switch (scalar) {
    case ScalarType::float32: return "float32";
    case ScalarType::float64: return "float64";
    case ScalarType::complex64: return "complex64";
    case ScalarType::complex128: return "complex128";
  }
  return "?";
}

std::string_view cuda_type(ScalarType scalar) {
  switch (scalar) {
    case ScalarType::float32: return "float";
    case ScalarType::float64: return "double";
    case ScalarType::complex64: return "tensordiag::dsl::Complex<float>";
    case ScalarType::complex128: return "tensordiag::dsl::Complex<double>";
  }
  return "?";
}

bool is_complex(ScalarType scalar) { return scalar == ScalarType::complex64 || scalar == ScalarType::complex128; }

ScalarType real_type(ScalarType scalar) {
  return scalar == ScalarType::float32 || scalar == ScalarType::complex64 ? ScalarType::float32 : ScalarType::float64;
}

std::size_t size_of(ScalarType scalar) {
  const std::size_t real = real_type(scalar) == ScalarType::float32 ? sizeof(float) : sizeof(double);
  return is_complex(scalar) ? 2 * real : real;
}

ScalarType parse_scalar_type(std::string_view name) {
  for (const ScalarType scalar : {ScalarType::float32, ScalarType::float64, ScalarType::complex64, ScalarType::complex128})
    if (name == to_string(scalar)) return scalar;
  throw codegen_error("unsupported dtype '" + std::string(name) + "': use float32, float64, complex64 or complex128");
}

// The shortest digits that read back as the same float (or double), so the literal is exactly the
// value the host computes with static_cast<T>(value) (dsl/evaluate.hpp).
std::string literal(double value, ScalarType type) {
  const ScalarType scalar = real_type(type);
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
  return std::string(name) + (real_type(scalar) == ScalarType::float32 ? "f" : "");
}

}  // namespace tensordiag::codegen
