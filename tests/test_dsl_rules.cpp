// Rules: the derived maximizers against brute-force maximization, and the built-in rules against
// the closed forms of DESIGN.md section 2.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "dsl/builtin_rules.hpp"

using namespace tensordiag::dsl;
using namespace tensordiag::dsl::pivot;

namespace {

template <class Rule>
double objective_at(const Rule& rule, PivotValues<double> v, double phi) {
  v.c = std::cos(phi);
  v.s = std::sin(phi);
  return evaluate(rule.objective, v);
}

// The best value over a fine grid of phi in [0, 2 pi), refined by golden-section search.
template <class Rule>
double brute_force_maximum(const Rule& rule, const PivotValues<double>& v) {
  const int samples = 3600;
  double best_phi = 0, best = -1e300;
  for (int i = 0; i < samples; ++i) {
    const double phi = 2 * std::numbers::pi * i / samples;
    const double value = objective_at(rule, v, phi);
    if (value > best) best = value, best_phi = phi;
  }
  double lo = best_phi - 2 * std::numbers::pi / samples, hi = best_phi + 2 * std::numbers::pi / samples;
  for (int it = 0; it < 100; ++it) {
    const double m1 = lo + (hi - lo) * 0.381966, m2 = lo + (hi - lo) * 0.618034;
    if (objective_at(rule, v, m1) < objective_at(rule, v, m2)) lo = m1; else hi = m2;
  }
  return std::max(best, objective_at(rule, v, (lo + hi) / 2));
}

template <class Rule>
void check_rule_attains_maximum(const Rule& rule, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 200; ++trial) {
    PivotValues<double> v{normal(gen), normal(gen), normal(gen), normal(gen)};
    if (trial % 7 == 0) v.a = -v.a * 3;  // vary signs and scales, delta < 0 included
    const auto g = rotation(rule, v);
    CHECK(g.c * g.c + g.s * g.s == doctest::Approx(1.0).epsilon(1e-14));
    v.c = g.c;
    v.s = g.s;
    const double attained = evaluate(rule.objective, v);
    const double best = brute_force_maximum(rule, v);
    CHECK(attained >= best - 1e-9 * (1 + std::abs(best)));
  }
}

}  // namespace

TEST_CASE("the derived maximizer of each built-in rule attains the brute-force maximum over phi") {
  check_rule_attains_maximum(rules::max_diag, 101);
  check_rule_attains_maximum(rules::max_trace, 102);
}

TEST_CASE("a rule written by a user gets its maximizer derived too") {
  // Maximize the (p, p) entry alone after the rotation: linear, phi = atan2(b, a).
  constexpr auto first_only = objective_rule("first_only", a * c + b * s);
  check_rule_attains_maximum(first_only, 103);
  // A homogeneous quadratic with a constant and a division by a pivot expression.
  constexpr auto weighted = objective_rule("weighted", sq(a * c + b * s) * 2 + sq(d * c - e * s) / (1 + sq(a)) + 7);
  check_rule_attains_maximum(weighted, 104);
}

TEST_CASE("max_diag equals DESIGN.md's closed form 2phi = atan2(2 beta, delta), full circle") {
  std::mt19937_64 gen(105);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 500; ++trial) {
    const double a_ = normal(gen), b_ = normal(gen), d_ = normal(gen), e_ = normal(gen);
    const double delta = a_ * a_ + d_ * d_ - b_ * b_ - e_ * e_;
    const double beta = a_ * b_ - d_ * e_;
    const double phi = std::atan2(2 * beta, delta) / 2;
    const auto g = rotation(rules::max_diag, PivotValues<double>{a_, b_, d_, e_});
    CHECK(g.c == doctest::Approx(std::cos(phi)).epsilon(1e-12));
    CHECK(g.s == doctest::Approx(std::sin(phi)).epsilon(1e-12));
    // The gain of g(phi) over the identity is (r - delta)/2 >= 0 (DESIGN.md section 2).
    const double r = std::sqrt(delta * delta + 4 * beta * beta);
    const double before = a_ * a_ + d_ * d_;
    const double after = std::pow(a_ * g.c + b_ * g.s, 2) + std::pow(d_ * g.c - e_ * g.s, 2);
    CHECK(after - before == doctest::Approx((r - delta) / 2).epsilon(1e-9).scale(1));
  }
}

TEST_CASE("the seed's printed formula picks the minimizer when delta < 0, the derived rule does not") {
  // a = d = 0.1, b = e = 1: delta < 0. tan 2phi = 2 lambda / mu with the principal branch gives
  // |2 phi| < pi/2, hence cos 2phi > 0 although the maximum needs cos 2phi < 0.
  const PivotValues<double> v{0.1, 1.0, 0.1, 0.9};
  const double delta = 0.01 + 0.01 - 1.0 - 0.81;
  const double lambda = 2 * (0.1 * 1.0 - 0.9 * 0.1) * (delta > 0 ? 1 : -1);
  const double seed_phi = std::atan(2 * lambda / std::abs(delta)) / 2;
  auto g_at = [&](double c_, double s_) { return std::pow(0.1 * c_ + 1.0 * s_, 2) + std::pow(0.1 * c_ - 0.9 * s_, 2); };
  const auto g = rotation(rules::max_diag, v);
  CHECK(g_at(g.c, g.s) > g_at(std::cos(seed_phi), std::sin(seed_phi)) + 1.0);
}

