#pragma once
// The pivot subtensor A[{p,q}^D] of one pair: 2^D entries, entry `bits` taking index q in mode n
// when bit n of `bits` is set and p otherwise. Within a group it changes only under its own pair's
// rotations, so all D micro-iterations of the pair run on it alone (DESIGN.md section 3).
#include <cstddef>
#include <vector>

#include "dsl/evaluate.hpp"
#include "dsl/givens.hpp"
#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/index_offsets.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/core/scalar.hpp"

namespace tensordiag::runtime {

// Mode n's rotation g on the pair (x at p, y at q) of a subtensor: the new value at p, and at q (a
// complex T takes the unitary rotation: x <- al x + conj(be) y, y <- al y - be x).
template <class T>
T rotated_p(const PlaneRotation<T>& g, T x, T y) {
  if constexpr (is_complex_v<T>) return g.al * x + std::conj(g.be) * y;
  else return g.c * x + g.s * y;
}
template <class T>
T rotated_q(const PlaneRotation<T>& g, T x, T y) {
  if constexpr (is_complex_v<T>) return g.al * y - g.be * x;
  else return -g.s * x + g.c * y;
}

// @pre `offsets` holds p and q in its sliced mode, if it has one.
template <class T>
std::vector<T> gather_pivot_subtensor(const T* tensor, const IndexOffsets& offsets, PivotPair pair) {
  const int order = offsets.order();
  std::vector<T> sub(std::size_t{1} << order);
  for (std::size_t bits = 0; bits < sub.size(); ++bits) {
    std::ptrdiff_t offset = 0;
    for (int n = 0; n < order; ++n) offset += offsets(n, (bits >> n) & 1 ? pair.q : pair.p);
    sub[bits] = tensor[offset];
  }
  return sub;
}

template <class T>
std::vector<T> gather_pivot_subtensor(const T* tensor, const std::vector<std::ptrdiff_t>& strides, PivotPair pair) {
  return gather_pivot_subtensor(tensor, IndexOffsets(strides), pair);
}

// a = A_{p..p}, d = A_{q..q}, b = A_{p->q,n} (index q in mode n only), e = A_{q->p,n}.
template <class T>
dsl::PivotValues<T> pivot_values(const std::vector<T>& sub, int mode) {
  const std::size_t all = sub.size() - 1;
  const std::size_t bit = std::size_t{1} << mode;
  return {sub[0], sub[bit], sub[all], sub[all ^ bit]};
}

// Rotation of mode n on the subtensor: the p-half and q-half of mode n mix (rotated_p, rotated_q).
template <class T>
void rotate_pivot_subtensor(std::vector<T>& sub, int mode, const PlaneRotation<T>& g) {
  const std::size_t bit = std::size_t{1} << mode;
  for (std::size_t bits = 0; bits < sub.size(); ++bits) {
    if (bits & bit) continue;
    const T x = sub[bits];
    const T y = sub[bits | bit];
    sub[bits] = rotated_p(g, x, y);
    sub[bits | bit] = rotated_q(g, x, y);
  }
}

}  // namespace tensordiag::runtime
