#pragma once
// The figures a run records of a core, by structure: off(C)^2, the objective and the sum the
// stop criteria watch. General and symmetric: the diagonal (verification.hpp); skew: the block
// entries C[B_k] (skew_blocks.hpp), the skew tensor's "diagonal".
#include "runtime/core/structure.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

struct CoreFigures {
  double off_norm2 = 0.0;   // squares off the diagonal (off the blocks), summed directly
  double diag_norm2 = 0.0;  // sum_i C[i..i]^2 (sum_k C[B_k]^2)
  double trace = 0.0;       // sum_i C[i..i] (sum_k C[B_k])
};

template <class T>
CoreFigures core_figures(const HostTensor<T>& core, Structure structure);

extern template CoreFigures core_figures(const HostTensor<float>&, Structure);
extern template CoreFigures core_figures(const HostTensor<double>&, Structure);
// Complex cores (structures general and symmetric): |C_ii|^2 and the squared moduli off the diagonal; the
// trace's real part.
extern template CoreFigures core_figures(const HostTensor<std::complex<float>>&, Structure);
extern template CoreFigures core_figures(const HostTensor<std::complex<double>>&, Structure);

}  // namespace tensordiag::runtime
