// The kernels' symmetric angle (dsl/symmetric_angle.hpp: f's Fourier coefficients in 4 phi, the
// closed form at D = 3, the real roots of a polynomial of degree 2 floor(D/2) on two charts from
// D = 4), compiled here as host code, against the host engine's companion-matrix maximizer
// (runtime/algorithm/symmetric_rotation.hpp) on the same t_0 .. t_D: the same objective value to
// 1e-12 relative, the same angle where the maximizer is unique, never below the identity.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "dsl/symmetric_angle.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/algorithm/symmetric_rotation.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;

namespace {

constexpr int max_order = 16;

// The kernels' angle (dsl::symmetric_angle<D>) for the run-time D = t.size() - 1, as the CPU
// engine calls it.
dsl::Givens<double> device_angle(const std::vector<double>& t) { return symmetric_angle(t); }

double angle_of(dsl::Givens<double> g) { return std::atan2(g.s, g.c); }

// The distance of two angles modulo pi/2, f's period.
double angle_distance(double x, double y) { return std::abs(std::remainder(x - y, std::numbers::pi / 2)); }

// Whether f's maximum over the circle is reached at one angle (mod pi/2) only: the best two local
// maxima of a grid of `points` angles over a period differ by more than `gap` relative.
bool unique_maximizer(const HomogeneousPolynomial& f, int points, double gap) {
  std::vector<double> values(static_cast<std::size_t>(points));
  const double step = std::numbers::pi / 2 / points;
  for (int i = 0; i < points; ++i) values[static_cast<std::size_t>(i)] = f(std::cos(step * i), std::sin(step * i));
  double best = -1.0, second = -1.0;
  for (int i = 0; i < points; ++i) {
    const double v = values[static_cast<std::size_t>(i)];
    const double left = values[static_cast<std::size_t>((i + points - 1) % points)];
    const double right = values[static_cast<std::size_t>((i + 1) % points)];
    if (v >= left && v > right) {
      if (v > best) second = best, best = v;
      else if (v > second) second = v;
    }
  }
  return second < best * (1 - gap);
}

std::vector<double> random_values(int order, RandomStream& random) {
  std::vector<double> t(static_cast<std::size_t>(order) + 1);
  for (double& x : t) x = random.gaussian();
  return t;
}

// The checks of one t: the objective value of the kernels' angle against the host's, the identity
// never beaten, the angle in (-pi/4, pi/4] and on the circle. Returns the two angles.
std::pair<double, double> check_against_host(const std::vector<double>& t) {
  const HomogeneousPolynomial f = symmetric_diag_objective(t);
  const SymmetricRotation host = best_symmetric_rotation(t);
  const dsl::Givens<double> g = device_angle(t);
  const double found = f(g.c, g.s), expected = f(host.rotation.c, host.rotation.s), before = f(1.0, 0.0);
  CAPTURE(t.size() - 1);
  CAPTURE(angle_of(g));
  CAPTURE(angle_of(host.rotation));
  CHECK(std::abs(found - expected) <= 1e-12 * expected);
  CHECK(found >= before * (1 - 1e-15));
  CHECK(g.c * g.c + g.s * g.s == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(g.c >= std::sqrt(0.5) - 1e-15);  // phi in [-pi/4, pi/4]
  // The twin rule's open end, except for D = 2, whose closed form (the host's too) gives -pi/4
  // where t_0 = t_2 and t_1 < 0.
  if (t.size() > 3) CHECK(angle_of(g) > -std::numbers::pi / 4);
  return {angle_of(g), angle_of(host.rotation)};
}

}  // namespace

TEST_CASE("symmetric angle: the root isolation finds the companion matrix's maximizer on random pivots, D = 2..16") {
  RandomStream random(81);
  int unique = 0;
  for (int order = 2; order <= max_order; ++order)
    for (int trial = 0; trial < 300; ++trial) {
      const auto t = random_values(order, random);
      const auto [found, expected] = check_against_host(t);
      if (unique_maximizer(symmetric_diag_objective(t), 4000, 1e-6)) {
        ++unique;
        CAPTURE(order);
        CAPTURE(trial);
        CHECK(angle_distance(found, expected) <= 1e-7);
      }
    }
  CHECK(unique > 4000);  // of 4500: most random pivots have one maximizer
}

TEST_CASE("symmetric angle: near-diagonal pivots (the last sweeps) give the host's small angle to relative precision") {
  RandomStream random(82);
  for (int order = 3; order <= max_order; ++order)
    for (const double off : {1e-4, 1e-9, 1e-14})
      for (int trial = 0; trial < 20; ++trial) {
        auto t = random_values(order, random);
        for (std::size_t k = 1; k + 1 < t.size(); ++k) t[k] *= off;
        const auto [found, expected] = check_against_host(t);
        CAPTURE(order);
        CAPTURE(off);
        // Near the identity f's maximizer is unique and simple. The host's Newton polish stops at
        // steps of 1e-17 absolute, hence the absolute term.
        CHECK(std::abs(found - expected) <= 1e-8 * std::abs(expected) + 1e-16);
      }
}

TEST_CASE("symmetric angle: degenerate and adversarial pivots never lose to the identity or to the host") {
  RandomStream random(83);
  for (int order = 2; order <= max_order; ++order) {
    const auto n = static_cast<std::size_t>(order) + 1;
    std::vector<std::vector<double>> cases;
    cases.push_back(std::vector<double>(n, 1.0));   // all equal
    cases.push_back(std::vector<double>(n, 0.0));   // zero: the identity
    std::vector<double> alternating(n), corner(n, 0.0), middle(n, 0.0), diagonal(n, 0.0), ends(n);
    for (std::size_t k = 0; k < n; ++k) alternating[k] = k % 2 ? -1.0 : 1.0;
    corner[0] = 1.0;
    middle[n / 2] = 1.0;
    diagonal[0] = 2.0;
    diagonal[n - 1] = -1.0;
    cases.insert(cases.end(), {alternating, corner, middle, diagonal});
    // t_0 = t_D (f symmetric about pi/4), with random middles; equal ends of opposite signs.
    for (int trial = 0; trial < 10; ++trial) {
      ends = random_values(order, random);
      ends.back() = trial % 2 ? ends.front() : -ends.front();
      cases.push_back(ends);
    }
    // Huge and tiny scales: the maximizer does not change with the scale.
    for (const double scale : {1e100, 1e-100, 1e150}) {
      auto t = random_values(order, random);
      const dsl::Givens<double> unit = device_angle(t);
      for (double& x : t) x *= scale;
      const dsl::Givens<double> scaled = device_angle(t);
      CAPTURE(scale);
      CHECK(angle_distance(angle_of(unit), angle_of(scaled)) <= 1e-12);
      if (scale < 1e150) cases.push_back(t);
    }
    for (const auto& t : cases) check_against_host(t);
    // A zero pivot stays where it is.
    CHECK(device_angle(std::vector<double>(n, 0.0)).s == 0.0);
  }
}

TEST_CASE("symmetric angle: D = 2 is the host's classical Jacobi rotation, bit for bit") {
  RandomStream random(84);
  for (int trial = 0; trial < 200; ++trial) {
    const auto t = random_values(2, random);
    const dsl::Givens<double> g = device_angle(t);
    const dsl::Givens<double> host = best_symmetric_rotation(t).rotation;
    CHECK(g.c == host.c);
    CHECK(g.s == host.s);
  }
}

TEST_CASE("symmetric angle: orders 17..31 (the Fourier tables' 64-bit range) reach the companion matrix's objective") {
  RandomStream random(85);
  for (int order = 17; order <= max_dsl_symmetric_order; ++order)
    for (int trial = 0; trial < 12; ++trial) check_against_host(random_values(order, random));
}
