#pragma once
// The HOSVD start on the device (issue 11 item 4), the general GPU engine's: the definition of
// algorithm/hosvd_start.hpp (Q_n = the eigenvectors of G_n = T_(n) T_(n)^T by decreasing eigenvalue,
// signed by hosvd_basis.hpp; the tensor becomes T x_1 Q_1^T ... x_D Q_D^T), computed where the tensor
// lies: G_n by cuBLAS gemms on the tensor's mode-n matrices, its eigenvectors by cuSOLVER syevd,
// ordered and signed on the host (N x N), then the mode product by one more gemm. All in the
// tensor's dtype: for float32 the Gram sums and eigenvectors are float32, where the host's start
// works in double. A complex tensor (complex64, complex128) the same way with the Hermitian
// G_n = T_(n) T_(n)^H (cuBLAS's conjugate transposes, cuSOLVER heevd), Q_n unitary and the tensor
// becoming T x_1 Q_1^H ... x_D Q_D^H, as the host's complex start.
#include <cuda_runtime_api.h>

#include <complex>
#include <cstddef>
#include <vector>

#include "runtime/core/structure.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

template <class T>
struct GpuHosvdStart {
  std::vector<Matrix<T>> bases;  // Q_1 .. Q_D, N x N orthogonal, row-major
  double seconds = 0.0;
};

// Whether a GPU engine that starts from the HOSVD itself should take the host's start
// (algorithm/hosvd_start.hpp) for a tensor of `tensor_bytes`: at most TENSORDIAG_HOST_HOSVD_BYTES,
// by default 4 MiB. The device start's fixed cost, cuBLAS and cuSOLVER loaded and their handles
// made, was 0.13-0.28 s a process on the H100 machine, where the host's whole start on its 16 cores
// took 4-15 ms up to 2^20 float32 entries and 7-9 ms at 2^16 complex64 ones (36-41 ms at 2^20);
// the two met near 2^21 complex64 and 2^24 float32 entries
// (bench/results/host_hosvd_start_h100_2026-11-28.md).
bool host_hosvd_start_pays(std::size_t tensor_bytes);

// The device bytes the start holds besides the tensor: a second tensor (the mode products are out of
// place) and the Gram matrices' workspace.
double gpu_hosvd_start_bytes(int order, int size, std::size_t scalar_bytes);

// Rotates the N^D tensor at `tensor` (device memory of the current device; `strides` of its modes,
// in entries) in place to T x_1 Q_1^T ... x_D Q_D^T, enqueued on `stream`, and returns the Q_n (the
// stream synchronized). Structure symmetric: Q_1 for every mode, as the host start
// (algorithm/hosvd_start.hpp), so that T' stays symmetric. Throws user_error for N^D >= 2^31 (cuBLAS's int sizes), cuda_error when a
// CUDA, cuBLAS or cuSOLVER call fails.
template <class T>
GpuHosvdStart<T> gpu_hosvd_start(T* tensor, int order, int size, const std::vector<std::ptrdiff_t>& strides,
                                 Structure structure, cudaStream_t stream);

extern template GpuHosvdStart<float> gpu_hosvd_start(float*, int, int, const std::vector<std::ptrdiff_t>&, Structure,
                                                     cudaStream_t);
extern template GpuHosvdStart<double> gpu_hosvd_start(double*, int, int, const std::vector<std::ptrdiff_t>&, Structure,
                                                      cudaStream_t);
extern template GpuHosvdStart<std::complex<float>> gpu_hosvd_start(std::complex<float>*, int, int,
                                                                   const std::vector<std::ptrdiff_t>&, Structure,
                                                                   cudaStream_t);
extern template GpuHosvdStart<std::complex<double>> gpu_hosvd_start(std::complex<double>*, int, int,
                                                                    const std::vector<std::ptrdiff_t>&, Structure,
                                                                    cudaStream_t);

}  // namespace tensordiag::runtime
