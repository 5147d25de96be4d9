#pragma once
// The pivot check of the seed's convergence theory (its eq. (pivot-check)): in mode n, pair (p, q)
// is rotated iff 2 |Lambda_pq| >= eta ||Lambda||_2 with Lambda = Lambda(M_n) skew-symmetric N x N.
// For orthogonal factors the seed's gradient reduces to (DESIGN.md section 2)
//   Lambda = G - G^T,   G[j, l] = C_{l..l} * C_{l->j,n},
// so the check needs N^2 entries of the current core C, not two reconstructed tensors.
#include <vector>

#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/index_offsets.hpp"

namespace tensordiag::runtime {

// Lambda (row-major N x N) of the core `tensor` in `mode`. With `group` set, C is the tensor after
// the group's rotations in modes < mode (the fused group step): C_{l->j,n} then mixes index l with
// its partner in each earlier mode, a sum of at most 2^mode entries of `tensor`.
template <class T>
std::vector<double> pivot_lambda(const T* tensor, const std::vector<std::ptrdiff_t>& strides, int size, int mode,
                                 const GroupRotations<T>* group = nullptr);

// The same Lambda in two gathers, for a tensor whose slowest mode is spread over ranks in slabs
// (runtime/distributed/): pivot_lambda_diagonal gives C_{l..l} for each l whose entries `offsets`
// holds, 0 for the others; pivot_lambda_products then G[j, l] = C_{l..l} C_{l->j,n} for each (j, l)
// it holds (0 elsewhere), from the whole diagonal. Every entry is held by one slab, so the ranks'
// sums of the parts are exact, and skew_part(G) = G - G^T is Lambda. A slab holds a group's pairs
// whole (both p and q of a pair in its mode, or neither).
template <class T>
std::vector<double> pivot_lambda_diagonal(const T* tensor, const IndexOffsets& offsets, int size, int mode,
                                          const GroupRotations<T>* group);
template <class T>
std::vector<double> pivot_lambda_products(const T* tensor, const IndexOffsets& offsets, int size, int mode,
                                          const GroupRotations<T>* group, const std::vector<double>& diagonal);
std::vector<double> skew_part(const std::vector<double>& g, int size);

// ||X||_2, the largest singular value, of a real skew-symmetric N x N matrix (row-major).
double skew_spectral_norm(const std::vector<double>& lambda, int size);

// Whether pair (p, q) passes: 2 |Lambda_pq| >= eta ||Lambda||_2.
inline bool passes_pivot_check(const std::vector<double>& lambda, int size, double norm, PivotPair pair, double eta) {
  const double entry = lambda[static_cast<std::size_t>(pair.p) * size + pair.q];
  return 2.0 * (entry < 0 ? -entry : entry) >= eta * norm;
}

}  // namespace tensordiag::runtime
