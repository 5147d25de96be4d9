#pragma once
// Independent checks of a result, computed in float64 whatever the tensor's dtype.
#include <vector>

#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// X x_n M: (X x_n M)[.., j, ..] = sum_i M[j, i] X[.., i, ..] (mode n 0-based).
template <class T>
HostTensor<double> mode_product(const HostTensor<T>& x, int mode, const Matrix<double>& m);

// C x_1 M_1 ... x_D M_D.
template <class T, class U>
HostTensor<double> reconstruct(const HostTensor<T>& core, const std::vector<Matrix<U>>& factors);

// ||T - C x_1 M_1 ... x_D M_D||_F / ||T||_F.
template <class T>
double reconstruction_error(const HostTensor<T>& tensor, const HostTensor<T>& core,
                            const std::vector<Matrix<T>>& factors);

// max_n ||M_n^T M_n - I||_F.
template <class T>
double orthogonality_error(const std::vector<Matrix<T>>& factors);

// off(X)^2 = sum of squares of the entries off the diagonal, summed directly (never as
// ||X||^2 - ||diag X||^2, which cancels: DESIGN.md section 2).
template <class T>
double off_norm2(const HostTensor<T>& x);
template <class T>
double diag_norm2(const HostTensor<T>& x);
template <class T>
double trace(const HostTensor<T>& x);

}  // namespace tensordiag::runtime
