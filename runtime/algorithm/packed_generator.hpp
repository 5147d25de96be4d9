#pragma once
// Planted symmetric tensors in packed storage (packed_symmetric.hpp), for tensors whose N^D full
// storage would not fit: T = sum_l S_l q_l x .. x q_l with generator.hpp's S and Q for the same seed
// (structure symmetric), each distinct entry T[i_1 <= .. <= i_D] = sum_l S_l Q[i_1, l] .. Q[i_D, l]
// summed as the full generator sums it, so without noise the packed tensor is bit for bit the
// distinct entries of generate_diagonalizable's. The noise is a Gaussian per distinct entry (the
// full generator's symmetrized noise has that law too, but draws N^D numbers: with noise the two
// tensors differ), scaled so that ||T_noisy - T||_F = noise ||T||_F in the full tensor's norm.
#include "runtime/algorithm/generator.hpp"
#include "runtime/core/packed_symmetric.hpp"

namespace tensordiag::runtime {

template <class T>
struct GeneratedPackedTensor {
  PackedSymmetricTensor<T> tensor;
  std::vector<double> diagonal;  // S_l, l = 0..N-1
  Matrix<double> q;              // the one Q
};

// options.structure must be symmetric; options.layout is ignored (a packed tensor has none).
template <class T>
GeneratedPackedTensor<T> generate_packed_symmetric(const GeneratorOptions& options);

extern template GeneratedPackedTensor<float> generate_packed_symmetric(const GeneratorOptions&);
extern template GeneratedPackedTensor<double> generate_packed_symmetric(const GeneratorOptions&);

}  // namespace tensordiag::runtime
