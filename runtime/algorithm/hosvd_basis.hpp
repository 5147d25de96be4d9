#pragma once
// The HOSVD start's Q_n from a symmetric eigensolver's answer for G_n = T_(n) T_(n)^T (Eigen's on the
// host, cuSOLVER syevd's on the device: both give the eigenvectors as the columns of a column-major
// N x N matrix by ascending eigenvalue). Q's column k is the eigenvector of the k-th largest
// eigenvalue, signed so that its entry of largest magnitude is positive (the first such entry on
// ties): one Q for a given G, whichever solver found it (up to the solver's rounding). Complex
// (a Hermitian G of a complex tensor): the entry of largest modulus is made real and positive.
#include <cmath>
#include <cstddef>

#include "runtime/core/scalar.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// @pre  ascending[i + j N] = entry i of the eigenvector of the j-th smallest eigenvalue
// @post Q(i, k) = +-ascending[i + (N-1-k) N], Q row-major, max_i |Q(i, k)| attained first at a positive entry
template <class T, class S>
Matrix<T> hosvd_basis(const S* ascending, int size) {
  const auto n = static_cast<std::size_t>(size);
  Matrix<T> q{size, std::vector<T>(n * n)};
  for (std::size_t k = 0; k < n; ++k) {
    const S* column = ascending + (n - 1 - k) * n;
    std::size_t largest = 0;
    for (std::size_t i = 1; i < n; ++i)
      if (std::abs(column[i]) > std::abs(column[largest])) largest = i;
    S sign = S(1);  // the unit factor that makes column[largest] real and >= 0
    if constexpr (is_complex_v<S>) {
      if (std::abs(column[largest]) > 0) sign = std::conj(column[largest]) / std::abs(column[largest]);
    } else if (column[largest] < 0) {
      sign = S(-1);
    }
    for (std::size_t i = 0; i < n; ++i) q.data[i * n + k] = T(sign * column[i]);
    if constexpr (is_complex_v<S>) q.data[largest * n + k] = T(std::abs(column[largest]));  // exactly real
  }
  return q;
}

}  // namespace tensordiag::runtime
