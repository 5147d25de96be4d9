#pragma once
// Planted symmetric tensors S x_1 Q ... x_D Q (structure symmetric, DESIGN.md section 7) and the
// check that a run recovered them: the CPU and GPU symmetric engines' tests share these, and the
// skew engine's the planting.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::testing {

using runtime::GeneratedTensor;
using runtime::HostTensor;
using runtime::Matrix;

// The generator's options for a planted tensor: symmetric by default; structure skew plants the
// block form instead (generator.hpp). generate_packed_symmetric takes the symmetric ones too.
inline runtime::GeneratorOptions planted_options(int order, int size, std::uint64_t seed, double noise = 0.0,
                                                 runtime::Structure structure = runtime::Structure::symmetric,
                                                 runtime::Layout layout = runtime::Layout::c_order) {
  runtime::GeneratorOptions g;
  g.order = order;
  g.size = size;
  g.seed = seed;
  g.noise = noise;
  g.structure = structure;
  g.layout = layout;
  return g;
}

template <class T>
inline GeneratedTensor<T> planted(int order, int size, std::uint64_t seed, double noise = 0.0,
                                  runtime::Structure structure = runtime::Structure::symmetric,
                                  runtime::Layout layout = runtime::Layout::c_order) {
  return runtime::generate_diagonalizable<T>(planted_options(order, size, seed, noise, structure, layout));
}

template <class T>
inline std::vector<double> diagonal_of(const HostTensor<T>& t) {
  std::vector<double> d;
  for (int i = 0; i < t.size(); ++i) d.push_back(static_cast<double>(t.values()[static_cast<std::size_t>(i * t.diagonal_stride())]));
  return d;
}

template <class T>
inline double max_abs(const HostTensor<T>& t) {
  double m = 0;
  for (T x : t.values()) m = std::max(m, std::abs(static_cast<double>(x)));
  return m;
}

// The diagonal entries and Q against the planted S and Q: a permutation pi and signs sigma with
// Q[:, i] = sigma_i Q_true[:, pi(i)], C[i..i] = sigma_i^D S[pi(i)].
inline void check_recovered(const GeneratedTensor<double>& truth, const runtime::Result<double>& result,
                            double tolerance) {
  const int size = result.core.size();
  const int order = result.core.order();
  const auto found = diagonal_of(result.core);
  const double scale = *std::max_element(truth.diagonal.begin(), truth.diagonal.end(),
                                         [](double x, double y) { return std::abs(x) < std::abs(y); });
  const Matrix<double>& q = result.factors.front();
  const Matrix<double>& q_true = truth.factors.front();
  for (int i = 0; i < size; ++i) {
    // The planted column Q_true[:, l] that column i of Q matches: |<q_i, q_true_l>| = 1.
    int match = 0;
    double best = -1, dot_best = 0;
    for (int l = 0; l < size; ++l) {
      double dot = 0;
      for (int r = 0; r < size; ++r) dot += q(r, i) * q_true(r, l);
      if (std::abs(dot) > best) best = std::abs(dot), match = l, dot_best = dot;
    }
    CAPTURE(i);
    CHECK(best == doctest::Approx(1.0).epsilon(tolerance));
    const double sign = std::pow(dot_best > 0 ? 1.0 : -1.0, order);
    CHECK(std::abs(found[static_cast<std::size_t>(i)] - sign * truth.diagonal[static_cast<std::size_t>(match)]) <=
          tolerance * std::abs(scale));
  }
}

}  // namespace tensordiag::testing
