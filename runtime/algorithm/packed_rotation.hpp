#pragma once
// The Jacobi step of a symmetric tensor in packed storage (packed_symmetric.hpp; DESIGN.md
// section 7): every mode rotated in the plane (p, q) by one Givens rotation,
//   A[.. p@n ..] <- c A_p + s A_q,  A[.. q@n ..] <- -s A_p + c A_q  for all n,
// as symmetric_rotation.hpp states it for full storage.
//
// The distinct entries it changes are those whose index holds p or q. Write such an index as a
// multiset R of the other symbols (size D - m) plus m slots in {p, q}; the m + 1 entries
// E_b = A[R, p^(m-b), q^b], b = 0..m, form a class that the rotation maps into itself (a
// symmetric A depends only on how many slots are at q), by the rotation's m-th symmetric power.
// Each class is read, rotated and written once: by that power's (m + 1) x (m + 1) matrix in double
// for m <= 12, one slot at a time above (full storage's own Givens combinations) in long double,
// where the class's values stand for so many full entries that their shared rounding would show
// (packed_symmetric.hpp).
#include "dsl/givens.hpp"
#include "runtime/core/packed_symmetric.hpp"

namespace tensordiag::runtime {

// t_k = A[p^(D-k), q^k], k = 0 .. D: the values of the pivot subtensor (symmetric_rotation.hpp's t).
template <class T>
std::vector<double> packed_pivot_values(const PackedSymmetricTensor<T>& tensor, int p, int q);

// The rotation of every mode in the plane (p, q), p < q, in place. `threads`: 0 = OpenMP's default;
// the classes are split among threads when there are enough of them.
template <class T>
void rotate_packed(PackedSymmetricTensor<T>& tensor, int p, int q, dsl::Givens<double> g, int threads);

extern template std::vector<double> packed_pivot_values(const PackedSymmetricTensor<float>&, int, int);
extern template std::vector<double> packed_pivot_values(const PackedSymmetricTensor<double>&, int, int);
extern template void rotate_packed(PackedSymmetricTensor<float>&, int, int, dsl::Givens<double>, int);
extern template void rotate_packed(PackedSymmetricTensor<double>&, int, int, dsl::Givens<double>, int);

}  // namespace tensordiag::runtime
