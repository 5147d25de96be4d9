#pragma once
// Seeded Gaussian tensors for tests: non-diagonalizable with probability one. A complex entry has
// two Gaussian parts.
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::testing {

template <class T>
runtime::HostTensor<T> random_tensor(int order, int size, std::uint64_t seed,
                                     runtime::Layout layout = runtime::Layout::c_order) {
  runtime::HostTensor<T> t(order, size, layout);
  runtime::RandomStream random(seed);
  using R = runtime::real_t<T>;
  for (auto& x : t.values()) {
    if constexpr (runtime::is_complex_v<T>) {
      const double re = random.gaussian();
      x = T(static_cast<R>(re), static_cast<R>(random.gaussian()));
    } else {
      x = static_cast<T>(random.gaussian());
    }
  }
  return t;
}

// The same logical tensor in the other layout.
template <class T>
runtime::HostTensor<T> relayout(const runtime::HostTensor<T>& t, runtime::Layout layout) {
  runtime::HostTensor<T> out(t.order(), t.size(), layout);
  std::vector<int> index(static_cast<std::size_t>(t.order()), 0);
  for (std::size_t i = 0; i < t.count(); ++i) {
    out.at(index) = t.at(index);
    for (int n = t.order() - 1; n >= 0; --n) {
      if (++index[static_cast<std::size_t>(n)] < t.size()) break;
      index[static_cast<std::size_t>(n)] = 0;
    }
  }
  return out;
}

template <class T>
double max_abs_difference(const std::vector<T>& x, const std::vector<T>& y) {
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    worst = std::max(worst, std::abs(static_cast<double>(x[i]) - static_cast<double>(y[i])));
  return worst;
}

}  // namespace tensordiag::testing
