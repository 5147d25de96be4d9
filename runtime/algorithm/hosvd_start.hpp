#pragma once
// The HOSVD start (issue 11 item 4; De Lathauwer, De Moor, Vandewalle 2000; TensorLy's init="svd"):
// Q_n = the left singular vectors of the mode-n unfolding T_(n), i.e. the eigenvectors of its Gram
// matrix G_n = T_(n) T_(n)^T, by decreasing eigenvalue, each column signed so that its entry of
// largest magnitude is positive (the first such entry on ties; hosvd_basis.hpp). The sweeps run on
//   T' = T x_1 Q_1^T ... x_D Q_D^T,
// and a run's factors M'_n become M_n = Q_n M'_n, so that T = C x_1 M_1 ... x_D M_D still holds.
// Computed here on the host in double (Eigen's symmetric eigensolver) for every engine but the general
// GPU engine and the N = 2 one, which compute the same start on the device (engines/gpu_hosvd_start.hpp). Complex
// tensors (the complex engine): G_n = T_(n) T_(n)^H Hermitian, Q_n unitary, T' = T x_n Q_n^H.
#include <vector>

#include "runtime/core/structure.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

template <class T>
struct HosvdStart {
  std::vector<Matrix<T>> bases;  // Q_1 .. Q_D, N x N orthogonal, row-major
  HostTensor<T> rotated;         // T x_1 Q_1^T ... x_D Q_D^T, in T's layout
  double seconds = 0.0;
};

// Structure symmetric or skew: every G_n is G_1 (a permutation of the indices maps T_(1) to T_(n),
// up to the signs of whole entries for a skew T, which the Gram matrix squares away), so one Q,
// G_1's, serves every mode, and T' keeps T's structure (to rounding): the one factor starts from it.
template <class T>
HosvdStart<T> hosvd_start(const HostTensor<T>& tensor, int threads, Structure structure = Structure::general);

// factors[n] <- bases[n] * factors[n].
template <class T>
void compose_with_bases(std::vector<Matrix<T>>& factors, const std::vector<Matrix<T>>& bases);

extern template HosvdStart<float> hosvd_start(const HostTensor<float>&, int, Structure);
extern template HosvdStart<double> hosvd_start(const HostTensor<double>&, int, Structure);
extern template void compose_with_bases(std::vector<Matrix<float>>&, const std::vector<Matrix<float>>&);
extern template void compose_with_bases(std::vector<Matrix<double>>&, const std::vector<Matrix<double>>&);
extern template HosvdStart<std::complex<float>> hosvd_start(const HostTensor<std::complex<float>>&, int, Structure);
extern template HosvdStart<std::complex<double>> hosvd_start(const HostTensor<std::complex<double>>&, int, Structure);
extern template void compose_with_bases(std::vector<Matrix<std::complex<float>>>&,
                                        const std::vector<Matrix<std::complex<float>>>&);
extern template void compose_with_bases(std::vector<Matrix<std::complex<double>>>&,
                                        const std::vector<Matrix<std::complex<double>>>&);

}  // namespace tensordiag::runtime
