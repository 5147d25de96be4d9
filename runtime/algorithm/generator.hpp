#pragma once
// Seeded test tensors: T = S x_1 Q_1 ... x_D Q_D with S diagonal and Q_n Haar-random orthogonal,
// plus optional Gaussian noise of relative Frobenius size `noise`. With structure symmetric, one
// Q in every mode (T = sum_l S_l q_l x .. x q_l) and symmetric noise, order 2 allowed. With structure
// skew, T = S x_1 Q ... x_D Q with S in the block form (S[pi(B_k)] = sign(pi) S_k, B_k = (kD, ..,
// kD+D-1), k < N / D; skew_blocks.hpp) and antisymmetrized noise, order 2 allowed, N >= D.
#include <complex>
#include <cstdint>
#include <functional>
#include <vector>

#include "runtime/algorithm/cancellation.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

struct GeneratorOptions {
  int order = 3;
  int size = 8;
  std::uint64_t seed = 1;
  double noise = 0.0;  // ||T_noisy - T||_F = noise * ||T||_F
  Layout layout = Layout::c_order;
  Structure structure = Structure::general;
  // Asked before each of the N rank-one terms (N^D multiply-adds each) and before the noise.
  CancelCheck cancelled;
};

template <class T>
struct GeneratedTensor {
  HostTensor<T> tensor;
  std::vector<double> diagonal;          // S[i, .., i], i = 0..N-1 (skew: S[B_k], k = 0..N/D-1)
  std::vector<Matrix<double>> factors;   // Q_1 .. Q_D (symmetric: D copies of Q)
};

// The random stream is fixed by the seed (our own Gaussian sampler, not the library's), so the
// same seed gives the same tensor on every platform. Throws run_cancelled when options.cancelled
// says so.
template <class T>
GeneratedTensor<T> generate_diagonalizable(const GeneratorOptions& options);

// The same tensor (structure general) in chunks of the file, in order: the entries with the slowest
// memory modes' indices fixed (as few modes as keep a chunk within 2^20 entries), given to `sink`,
// so a tensor larger than memory can be written (`tensordiag generate`) with a few MB. The noise's
// scale needs ||T|| and ||G|| first: with noise every chunk is computed twice. The result holds the
// diagonal and the factors, not the tensor.
template <class T>
GeneratedTensor<T> generate_diagonalizable_rows(const GeneratorOptions& options,
                                               const std::function<void(const T* chunk, std::size_t length)>& sink);

// The checks every generator makes: the noise finite and >= 0, and no value overflowed the dtype (a
// huge noise, 1e300 or 1e40 in float32, gives Inf, which no run accepts): user_errors naming it.
void check_noise(double noise);

// g[i] <- g[i sorted] (sign = +1: the same value under every permutation of the indices), or
// sign(sort) g[i sorted] and 0 at a repeated index (sign = -1: skew-symmetric), over a whole tensor
// of `order` modes of `size` with `strides`. V: double or std::complex<double>.
template <class V>
void symmetrize_by_sorted_index(std::vector<V>& g, int order, int size, const std::vector<std::ptrdiff_t>& strides,
                                int sign = 1);
template <class T>
void check_generated_value(T value, double noise);

extern template void symmetrize_by_sorted_index(std::vector<double>&, int, int, const std::vector<std::ptrdiff_t>&,
                                                int);
extern template void symmetrize_by_sorted_index(std::vector<std::complex<double>>&, int, int,
                                                const std::vector<std::ptrdiff_t>&, int);
extern template void check_generated_value(float, double);
extern template void check_generated_value(double, double);
extern template GeneratedTensor<float> generate_diagonalizable_rows(const GeneratorOptions&,
                                                                    const std::function<void(const float*, std::size_t)>&);
extern template GeneratedTensor<double> generate_diagonalizable_rows(const GeneratorOptions&,
                                                                     const std::function<void(const double*, std::size_t)>&);
extern template GeneratedTensor<float> generate_diagonalizable(const GeneratorOptions&);
extern template GeneratedTensor<double> generate_diagonalizable(const GeneratorOptions&);

}  // namespace tensordiag::runtime
