#pragma once
// Independent checks of a result, computed in float64 (complex: complex128) whatever the tensor's
// dtype, and the convergence figures of a core. For complex tensors the squares are squared moduli,
// the orthogonality error is the unitarity error max_n ||U_n^H U_n - I||_F and the trace is the real
// part of sum_i C[i, .., i].
#include <vector>

#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

template <class T>
struct Result;

// The checks of a result against the tensor it came from, with the time they took.
struct Verification {
  double reconstruction_error = 0.0;  // ||T - C x_1 M_1 ... x_D M_D||_F / ||T||_F
  double orthogonality_error = 0.0;   // max_n ||M_n^T M_n - I||_F
  double seconds = 0.0;
};

// Both errors of `result` against `tensor`, the tensor that was diagonalized (after any dtype
// conversion).
template <class T>
Verification verify(const HostTensor<T>& tensor, const Result<T>& result);

// ||T - C x_1 M_1 ... x_D M_D||_F / ||T||_F, streamed, never a copy of the tensor: the
// reconstruction a part at a time, each compared with the same part of T and dropped, within
// `budget_doubles` doubles of extra memory (0: 32 MiB, or half the tensor's bytes when that is
// more). Blocks of slabs (a slab: the N^(D-1) entries with one index of the slowest mode fixed), a
// slab a thread, where two slabs a thread fit; else one row at a time (the entries with the
// indices of the k slowest modes fixed, k the fewest whose rows fit two), each product parallel
// inside. Plus the factors and chunks of the core cast to double.
inline constexpr std::size_t default_block_doubles = std::size_t{1} << 22;  // 32 MiB
template <class T>
double reconstruction_error(const HostTensor<T>& tensor, const HostTensor<T>& core,
                            const std::vector<Matrix<T>>& factors, std::size_t budget_doubles = 0);

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

#define TENSORDIAG_DECLARE(T)                                                                              \
  extern template Verification verify(const HostTensor<T>&, const Result<T>&);                               \
  extern template double reconstruction_error(const HostTensor<T>&, const HostTensor<T>&,                    \
                                              const std::vector<Matrix<T>>&, std::size_t);                  \
  extern template double orthogonality_error(const std::vector<Matrix<T>>&);                                 \
  extern template double diag_norm2(const HostTensor<T>&);                                                   \
  extern template double trace(const HostTensor<T>&);                                                        \
  extern template double off_norm2(const HostTensor<T>&);
TENSORDIAG_DECLARE(float)
TENSORDIAG_DECLARE(double)
TENSORDIAG_DECLARE(std::complex<float>)
TENSORDIAG_DECLARE(std::complex<double>)
#undef TENSORDIAG_DECLARE

}  // namespace tensordiag::runtime
