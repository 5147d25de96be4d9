#pragma once
// The pivot check for complex tensors with unitary factors (issue 11, item 3; docs/DESIGN.md
// section 7). The real check's Lambda (pivot_check.hpp) is the gradient of ||diag C||^2 over the
// rotations of one mode; for U_n <- U_n exp(X), X skew-Hermitian, C <- C x_n exp(-X):
//   d ||diag C||^2 = -2 Re sum_{p<q} X_pq (K_pq - conj(K_qp)),   K[j, l] = conj(C_{j..j}) C_{j->l,n},
// so the gradient in the plane (p, q) has the size |Lambda_pq| of the skew-Hermitian
//   Lambda = G - G^H,   G[j, l] = conj(C_{l..l}) C_{l->j,n}
// (the real Lambda for real C). Pair (p, q) is rotated iff 2 |Lambda_pq| >= eta ||Lambda||_2, as
// for real tensors; ||Lambda||_2 is the largest |eigenvalue| (Lambda is normal).
#include <complex>
#include <vector>

#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// Lambda (row-major N x N) of `core` in `mode`.
template <class R>
std::vector<std::complex<double>> complex_pivot_lambda(const HostTensor<std::complex<R>>& core, int mode);

// ||Lambda||_2 of a skew-Hermitian N x N matrix (row-major).
double skew_hermitian_norm(const std::vector<std::complex<double>>& lambda, int size);

extern template std::vector<std::complex<double>> complex_pivot_lambda(const HostTensor<std::complex<float>>&, int);
extern template std::vector<std::complex<double>> complex_pivot_lambda(const HostTensor<std::complex<double>>&, int);

}  // namespace tensordiag::runtime
