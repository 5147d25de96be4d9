#pragma once
// Seeded random inputs of one pivot group's pass, for the kernels tested alone against the CPU's
// fused pass (test_gpu_group_pass.cpp, test_gpu_chunk_pass.cpp): a group of the round robin, its
// rotations (a fifth of them the identity, as the pivot check leaves a rejected pair), Gaussian
// factors, and the flat arrays the kernels take. Real and complex scalars alike.
#include <cmath>
#include <complex>
#include <vector>

#include "dsl/givens.hpp"
#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/core/tensor.hpp"
#include "runtime/core/scalar.hpp"

namespace tensordiag::testing {

// A Gaussian entry: a complex one with both parts drawn.
template <class T>
T gaussian_scalar(runtime::RandomStream& random) {
  if constexpr (runtime::is_complex_v<T>) {
    using R = runtime::real_t<T>;
    const double re = random.gaussian();
    return T(static_cast<R>(re), static_cast<R>(random.gaussian()));
  } else {
    return static_cast<T>(random.gaussian());
  }
}

// A random plane rotation: (cos phi, sin phi), or for a complex T (cos phi, sin phi e^(i psi)).
template <class T>
runtime::PlaneRotation<T> random_rotation(runtime::RandomStream& random) {
  const double phi = 6.283185307179586 * random.uniform();
  if constexpr (runtime::is_complex_v<T>) {
    using R = runtime::real_t<T>;
    const double psi = 6.283185307179586 * random.uniform();
    return {static_cast<R>(std::cos(phi)),
            std::complex<R>(static_cast<R>(std::sin(phi) * std::cos(psi)), static_cast<R>(std::sin(phi) * std::sin(psi)))};
  } else {
    return {static_cast<T>(std::cos(phi)), static_cast<T>(std::sin(phi))};
  }
}

// Group seed % (N - 1 or N) of the round robin, every mode's rotations random or the identity.
template <class T>
runtime::GroupRotations<T> random_group(int order, int size, unsigned seed, runtime::RandomStream& random) {
  const auto schedule = runtime::round_robin_schedule(size);
  runtime::GroupRotations<T> group(order, schedule[seed % schedule.size()]);
  for (auto& g : group.rotations)
    if (random.uniform() >= 0.2) g = random_rotation<T>(random);
  return group;
}

template <class T>
std::vector<runtime::Matrix<T>> random_factors(int order, int size, runtime::RandomStream& random) {
  std::vector<runtime::Matrix<T>> factors;
  for (int n = 0; n < order; ++n) {
    runtime::Matrix<T> m{size, std::vector<T>(static_cast<std::size_t>(size) * size)};
    for (auto& x : m.data) x = gaussian_scalar<T>(random);
    factors.push_back(m);
  }
  return factors;
}

// The factors one after the other (group_factors' and group_pass's `factors`).
template <class T>
std::vector<T> flat_factors(const std::vector<runtime::Matrix<T>>& factors) {
  std::vector<T> flat;
  for (const auto& m : factors) flat.insert(flat.end(), m.data.begin(), m.data.end());
  return flat;
}

// The kernels' `pairs`: p, q of each pair.
inline std::vector<int> flat_pairs(const runtime::PivotGroup& group) {
  std::vector<int> flat;
  for (const auto [p, q] : group) flat.insert(flat.end(), {p, q});
  return flat;
}

// The kernels' `rotations` (the prelude's Rotation: c, of which a complex kernel takes the real
// part, and s).
template <class T>
std::vector<dsl::Givens<T>> kernel_rotations(const runtime::GroupRotations<T>& group) {
  std::vector<dsl::Givens<T>> out;
  for (const auto& g : group.rotations) {
    if constexpr (runtime::is_complex_v<T>) out.push_back({T(g.al), g.be});
    else out.push_back(g);
  }
  return out;
}

}  // namespace tensordiag::testing
