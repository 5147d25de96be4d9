#pragma once
// Test helpers for the complex symmetric step (test_complex_symmetric.cpp,
// test_symmetric_unitary_search.cpp): random pivot values and a brute-force maximizer over the
// Bloch sphere that knows nothing of the closed form or the branch and bound.
#include <cmath>
#include <complex>
#include <random>
#include <utility>
#include <vector>

namespace tensordiag::testing {

// t_0 .. t_D complex Gaussian, the middle ones scaled by off_scale (a near-diagonal pivot when small).
inline std::vector<std::complex<double>> random_pivot_values(int order, std::mt19937_64& random, double off_scale = 1.0) {
  std::normal_distribution<double> gauss;
  std::vector<std::complex<double>> t;
  for (int k = 0; k <= order; ++k) {
    const double scale = k == 0 || k == order ? 1.0 : off_scale;
    t.push_back(scale * std::complex<double>(gauss(random), gauss(random)));
  }
  return t;
}

// The best of f_at(theta, phi) (the rotation (cos(theta / 2), e^(i phi) sin(theta / 2))) over a
// steps x 2 steps grid of the sphere, then refined by a shrinking compass search around it.
template <class Objective>
double brute_force_bloch_maximum(Objective f_at, int steps) {
  double best = -1.0, best_theta = 0.0, best_phi = 0.0;
  for (int i = 0; i <= steps; ++i)
    for (int j = 0; j < 2 * steps; ++j) {
      const double theta = M_PI * i / steps, phi = M_PI * j / steps;
      if (const double f = f_at(theta, phi); f > best) best = f, best_theta = theta, best_phi = phi;
    }
  for (double h = M_PI / steps; h > 1e-12; h *= 0.5)
    for (bool moved = true; moved;) {
      moved = false;
      for (const auto& [dt, dp] : {std::pair{h, 0.0}, {-h, 0.0}, {0.0, h}, {0.0, -h}})
        if (const double f = f_at(best_theta + dt, best_phi + dp); f > best) {
          best = f, best_theta += dt, best_phi += dp;
          moved = true;
        }
    }
  return best;
}

}  // namespace tensordiag::testing
