#include "runtime/algorithm/symmetric_rotation.hpp"

#include <cmath>
#include <numbers>
#include <type_traits>
#include <utility>

#include "dsl/symmetric_angle.hpp"

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

double binomial(int n, int k) {
  double b = 1.0;
  for (int i = 1; i <= k; ++i) b = b * (n - k + i) / i;
  return b;
}

// (c^2 + s^2)^D: 1 on the circle, so f - f(0) (c^2 + s^2)^D is the gain over the identity as a
// homogeneous polynomial whose c^(2D) coefficient is exactly 0. Evaluated near phi = 0 it gives the
// gain to full relative precision, where f(phi) - f(0) would cancel to rounding: near convergence
// the best angle is ~1e-9, its gain ~1e-18 f(0).
HomogeneousPolynomial unit_circle_power(int order) {
  HomogeneousPolynomial p = HomogeneousPolynomial::zero(2 * order);
  for (int k = 0; k <= order; ++k) p.coef[static_cast<std::size_t>(2 * k)] = binomial(order, k);
  return p;
}

// Newton steps on df/dphi from a root the companion matrix gave: its eigenvalues are accurate to
// rounding of the companion's norm, which a small leading coefficient makes large.
double polish(double phi, const HomogeneousPolynomial& df, const HomogeneousPolynomial& d2f) {
  for (int step = 0; step < 8; ++step) {
    const double slope = d2f(std::cos(phi), std::sin(phi));
    if (slope == 0.0) break;
    const double delta = df(std::cos(phi), std::sin(phi)) / slope;
    if (!std::isfinite(delta) || std::abs(delta) > 0.1) break;
    phi -= delta;
    if (std::abs(delta) <= 1e-17 * (1.0 + std::abs(phi))) break;
  }
  return phi;
}

// The twin of phi in (-pi/4, pi/4] (f has period pi/2).
double quarter_turn_reduce(double phi) {
  constexpr double quarter = std::numbers::pi / 2;
  phi = std::remainder(phi, quarter);  // in [-pi/4, pi/4]
  return phi <= -quarter / 2 ? phi + quarter : phi;
}

// D = 2, the classical Jacobi eigenvalue step, in closed form: with [[a, b], [b, d]] = [[t_0, t_1],
// [t_1, t_2]], a'^2 + d'^2 + 2 b'^2 is invariant, so f is largest where
// b' = (d - a)/2 sin 2phi + b cos 2phi = 0, i.e. tan 2phi = 2b / (a - d); the root with
// |phi| <= pi/4 has cos 2phi >= 0: 2phi = atan2(sign(a - d) 2b, |a - d|). The gain is 2 b^2.
SymmetricRotation classical_jacobi(std::span<const double> t) {
  const double a = t[0], b = t[1], d = t[2];
  const double sign = a - d < 0 ? -1.0 : 1.0;
  const double before = a * a + d * d;
  return {dsl::givens_from_double_angle(std::abs(a - d), sign * 2 * b), before, before + 2 * b * b};
}

}  // namespace

HomogeneousPolynomial rotated_diagonal_p(std::span<const double> t) {
  const int order = static_cast<int>(t.size()) - 1;
  HomogeneousPolynomial p = HomogeneousPolynomial::zero(order);
  for (int k = 0; k <= order; ++k) p.coef[static_cast<std::size_t>(k)] = binomial(order, k) * t[static_cast<std::size_t>(k)];
  return p;
}

// (-s)^(D-k) c^k: the monomial c^k s^(D-k), coefficient index j = D - k, sign (-1)^(D-k).
HomogeneousPolynomial rotated_diagonal_q(std::span<const double> t) {
  const int order = static_cast<int>(t.size()) - 1;
  HomogeneousPolynomial q = HomogeneousPolynomial::zero(order);
  for (int k = 0; k <= order; ++k)
    q.coef[static_cast<std::size_t>(order - k)] =
        ((order - k) % 2 ? -1.0 : 1.0) * binomial(order, k) * t[static_cast<std::size_t>(k)];
  return q;
}

HomogeneousPolynomial symmetric_diag_objective(std::span<const double> t) {
  const HomogeneousPolynomial p = rotated_diagonal_p(t);
  const HomogeneousPolynomial q = rotated_diagonal_q(t);
  return p * p + q * q;
}

SymmetricRotation best_symmetric_rotation(std::span<const double> t) {
  if (t.size() < 3) throw internal_error("a symmetric rotation needs order >= 2");
  const int order = static_cast<int>(t.size()) - 1;
  if (order == 2) return classical_jacobi(t);
  const HomogeneousPolynomial f = symmetric_diag_objective(t);
  const double before = f.coef.front();
  HomogeneousPolynomial gain = unit_circle_power(order);
  for (double& a : gain.coef) a *= -before;
  gain = gain + f;
  gain.coef.front() = 0.0;
  const HomogeneousPolynomial df = derivative(f);
  const HomogeneousPolynomial d2f = derivative(df);

  SymmetricRotation best{{1.0, 0.0}, before, before};
  double best_gain = 0.0;
  auto consider = [&](double phi) {
    phi = quarter_turn_reduce(phi);
    const double c = std::cos(phi), s = std::sin(phi);
    const double g = gain(c, s);
    if (g > best_gain) {
      best_gain = g;
      best.rotation = {c, s};
    }
  };
  for (double phi : real_root_angles(df)) {
    consider(phi);
    consider(polish(phi, df, d2f));
  }
  best.objective_after = before + best_gain;
  return best;
}

dsl::Givens<double> symmetric_angle(std::span<const double> t) {
  const int order = static_cast<int>(t.size()) - 1;
  if (order < 2) throw internal_error("a symmetric rotation needs order >= 2");
  if (order > max_dsl_symmetric_order) return best_symmetric_rotation(t).rotation;
  dsl::Givens<double> g{1.0, 0.0};
  [&]<int... J>(std::integer_sequence<int, J...>) {
    (void)((order == J + 2 ? (g = dsl::symmetric_angle<J + 2>(t.data()), true) : false) || ...);
  }(std::make_integer_sequence<int, max_dsl_symmetric_order - 1>{});
  return g;
}

template <class T>
dsl::Givens<double> symmetric_angle_for(std::span<const double> t) {
  const int order = static_cast<int>(t.size()) - 1;
  if (std::is_same_v<T, double> || order < 3 || order > max_dsl_symmetric_order) return symmetric_angle(t);
  // symmetric_angle_in<D, T> for the run-time order (it is symmetric_angle<D> where D keeps double).
  dsl::Givens<double> g{1.0, 0.0};
  [&]<int... J>(std::integer_sequence<int, J...>) {
    (void)((order == J + 3 ? (g = dsl::symmetric_angle_in<J + 3, T>(t.data()), true) : false) || ...);
  }(std::make_integer_sequence<int, max_dsl_symmetric_order - 2>{});
  return g;
}

template dsl::Givens<double> symmetric_angle_for<float>(std::span<const double> t);
template dsl::Givens<double> symmetric_angle_for<double>(std::span<const double> t);

}  // namespace tensordiag::runtime
