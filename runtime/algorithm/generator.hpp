#pragma once
// Seeded test tensors: T = S x_1 Q_1 ... x_D Q_D with S diagonal and Q_n Haar-random orthogonal,
// plus optional Gaussian noise of relative Frobenius size `noise`. With structure symmetric, one
// Q in every mode (T = sum_l S_l q_l x .. x q_l) and symmetric noise, order 2 allowed.
#include <cstdint>
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
  std::vector<double> diagonal;          // S[i, .., i], i = 0..N-1
  std::vector<Matrix<double>> factors;   // Q_1 .. Q_D (symmetric: D copies of Q)
};

// The random stream is fixed by the seed (our own Gaussian sampler, not the library's), so the
// same seed gives the same tensor on every platform. Throws run_cancelled when options.cancelled
// says so.
template <class T>
GeneratedTensor<T> generate_diagonalizable(const GeneratorOptions& options);

extern template GeneratedTensor<float> generate_diagonalizable(const GeneratorOptions&);
extern template GeneratedTensor<double> generate_diagonalizable(const GeneratorOptions&);

}  // namespace tensordiag::runtime
