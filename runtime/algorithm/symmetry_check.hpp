#pragma once
// The check that a tensor is symmetric under every permutation of its indices, as structure
// symmetric assumes (DESIGN.md section 7). The adjacent transpositions (n, n+1) generate the
// symmetric group, so T is symmetric iff T = T^(n n+1) for n = 1..D-1: (D - 1) N^D comparisons.
#include <vector>

#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

struct SymmetryDeviation {
  double largest = 0.0;  // max |T[i] - T[i with i_n, i_n+1 swapped]| over n and i
  std::vector<int> index;  // where; empty when the tensor is exactly symmetric
  int mode = 0;            // the transposition (mode, mode + 1) that shows it (0-based)
};

template <class T>
SymmetryDeviation symmetry_deviation(const HostTensor<T>& tensor);

// Relative tolerance of the check: a few hundred roundings of the dtype (1e-10 float64, 1e-5
// float32), far above what any symmetric computation leaves and far below a real asymmetry.
template <class T>
constexpr double symmetry_tolerance() { return sizeof(T) == 4 ? 1e-5 : 1e-10; }

// Throws user_error in one line, naming the two entries that differ most, when the largest
// deviation exceeds symmetry_tolerance<T>() max|T|.
template <class T>
void check_symmetric(const HostTensor<T>& tensor);

extern template SymmetryDeviation symmetry_deviation(const HostTensor<float>&);
extern template SymmetryDeviation symmetry_deviation(const HostTensor<double>&);
extern template void check_symmetric(const HostTensor<float>&);
extern template void check_symmetric(const HostTensor<double>&);

}  // namespace tensordiag::runtime
