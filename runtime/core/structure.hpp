#pragma once
// What a tensor is known to be besides cubical: general (one factor per mode), or symmetric under
// every permutation of its indices (one factor Q for all modes, T = C x_1 Q ... x_D Q; DESIGN.md
// section 7). A symmetric matrix (order 2) is taken: that is the classical Jacobi eigenvalue method.
#include <string_view>

namespace tensordiag::runtime {

enum class Structure { general, symmetric };

std::string_view to_string(Structure structure);
Structure parse_structure(std::string_view name);  // "general" | "symmetric"; throws user_error otherwise

// The smallest order a structure accepts: 3 in general (a matrix's diagonalization by two
// orthogonal factors is the SVD), 2 for a symmetric tensor.
constexpr int min_order(Structure structure) { return structure == Structure::symmetric ? 2 : 3; }

}  // namespace tensordiag::runtime
