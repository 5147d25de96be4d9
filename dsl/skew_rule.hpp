#pragma once
// The max-diag rule of structure skew (docs/DESIGN.md section 7), written in the DSL. A
// skew-symmetric tensor's diagonal is zero; its "diagonal" is the block form: the entries
// C[B_k], B_k = (kD, kD+1, .., kD+D-1) for k < N / D, and their D! signed copies. The rule
// maximizes sum_k C[B_k]^2 (for D = 2, the Murnaghan form's 2 x 2 blocks).
//
// Rotating every mode by the same G in the plane (p, q) with p in block A, q in block B != A
// changes only two block entries (no other block holds p or q; within B_A only the mode that
// holds p mixes, rows p and q as in DESIGN.md section 2):
//   C[B_A] <- c a + s b,  a = C[B_A], b = C[B_A with p -> q],
//   C[B_B] <- c d - s e,  d = C[B_B], e = C[B_B with q -> p],
// (a, b = 0 when p is in no block, d, e = 0 when q is in none). The objective is therefore the
// max-diag objective of these four entries, and the DSL derives the same closed-form maximizer.
// A pair inside one block changes nothing: the block entry is the block's determinant-like
// wedge, invariant under a rotation of determinant 1 (the engine skips it).
#include "dsl/rule.hpp"

namespace tensordiag::dsl::rules {

inline constexpr auto skew_max_diag = [] {
  using namespace pivot;
  return objective_rule("max_diag", sq(a * c + b * s) + sq(d * c - e * s));
}();

}  // namespace tensordiag::dsl::rules
