#pragma once
// What a tensor is known to be besides cubical: general (one factor per mode), symmetric under
// every permutation of its indices, or skew-symmetric (antisymmetric: the sign of the permutation).
// The last two have one factor Q for all modes, T = C x_1 Q ... x_D Q, and C keeps the structure
// (docs/DESIGN.md section 7). Order 2 is taken for both: a symmetric matrix is the classical Jacobi
// eigenvalue method, a skew one Paardekooper's Jacobi method to the Murnaghan form.
#include <string_view>

namespace tensordiag::runtime {

enum class Structure { general, symmetric, skew };

std::string_view to_string(Structure structure);
Structure parse_structure(std::string_view name);  // "general" | "symmetric" | "skew"; throws user_error otherwise

// The smallest order a structure accepts: 3 in general (a matrix's diagonalization by two
// orthogonal factors is the SVD), 2 for a symmetric or skew tensor.
constexpr int min_order(Structure structure) { return structure == Structure::general ? 3 : 2; }

// Whether the structure has one factor Q for every mode (symmetric, skew) rather than one per mode.
constexpr bool shares_one_factor(Structure structure) { return structure != Structure::general; }

}  // namespace tensordiag::runtime
