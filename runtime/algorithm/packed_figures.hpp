#pragma once
// The figures of a symmetric tensor in packed storage (packed_symmetric.hpp), as the full
// tensor's: each distinct entry weighs its multiplicity D! / prod m_v! (how many entries of the full
// tensor hold its value), so ||A||_F^2 = sum_e multiplicity(e) A_e^2 and off(A)^2 sums the same
// off the diagonal, directly (never ||A||^2 - ||diag A||^2: DESIGN.md section 2).
#include "runtime/algorithm/core_figures.hpp"
#include "runtime/core/packed_symmetric.hpp"

namespace tensordiag::runtime {

// off(A)^2, ||diag A||^2 and the trace; `threads` as rotate_packed's.
template <class T>
CoreFigures packed_core_figures(const PackedSymmetricTensor<T>& tensor, int threads);

// ||A||_F^2 of the full tensor.
template <class T>
double packed_norm2(const PackedSymmetricTensor<T>& tensor, int threads);

extern template CoreFigures packed_core_figures(const PackedSymmetricTensor<float>&, int);
extern template CoreFigures packed_core_figures(const PackedSymmetricTensor<double>&, int);
extern template double packed_norm2(const PackedSymmetricTensor<float>&, int);
extern template double packed_norm2(const PackedSymmetricTensor<double>&, int);

}  // namespace tensordiag::runtime
