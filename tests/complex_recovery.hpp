#pragma once
// Planted complex tensors T = S x_1 Q_1 .. x_D Q_D (issue 11, item 3; structure symmetric: one Q)
// and what a run on one must give back: every C[i, .., i] real and >= 0 and, sorted, the |S_i| to
// `relative`; and each U's columns those of the planted Q's up to phase and order (|U^H Q| a
// permutation matrix, to 1e-10).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "planted_symmetric.hpp"
#include "runtime/algorithm/complex_generator.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::testing {

template <class R>
runtime::GeneratedComplexTensor<R> planted_complex(int order, int size, std::uint64_t seed,
                                                   runtime::Layout layout = runtime::Layout::c_order,
                                                   double noise = 0.0,
                                                   runtime::Structure structure = runtime::Structure::general) {
  return runtime::generate_complex_diagonalizable<R>(planted_options(order, size, seed, noise, structure, layout));
}

template <class R>
void check_diagonal_is_moduli(const runtime::HostTensor<std::complex<R>>& core,
                              const std::vector<std::complex<double>>& planted, double relative) {
  std::vector<double> found, expected;
  for (int i = 0; i < core.size(); ++i) {
    const std::complex<R> c = core.data()[i * core.diagonal_stride()];
    CHECK(c.imag() == R(0));
    CHECK(c.real() >= R(0));
    found.push_back(static_cast<double>(c.real()));
    expected.push_back(std::abs(planted[static_cast<std::size_t>(i)]));
  }
  std::sort(found.begin(), found.end());
  std::sort(expected.begin(), expected.end());
  for (std::size_t i = 0; i < found.size(); ++i) CHECK(found[i] == doctest::Approx(expected[i]).epsilon(relative));
}

inline void check_columns_up_to_phase(const runtime::Matrix<std::complex<double>>& u,
                                      const runtime::Matrix<std::complex<double>>& q) {
  for (int i = 0; i < u.n; ++i) {
    double largest = 0.0;
    for (int j = 0; j < q.n; ++j) {
      std::complex<double> dot = 0;
      for (int row = 0; row < u.n; ++row) dot += std::conj(u(row, i)) * q(row, j);
      largest = std::max(largest, std::abs(dot));
    }
    CHECK(largest == doctest::Approx(1.0).epsilon(1e-10));
  }
}

}  // namespace tensordiag::testing
