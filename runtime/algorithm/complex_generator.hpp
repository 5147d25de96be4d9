#pragma once
// Seeded complex test tensors (issue 11, item 3): T = S x_1 U_1 ... x_D U_D with S diagonal
// (complex Gaussian entries) and U_n Haar-random unitary, plus optional complex Gaussian noise of
// relative Frobenius size options.noise. Structure general, or symmetric: one U in every mode and
// the noise symmetrized. The same seed gives the same
// tensor on every platform (generator.hpp's random stream).
#include <complex>
#include <vector>

#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

template <class R>
struct GeneratedComplexTensor {
  HostTensor<std::complex<R>> tensor;
  std::vector<std::complex<double>> diagonal;         // S[i, .., i]
  std::vector<Matrix<std::complex<double>>> factors;  // U_1 .. U_D
};

// A user_error for structure skew. Throws run_cancelled when options.cancelled
// says so.
template <class R>
GeneratedComplexTensor<R> generate_complex_diagonalizable(const GeneratorOptions& options);

// Haar-distributed unitary n x n: QR of a complex Gaussian matrix, R's diagonal made real positive.
Matrix<std::complex<double>> haar_unitary(int n, RandomStream& random);

extern template GeneratedComplexTensor<float> generate_complex_diagonalizable(const GeneratorOptions&);
extern template GeneratedComplexTensor<double> generate_complex_diagonalizable(const GeneratorOptions&);

}  // namespace tensordiag::runtime
