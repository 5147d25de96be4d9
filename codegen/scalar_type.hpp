#pragma once
// The scalar type a kernel is specialized for, and how generated CUDA C++ spells it: the type
// name, typed literals, and the math functions of that precision (sqrtf for float, sqrt for
// double), which NVRTC provides as built-ins and the host finds in <cmath>. A complex type
// (issue 11, item 3) is dsl::Complex of its real type (dsl/complex_number.hpp); its literals and
// math functions are its real type's.
#include <cstddef>
#include <string>
#include <string_view>

namespace tensordiag::codegen {

enum class ScalarType { float32, float64, complex64, complex128 };

std::string_view to_string(ScalarType scalar);  // NumPy's names: "float32" | "float64" | "complex64" | "complex128"
std::string_view cuda_type(ScalarType scalar);  // "float" | "double" | "tensordiag::dsl::Complex<float>" | ..<double>
std::size_t size_of(ScalarType scalar);
ScalarType parse_scalar_type(std::string_view name);  // throws codegen_error for other names

bool is_complex(ScalarType scalar);
// float32 for float32 and complex64, float64 for float64 and complex128.
ScalarType real_type(ScalarType scalar);

// The literal that denotes exactly the real-type value nearest `value`: "2.0f", "0.1f", "1e-300".
// Throws codegen_error when that value is not finite.
std::string literal(double value, ScalarType scalar);

// The C math function `name` (sqrt, fabs, atan2) of this precision: sqrtf for float32 and complex64.
std::string math_function(std::string_view name, ScalarType scalar);

}  // namespace tensordiag::codegen
