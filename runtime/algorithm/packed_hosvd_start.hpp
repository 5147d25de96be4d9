#pragma once
// The HOSVD start (hosvd_start.hpp) of a symmetric tensor in packed storage: Q = the eigenvectors of
// G_1 = T_(1) T_(1)^T by decreasing eigenvalue (hosvd_basis.hpp's signs), every G_n being G_1 for a
// symmetric T, and the sweeps then run on T' = T x_1 Q^T ... x_D Q^T, packed too. G_1 from the
// distinct entries alone: G[i][j] = sum_J m(J) T[J + i] T[J + j] over the sorted J of length D - 1,
// m(J) the multiplicity of J (how many of T_(1)'s columns it stands for); N^2 multiply-adds a J.
// T' by packed_transform.hpp's mode products (their memory, as the verification's).
#include "runtime/core/packed_symmetric.hpp"

namespace tensordiag::runtime {

template <class T>
struct PackedHosvdStart {
  Matrix<T> basis;                  // Q, N x N orthogonal, row-major
  PackedSymmetricTensor<T> rotated;  // T x_1 Q^T ... x_D Q^T
  double seconds = 0.0;
};

template <class T>
PackedHosvdStart<T> packed_hosvd_start(const PackedSymmetricTensor<T>& tensor, int threads);

// G_1 of the full tensor, N x N row-major, in double.
template <class T>
std::vector<double> packed_gram(const PackedSymmetricTensor<T>& tensor, int threads);

extern template PackedHosvdStart<float> packed_hosvd_start(const PackedSymmetricTensor<float>&, int);
extern template PackedHosvdStart<double> packed_hosvd_start(const PackedSymmetricTensor<double>&, int);
extern template std::vector<double> packed_gram(const PackedSymmetricTensor<float>&, int);
extern template std::vector<double> packed_gram(const PackedSymmetricTensor<double>&, int);

}  // namespace tensordiag::runtime