TEST_CASE("max_trace equals (c, s) = (a + d, b - e) / norm and skips when both vanish") {
  std::mt19937_64 gen(106);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 200; ++trial) {
    const double a_ = normal(gen), b_ = normal(gen), d_ = normal(gen), e_ = normal(gen);
    const double norm = std::hypot(a_ + d_, b_ - e_);
    const auto g = rotation(rules::max_trace, PivotValues<double>{a_, b_, d_, e_});
    CHECK(g.c == doctest::Approx((a_ + d_) / norm).epsilon(1e-13));
    CHECK(g.s == doctest::Approx((b_ - e_) / norm).epsilon(1e-13));
  }
  const auto identity = rotation(rules::max_trace, PivotValues<double>{1.0, 0.5, -1.0, 0.5});
  CHECK(identity.c == 1.0);
  CHECK(identity.s == 0.0);
}

TEST_CASE("rules describe themselves, and an explicit angle rule evaluates its angle") {
  CHECK(describe(rules::max_diag) == "max_diag: maximize sq(a*c + b*s) + sq(d*c - e*s)");
  CHECK(describe(rules::max_trace) == "max_trace: maximize a*c + b*s + (d*c - e*s)");
  CHECK(to_string(rules::max_trace.rotation) == "phi = atan2(b - e, a + d)");
  constexpr auto half = angle_rule("half_trace", atan2(b - e, a + d) / 2);
  CHECK(describe(half) == "half_trace: phi = atan2(b - e, a + d)/2");
  const auto g = rotation(half, PivotValues<double>{0.3, 1.1, -0.4, 0.2});
  CHECK(g.c == doctest::Approx(std::cos(std::atan2(0.9, -0.1) / 2)));
  CHECK(g.s == doctest::Approx(std::sin(std::atan2(0.9, -0.1) / 2)));
}

TEST_CASE("the trig-free double-angle formula is accurate across the whole circle") {
  for (int i = 0; i < 3600; ++i) {
    const double two_phi = -std::numbers::pi + 2 * std::numbers::pi * (i + 0.5) / 3600;
    const double r = 0.1 + i % 7;
    const auto g = givens_from_double_angle(r * std::cos(two_phi), r * std::sin(two_phi));
    CHECK(g.c == doctest::Approx(std::cos(two_phi / 2)).epsilon(1e-13).scale(1));
    CHECK(g.s == doctest::Approx(std::sin(two_phi / 2)).epsilon(1e-13).scale(1));
  }
  const auto pi = givens_from_double_angle(-2.0, 0.0);  // 2 phi = pi exactly
  CHECK(pi.c == 0.0);
  CHECK(pi.s == 1.0);
  const auto none = givens_from_double_angle(0.0, 0.0);
  CHECK(none.c == 1.0);
  CHECK(none.s == 0.0);
}

// The division the formula skips where y = +-0 (givens.hpp), written out: s = y / (2 r c).
template <class T>
void check_zero_y_as_divided(T x, T y) {
  CAPTURE(x);
  CAPTURE(std::signbit(y));
  const auto g = givens_from_double_angle(x, y);
  const T r = std::sqrt(x * x + y * y);
  const T c = std::sqrt((T(1) + x / r) / T(2));
  const T s = y / (T(2) * r * c);
  CHECK(g.c == c);
  CHECK(g.s == s);
  CHECK(std::signbit(g.s) == std::signbit(s));
}

TEST_CASE_TEMPLATE("the double-angle formula gives a zero y the division's quotient, sign included", T, float, double) {
  // Converged pivots: x of every size and sign over the binade range, y = +0 and -0. For x < 0
  // (2 phi = pi) the other branch runs its division as before: s = 1, c = y / (2 r).
  std::mt19937 random(2026);
  std::uniform_real_distribution<double> exponent(-30, 30);
  for (int i = 0; i < 400; ++i) {
    const T magnitude = static_cast<T>(std::exp2(exponent(random)));
    for (const T y : {T(0), -T(0)}) {
      check_zero_y_as_divided(magnitude, y);
      const auto flipped = givens_from_double_angle(-magnitude, y);
      CHECK(flipped.s == T(1));
      CHECK(flipped.c == T(0));
      CHECK(std::signbit(flipped.c) == std::signbit(y / (T(2) * magnitude)));
    }
  }
  // Next to zero the division still runs: y at the smallest normals (s is subnormal).
  for (const T y : {std::numeric_limits<T>::min(), T(-2) * std::numeric_limits<T>::min()}) {
    const auto g = givens_from_double_angle(T(1), y);
    CHECK(g.s == y / (T(2) * T(1) * T(1)));
    CHECK(g.s != T(0));
  }
}

TEST_CASE("built-in rules are found by name") {
  std::string seen;
  CHECK(with_builtin_rule("max_trace", [&](const auto& rule) { seen = std::string(rule.name); }));
  CHECK(seen == "max_trace");
  CHECK_FALSE(with_builtin_rule("max_everything", [](const auto&) {}));
}
