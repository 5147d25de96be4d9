#pragma once
// Random skew-symmetric matrices for the pivot check's tests, CPU (test_pivot_norm_bounds.cpp) and
// GPU (gpu/test_gpu_lambda_norm.cpp): the shapes of Lambda that make its bounds hard or easy.
#include <cmath>
#include <vector>

#include "runtime/algorithm/random_stream.hpp"

namespace tensordiag::testing {

// A random skew-symmetric N x N matrix. kind 0: entries of spread magnitudes (a few dominant ones,
// as the Lambda of a nearly converged core has); 1: Gaussian; 2: rank two plus small noise (a
// dominant singular pair, as power steps like); 3: block diagonal 2 x 2 blocks whose top two
// singular values differ by 1e-10 relative (power steps stall: the gram test must do the work).
inline std::vector<double> random_skew(int size, runtime::RandomStream& random, int kind) {
  std::vector<double> lambda(static_cast<std::size_t>(size * size), 0.0);
  std::vector<double> a(static_cast<std::size_t>(size)), b(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) {
    a[static_cast<std::size_t>(i)] = random.gaussian();
    b[static_cast<std::size_t>(i)] = random.gaussian();
  }
  for (int i = 0; i < size; ++i)
    for (int j = i + 1; j < size; ++j) {
      double x = random.gaussian();
      if (kind == 0) x *= std::pow(10.0, 3 * random.uniform() - 3);
      if (kind == 2) x = a[static_cast<std::size_t>(i)] * b[static_cast<std::size_t>(j)] -
                         b[static_cast<std::size_t>(i)] * a[static_cast<std::size_t>(j)] + 1e-3 * x;
      if (kind == 3) x = j == i + 1 && i % 2 == 0 ? (i == 0 ? 1.0 : i == 2 ? 1.0 - 1e-10 : 0.5 * random.uniform()) : 0.0;
      lambda[static_cast<std::size_t>(i * size + j)] = x;
      lambda[static_cast<std::size_t>(j * size + i)] = -x;
    }
  return lambda;
}

}  // namespace tensordiag::testing
