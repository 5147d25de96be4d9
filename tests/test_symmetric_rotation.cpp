// The symmetric Jacobi step's angle (runtime/algorithm/symmetric_rotation.hpp): its objective
// polynomial against the rotated pivot subtensor and against the DSL's expansion of the same
// objective, and its maximizer against a dense grid.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <utility>

#include "dsl/evaluate.hpp"
#include "dsl/polynomial.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/algorithm/symmetric_rotation.hpp"
#include "runtime/engines/pivot_subtensor.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;

namespace {

std::vector<double> random_values(int order, RandomStream& random) {
  std::vector<double> t(static_cast<std::size_t>(order) + 1);
  for (double& x : t) x = random.gaussian();
  return t;
}

// The symmetric pivot subtensor of t_0 .. t_D: entry `bits` is t_popcount(bits).
std::vector<double> subtensor_of(const std::vector<double>& t) {
  const int order = static_cast<int>(t.size()) - 1;
  std::vector<double> sub(std::size_t{1} << order);
  for (std::size_t bits = 0; bits < sub.size(); ++bits) sub[bits] = t[static_cast<std::size_t>(std::popcount(bits))];
  return sub;
}

double objective_at(const HomogeneousPolynomial& f, double phi) { return f(std::cos(phi), std::sin(phi)); }

// Brute force: the best of a grid of `points` angles over [0, pi/2) (f has period pi/2), then of
// a grid as fine again around the best point: max f to about (pi / 2 / points^2)^2 f''.
double grid_maximum(const HomogeneousPolynomial& f, int points) {
  const double step = std::numbers::pi / 2 / points;
  double best_phi = 0.0, best = objective_at(f, 0.0);
  for (int i = 1; i < points; ++i)
    if (const double value = objective_at(f, step * i); value > best) best = value, best_phi = step * i;
  const double fine = 2 * step / points;
  for (int i = -points / 2; i <= points / 2; ++i) best = std::max(best, objective_at(f, best_phi + fine * i));
  return best;
}

}  // namespace

TEST_CASE("symmetric rotation: C'_pp and C'_qq are the corners of the subtensor rotated in every mode") {
  RandomStream random(71);
  for (int order = 2; order <= 7; ++order)
    for (int trial = 0; trial < 20; ++trial) {
      const auto t = random_values(order, random);
      const double phi = (random.uniform() - 0.5) * 2 * std::numbers::pi;
      const dsl::Givens<double> g{std::cos(phi), std::sin(phi)};
      auto sub = subtensor_of(t);
      for (int mode = 0; mode < order; ++mode) rotate_pivot_subtensor(sub, mode, g);
      CAPTURE(order);
      CHECK(rotated_diagonal_p(t)(g.c, g.s) == doctest::Approx(sub.front()).epsilon(1e-13));
      CHECK(rotated_diagonal_q(t)(g.c, g.s) == doctest::Approx(sub.back()).epsilon(1e-13));
      CHECK(objective_at(symmetric_diag_objective(t), phi) ==
            doctest::Approx(sub.front() * sub.front() + sub.back() * sub.back()).epsilon(1e-13));
    }
}

// For D = 3 the four values t_0..t_3 fit the DSL's four pivot symbols (a, b, e, d): the DSL expands
// the same objective at compile time and its coefficients agree with the runtime's. (For D > 3 the
// DSL has too few symbols, which is why the runtime derives the polynomial itself.)
TEST_CASE("symmetric rotation: the objective's coefficients agree with the DSL's expansion for D = 3") {
  using namespace dsl::pivot;
  constexpr auto cpp = a * c * c * c + 3 * b * c * c * s + 3 * e * c * s * s + d * s * s * s;
  constexpr auto cqq = d * c * c * c - 3 * e * c * c * s + 3 * b * c * s * s - a * s * s * s;
  constexpr auto expanded = dsl::expand(sq(cpp) + sq(cqq));
  RandomStream random(72);
  for (int trial = 0; trial < 10; ++trial) {
    const auto t = random_values(3, random);
    const dsl::PivotValues<double> v{t[0], t[1], t[3], t[2]};
    const HomogeneousPolynomial f = symmetric_diag_objective(t);
    [&]<int... J>(std::integer_sequence<int, J...>) {
      const double from_dsl[] = {dsl::evaluate(dsl::coefficient(expanded, dsl::monomial<6 - J, J>), v)...};
      for (std::size_t j = 0; j < 7; ++j) CHECK(from_dsl[j] == doctest::Approx(f.coef[j]).epsilon(1e-13));
    }(std::make_integer_sequence<int, 7>{});
  }
}

TEST_CASE("symmetric rotation: the stationary-point maximizer beats a dense grid, and never loses to the identity") {
  RandomStream random(73);
  constexpr int grid = 4000;
  for (int order = 2; order <= 8; ++order)
    for (int trial = 0; trial < 25; ++trial) {
      auto t = random_values(order, random);
      // Near-diagonal subtensors too: the regime of the last sweeps.
      if (trial % 5 == 4)
        for (std::size_t k = 1; k + 1 < t.size(); ++k) t[k] *= 1e-7;
      // And degenerate ones, whose stationary points are multiple or whose f is flat: all equal,
      // alternating, one corner, the middle alone, a diagonal pivot.
      if (trial < 5)
        for (std::size_t k = 0; k < t.size(); ++k) {
          const bool middle = k == t.size() / 2;
          const double values[] = {1.0, k % 2 ? -1.0 : 1.0, k == 0 ? 1.0 : 0.0, middle ? 1.0 : 0.0,
                                   k == 0 || k + 1 == t.size() ? 1.0 : 0.0};
          t[k] = values[trial];
        }
      const HomogeneousPolynomial f = symmetric_diag_objective(t);
      const SymmetricRotation best = best_symmetric_rotation(t);
      const double grid_best = grid_maximum(f, grid);
      const double found = f(best.rotation.c, best.rotation.s);
      CAPTURE(order);
      CAPTURE(trial);
      CHECK(found >= grid_best * (1 - 1e-12));
      CHECK(found >= best.objective_before);
      CHECK(best.objective_after == doctest::Approx(found).epsilon(1e-12));
      CHECK(best.rotation.c * best.rotation.c + best.rotation.s * best.rotation.s == doctest::Approx(1.0).epsilon(1e-15));
      // The twin in (-pi/4, pi/4]: c >= cos(pi/4).
      CHECK(best.rotation.c >= std::sqrt(0.5) - 1e-15);
    }
}

TEST_CASE("symmetric rotation: for D = 2 it is the classical Jacobi rotation, which zeroes the off-diagonal entry") {
  RandomStream random(74);
  for (int trial = 0; trial < 50; ++trial) {
    const auto t = random_values(2, random);  // [[t0, t1], [t1, t2]]
    const auto g = best_symmetric_rotation(t).rotation;
    auto sub = subtensor_of(t);
    for (int mode = 0; mode < 2; ++mode) rotate_pivot_subtensor(sub, mode, g);
    CHECK(std::abs(sub[1]) <= 1e-14 * (std::abs(t[0]) + std::abs(t[1]) + std::abs(t[2])));
  }
  // A diagonal pivot stays: the identity.
  const std::vector<double> diagonal{2.0, 0.0, -1.0};
  CHECK(best_symmetric_rotation(diagonal).rotation.s == 0.0);
  // Equal diagonal entries: the rotation by pi/4.
  const std::vector<double> equal{1.0, 0.5, 1.0};
  CHECK(std::abs(best_symmetric_rotation(equal).rotation.s) == doctest::Approx(std::sqrt(0.5)).epsilon(1e-15));
}
