#pragma once
// The plain reconstruction the streamed verification is tested against: full float64 tensors, one
// mode product after another, straight loops.
#include <cmath>
#include <vector>

#include "runtime/core/tensor.hpp"

namespace tensordiag::testing {

// X x_n M: (X x_n M)[.., j, ..] = sum_i M[j, i] X[.., i, ..] (mode n 0-based). Mode n with
// stride B splits memory into [A][N][B] whatever the layout: out[a][j][b] = sum_i M[j, i] x[a][i][b].
template <class T, class U>
runtime::HostTensor<double> mode_product(const runtime::HostTensor<T>& x, int mode, const runtime::Matrix<U>& m) {
  runtime::HostTensor<double> out(x.order(), x.size(), x.layout());
  const std::size_t n = static_cast<std::size_t>(x.size());
  const std::size_t inner = static_cast<std::size_t>(x.strides()[static_cast<std::size_t>(mode)]);
  const std::size_t outer = x.count() / (n * inner);
  for (std::size_t a = 0; a < outer; ++a)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < n; ++i) {
        const double w = static_cast<double>(m(static_cast<int>(j), static_cast<int>(i)));
        for (std::size_t b = 0; b < inner; ++b)
          out.values()[(a * n + j) * inner + b] += w * static_cast<double>(x.values()[(a * n + i) * inner + b]);
      }
  return out;
}

// C x_1 M_1 ... x_D M_D.
template <class T, class U>
runtime::HostTensor<double> reconstruct(const runtime::HostTensor<T>& core, const std::vector<runtime::Matrix<U>>& factors) {
  runtime::HostTensor<double> t = mode_product(core, 0, factors[0]);
  for (int mode = 1; mode < core.order(); ++mode) t = mode_product(t, mode, factors[static_cast<std::size_t>(mode)]);
  return t;
}

// ||T - C x_1 M_1 ... x_D M_D||_F / ||T||_F through the full reconstruction.
template <class T>
double reference_reconstruction_error(const runtime::HostTensor<T>& tensor, const runtime::HostTensor<T>& core,
                                      const std::vector<runtime::Matrix<T>>& factors) {
  const runtime::HostTensor<double> t = reconstruct(core, factors);
  double diff2 = 0.0, norm2 = 0.0;
  for (std::size_t i = 0; i < t.count(); ++i) {
    const double x = static_cast<double>(tensor.values()[i]);
    diff2 += (t.values()[i] - x) * (t.values()[i] - x);
    norm2 += x * x;
  }
  return std::sqrt(diff2 / norm2);
}

}  // namespace tensordiag::testing
