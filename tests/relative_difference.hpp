#pragma once
// ||x - y|| / ||y|| in double, over vectors of any dtype (complex ones by |.|^2): how the GPU tests
// compare results.
#include <cmath>
#include <complex>
#include <vector>

namespace tensordiag::testing {

template <class T>
double relative_difference(const std::vector<T>& x, const std::vector<T>& y) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::complex<double> xi(x[i]), yi(y[i]);
    diff += std::norm(xi - yi);
    norm += std::norm(yi);
  }
  return std::sqrt(diff / norm);
}

}  // namespace tensordiag::testing
