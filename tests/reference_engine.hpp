#pragma once
// A plain, unfused implementation of DESIGN.md section 2 kept only for tests: mode by mode, each
// rotation applied to the whole tensor, the pivot entries read from the whole tensor, Lambda
// computed from the whole current core. The engine's fused group step must agree with it.
#include <vector>

#include "dsl/evaluate.hpp"
#include "dsl/rule.hpp"
#include "runtime/algorithm/pivot_check.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::testing {

using runtime::HostTensor;
using runtime::Matrix;

// The multi-index of flat offset `offset`.
template <class T>
std::vector<int> index_of(const HostTensor<T>& t, std::size_t offset) {
  std::vector<int> index(static_cast<std::size_t>(t.order()));
  for (int n = 0; n < t.order(); ++n)
    index[static_cast<std::size_t>(n)] =
        static_cast<int>((offset / static_cast<std::size_t>(t.strides()[static_cast<std::size_t>(n)])) % static_cast<std::size_t>(t.size()));
  return index;
}

// Entry with index i in every mode except `mode`, where it is j.
template <class T>
T& entry(HostTensor<T>& t, int i, int mode, int j) {
  std::vector<int> index(static_cast<std::size_t>(t.order()), i);
  index[static_cast<std::size_t>(mode)] = j;
  return t.at(index);
}

// A <- A x_n R^T for one pair: A[.. p@n ..] <- c A_p + s A_q, A[.. q@n ..] <- -s A_p + c A_q.
template <class T>
void rotate_mode(HostTensor<T>& t, int mode, runtime::PivotPair pair, dsl::Givens<T> g) {
  const std::ptrdiff_t stride = t.strides()[static_cast<std::size_t>(mode)];
  for (std::size_t offset = 0; offset < t.count(); ++offset) {
    if (index_of(t, offset)[static_cast<std::size_t>(mode)] != pair.p) continue;
    T& x = t.values()[offset];
    T& y = t.values()[offset + static_cast<std::size_t>((pair.q - pair.p) * stride)];
    const T xp = x, yq = y;
    x = g.c * xp + g.s * yq;
    y = -g.s * xp + g.c * yq;
  }
}

template <class T>
void rotate_columns(Matrix<T>& m, runtime::PivotPair pair, dsl::Givens<T> g) {
  for (int row = 0; row < m.n; ++row) {
    const T x = m(row, pair.p), y = m(row, pair.q);
    m(row, pair.p) = g.c * x + g.s * y;
    m(row, pair.q) = -g.s * x + g.c * y;
  }
}

// One sweep of the plain algorithm; returns how many (mode, pair) rotations the check rejected.
template <class T, class Rule>
int reference_sweep(HostTensor<T>& core, std::vector<Matrix<T>>& factors, const Rule& rule, double eta) {
  int rejected = 0;
  for (const auto& group : runtime::round_robin_schedule(core.size())) {
    for (int mode = 0; mode < core.order(); ++mode) {
      std::vector<double> lambda;
      double norm = 0;
      if (eta > 0) {
        lambda = runtime::pivot_lambda(core.data(), core.strides(), core.size(), mode);
        norm = runtime::skew_spectral_norm(lambda, core.size());
      }
      std::vector<dsl::Givens<T>> rotations;
      for (const auto pair : group) {
        if (eta > 0 && !runtime::passes_pivot_check(lambda, core.size(), norm, pair, eta)) {
          rotations.push_back({T(1), T(0)});
          ++rejected;
          continue;
        }
        const dsl::PivotValues<T> v{entry(core, pair.p, mode, pair.p), entry(core, pair.p, mode, pair.q),
                                    entry(core, pair.q, mode, pair.q), entry(core, pair.q, mode, pair.p)};
        rotations.push_back(dsl::rotation(rule, v));
      }
      for (std::size_t k = 0; k < group.size(); ++k) {
        rotate_mode(core, mode, group[k], rotations[k]);
        rotate_columns(factors[static_cast<std::size_t>(mode)], group[k], rotations[k]);
      }
    }
  }
  return rejected;
}

}  // namespace tensordiag::testing
