#pragma once
// The global phase of each index of a complex result (docs/DESIGN.md section 7): every diagonal
// entry C[i, .., i] is made real and >= 0 by C[i@1] <- conj(w_i) C[i@1] and U_1[:, i] <- w_i U_1[:, i],
// w_i = C_ii / |C_ii| (T is unchanged; the factors of a diagonalizable T are then unique up to
// permutation and the phases of the other modes, which trade against each other). Every complex
// engine's result goes through it, on the host.
#include <complex>

#include "runtime/algorithm/run_result.hpp"
#include "runtime/core/structure.hpp"

namespace tensordiag::runtime {

// Fixes the phases of result.core and result.factors[0]; the last history record's trace (now
// sum_i |C_ii|) states the result. The other figures do not change.
template <class R>
void fix_diagonal_phases(Result<std::complex<R>>& result);

// Structure symmetric (one U in every mode): w_i = (C_ii / |C_ii|)^(1/D) (the principal root),
// C[i@n] <- conj(w_i) C[i@n] in every mode n and U[:, i] <- w_i U[:, i] for U = result.factors[0]
// (the engine's one factor, or the first of D equal ones): C stays symmetric and C_ii becomes
// |C_ii|; result.factors then holds U D times.
template <class R>
void fix_symmetric_diagonal_phases(Result<std::complex<R>>& result);

// The fix a complex engine's result takes: fix_symmetric_diagonal_phases under structure
// symmetric, else fix_diagonal_phases.
template <class R>
void fix_complex_phases(Result<std::complex<R>>& result, Structure structure) {
  if (structure == Structure::symmetric) fix_symmetric_diagonal_phases(result);
  else fix_diagonal_phases(result);
}

extern template void fix_diagonal_phases(Result<std::complex<float>>&);
extern template void fix_diagonal_phases(Result<std::complex<double>>&);
extern template void fix_symmetric_diagonal_phases(Result<std::complex<float>>&);
extern template void fix_symmetric_diagonal_phases(Result<std::complex<double>>&);

}  // namespace tensordiag::runtime
