#pragma once
// The block form of a skew-symmetric tensor (structure skew; docs/DESIGN.md section 7): blocks
// B_k = (kD, kD+1, .., kD+D-1) for k < N / D (the N mod D last indices lie in no block). An entry is
// on the blocks when its indices are a permutation of one B_k; those are the D! signed copies
// of C[B_k], the skew tensor's "diagonal".
#include <cstddef>
#include <vector>

#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

inline int skew_block_count(int order, int size) { return size / order; }

// The block of index i, or -1 when it lies in none.
inline int skew_block_of(int index, int order, int size) {
  return index < skew_block_count(order, size) * order ? index / order : -1;
}

// The offset of C[B_k] in the tensor's layout.
std::ptrdiff_t skew_block_offset(const std::vector<std::ptrdiff_t>& strides, int block);

// The pivot entries (a, b, d, e) of the pair (p, q) for the skew rule (dsl/skew_rule.hpp); all zero
// when no rotation of the pair can change the block entries (p, q in one block, or both in none).
struct SkewPivot {
  double a = 0.0, b = 0.0, d = 0.0, e = 0.0;
};
template <class T>
SkewPivot skew_pivot_values(const HostTensor<T>& core, int p, int q);

// The figures of a skew core: the squares of the entries with distinct indices off the blocks,
// summed directly (a repeated index holds 0 by the structure, rounding at most); sum_k C[B_k]^2
// (the objective); sum_k C[B_k]. For N = D every skew tensor is in the block form: off = 0.
struct SkewFigures {
  double off_norm2 = 0.0;
  double block_norm2 = 0.0;
  double block_sum = 0.0;
};
template <class T>
SkewFigures skew_figures(const HostTensor<T>& core);

extern template SkewPivot skew_pivot_values(const HostTensor<float>&, int, int);
extern template SkewPivot skew_pivot_values(const HostTensor<double>&, int, int);
extern template SkewFigures skew_figures(const HostTensor<float>&);
extern template SkewFigures skew_figures(const HostTensor<double>&);

}  // namespace tensordiag::runtime
