#pragma once
// ||x - y|| / ||y|| in double, over vectors of either dtype: how the GPU tests compare results.
#include <cmath>
#include <vector>

namespace tensordiag::testing {

template <class T>
double relative_difference(const std::vector<T>& x, const std::vector<T>& y) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = static_cast<double>(x[i]) - static_cast<double>(y[i]);
    diff += d * d;
    norm += static_cast<double>(y[i]) * static_cast<double>(y[i]);
  }
  return std::sqrt(diff / norm);
}

}  // namespace tensordiag::testing
