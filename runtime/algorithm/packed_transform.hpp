#pragma once
// A symmetric tensor in packed storage times one matrix in every mode, A x_1 M ... x_D M with
// (X x_n M)[.. j@n ..] = sum_i M[j, i] X[.. i@n ..], for the verification of a packed run
// (||T - C x_1 Q ... x_D Q||_F / ||T||_F) without the N^D entries of full storage.
//
// A mode at a time, each intermediate symmetric in the modes done and in the modes to do:
// B_k[I; J] = (A x_1 M .. x_k M)[I, J] over sorted I of length k and sorted J of length D - k,
// held as binom(N+k-1, k) x binom(N+D-k-1, D-k) doubles. The next mode takes the largest index of
// I' = I + i (any would do, B_(k+1) being symmetric in I'):
//   B_(k+1)[I + i; J'] = sum_l M[i, l] B_k[I; sorted(J' + l)],  i >= max I,
// N multiply-adds per entry of B_(k+1). Two adjacent intermediates are held at once; at D = 6,
// N = 32 the largest is 5984 x 5984 doubles (286 MB) against 2.3 M distinct entries (19 MB): the
// verification, not the run, bounds a packed run's memory (packed_transform_bytes).
#include <cstddef>

#include "runtime/core/packed_symmetric.hpp"

namespace tensordiag::runtime {

// A x_1 M ... x_D M, packed, in double; summed in long double above order 12, where a distinct
// value's shared rounding would add coherently (packed_symmetric.hpp). `threads` as rotate_packed's.
template <class T>
PackedSymmetricTensor<double> multiply_every_mode_packed(const PackedSymmetricTensor<T>& a, const Matrix<T>& m,
                                                        int threads);

// The bytes multiply_every_mode_packed holds at its peak for this shape (long doubles above order 12).
std::size_t packed_transform_bytes(int order, int size);

// ||T - C x_1 Q ... x_D Q||_F / ||T||_F with the full tensor's Frobenius norm (packed_figures.hpp).
template <class T>
double packed_reconstruction_error(const PackedSymmetricTensor<T>& tensor, const PackedSymmetricTensor<T>& core,
                                   const Matrix<T>& q, int threads);

extern template PackedSymmetricTensor<double> multiply_every_mode_packed(const PackedSymmetricTensor<float>&,
                                                                        const Matrix<float>&, int);
extern template PackedSymmetricTensor<double> multiply_every_mode_packed(const PackedSymmetricTensor<double>&,
                                                                        const Matrix<double>&, int);
extern template double packed_reconstruction_error(const PackedSymmetricTensor<float>&,
                                                   const PackedSymmetricTensor<float>&, const Matrix<float>&, int);
extern template double packed_reconstruction_error(const PackedSymmetricTensor<double>&,
                                                   const PackedSymmetricTensor<double>&, const Matrix<double>&, int);

}  // namespace tensordiag::runtime
