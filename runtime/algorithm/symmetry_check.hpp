#pragma once
// The checks that a tensor is symmetric under every permutation of its indices (structure
// symmetric), or skew-symmetric, T[pi(i)] = sign(pi) T[i] (structure skew; docs/DESIGN.md
// section 7). The adjacent transpositions (n, n+1) generate the symmetric group, so T is symmetric
// iff T = T^(n n+1) for n = 1..D-1, and skew iff T = -T^(n n+1): (D - 1) N^D comparisons. For skew
// the comparison at i_n = i_n+1 reads T = -T, so every entry with a repeated index must be 0.
#include <vector>

#include "runtime/core/scalar.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

struct SymmetryDeviation {
  double largest = 0.0;  // max |T[i] - sign T[i with i_n, i_n+1 swapped]| over n and i
  std::vector<int> index;  // where; empty when the tensor is exactly symmetric
  int mode = 0;            // the transposition (mode, mode + 1) that shows it (0-based)
};

// sign = +1: symmetric; -1: skew.
template <class T>
SymmetryDeviation symmetry_deviation(const HostTensor<T>& tensor, int sign = 1);

// Relative tolerance of the check: a few hundred roundings of the dtype (1e-10 float64 and
// complex128, 1e-5 float32 and complex64), far above what any symmetric computation leaves and far
// below a real asymmetry. A complex tensor is symmetric (T = T^(n n+1)), not Hermitian.
template <class T>
constexpr double symmetry_tolerance() { return sizeof(real_t<T>) == 4 ? 1e-5 : 1e-10; }

// Throws user_error in one line, naming the two entries that differ most, when the largest
// deviation exceeds symmetry_tolerance<T>() max|T|. Nothing for structure general.
template <class T>
void check_structure(const HostTensor<T>& tensor, Structure structure);

extern template SymmetryDeviation symmetry_deviation(const HostTensor<float>&, int);
extern template SymmetryDeviation symmetry_deviation(const HostTensor<double>&, int);
extern template void check_structure(const HostTensor<float>&, Structure);
extern template void check_structure(const HostTensor<double>&, Structure);
extern template SymmetryDeviation symmetry_deviation(const HostTensor<std::complex<float>>&, int);
extern template SymmetryDeviation symmetry_deviation(const HostTensor<std::complex<double>>&, int);
extern template void check_structure(const HostTensor<std::complex<float>>&, Structure);
extern template void check_structure(const HostTensor<std::complex<double>>&, Structure);

}  // namespace tensordiag::runtime
