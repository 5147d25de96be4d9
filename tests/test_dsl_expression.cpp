// The DSL's expressions: printing, host evaluation, polynomial expansion in (c, s).
#include <doctest/doctest.h>

#include <random>

#include "dsl/evaluate.hpp"
#include "dsl/polynomial.hpp"
#include "dsl/print.hpp"

using namespace tensordiag::dsl;
using namespace tensordiag::dsl::pivot;

TEST_CASE("expressions print with the parentheses their structure needs") {
  CHECK(to_string(a * c + b * s) == "a*c + b*s");
  CHECK(to_string((a + b) * c) == "(a + b)*c");
  CHECK(to_string(a - (b - d)) == "a - (b - d)");
  CHECK(to_string(a - b - d) == "a - b - d");
  CHECK(to_string(a / (b * d)) == "a/(b*d)");
  CHECK(to_string(sq(a * c + b * s) + sq(d * c - e * s)) == "sq(a*c + b*s) + sq(d*c - e*s)");
  CHECK(to_string(atan2(2 * (a * b - d * e), sqrt(abs(a)) + 0.5)) == "atan2(2*(a*b - d*e), sqrt(abs(a)) + 0.5)");
  CHECK(to_string(min(a, -b) * sign(e) - max(d, 1)) == "min(a, -b)*sign(e) - max(d, 1)");
  CHECK(to_string(d * -e) == "d*(-e)");
  CHECK(to_string(a * -2.5) == "a*(-2.5)");
}

TEST_CASE("host evaluation follows the printed meaning") {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(-3, 3);
  for (int trial = 0; trial < 50; ++trial) {
    const PivotValues<double> v{u(gen), u(gen), u(gen), u(gen), u(gen), u(gen)};
    CHECK(evaluate(a * c + b * s, v) == doctest::Approx(v.a * v.c + v.b * v.s));
    CHECK(evaluate(a - b - d, v) == doctest::Approx(v.a - v.b - v.d));
    CHECK(evaluate(a / (b * d), v) == doctest::Approx(v.a / (v.b * v.d)));
    CHECK(evaluate(sq(a - e), v) == doctest::Approx((v.a - v.e) * (v.a - v.e)));
    CHECK(evaluate(sqrt(abs(b)), v) == doctest::Approx(std::sqrt(std::abs(v.b))));
    CHECK(evaluate(atan2(b, a), v) == doctest::Approx(std::atan2(v.b, v.a)));
    CHECK(evaluate(min(a, b) + max(d, e), v) == doctest::Approx(std::min(v.a, v.b) + std::max(v.d, v.e)));
    CHECK(evaluate(sign(a) * 3, v) == doctest::Approx(v.a > 0 ? 3.0 : -3.0));
  }
  CHECK(evaluate(sign(a), PivotValues<double>{0, 1, 1, 1}) == 0.0);
}

TEST_CASE("an objective expands into a polynomial in (c, s) with the right coefficients") {
  const auto p = expand(sq(a * c + b * s) + sq(d * c - e * s));
  static_assert(decltype(boost::hana::length(p))::value == 3, "c^2, c s and s^2");
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int trial = 0; trial < 20; ++trial) {
    const PivotValues<double> v{u(gen), u(gen), u(gen), u(gen)};
    CHECK(evaluate(coefficient(p, monomial<2, 0>), v) == doctest::Approx(v.a * v.a + v.d * v.d));
    CHECK(evaluate(coefficient(p, monomial<0, 2>), v) == doctest::Approx(v.b * v.b + v.e * v.e));
    CHECK(evaluate(coefficient(p, monomial<1, 1>), v) == doctest::Approx(2 * (v.a * v.b - v.d * v.e)));
  }
  // Constants, division by pivot expressions and unary minus expand too.
  const auto q = expand(-(a * c) / b + 3 * s * s - 1);
  std::mt19937_64 gen2(12);
  for (int trial = 0; trial < 20; ++trial) {
    const PivotValues<double> v{u(gen2), u(gen2) + 5, u(gen2), u(gen2)};
    CHECK(evaluate(coefficient(q, monomial<1, 0>), v) == doctest::Approx(-v.a / v.b));
    CHECK(evaluate(coefficient(q, monomial<0, 2>), v) == doctest::Approx(3.0));
    CHECK(evaluate(coefficient(q, monomial<0, 0>), v) == doctest::Approx(-1.0));
  }
  static_assert(std::is_same_v<decltype(coefficient(q, monomial<0, 1>)), Zero>, "no s term");
}

TEST_CASE("an expanded polynomial evaluates like the objective it came from") {
  const auto objective = sq(2 * a * c - e * s) * 0.5 + c * s * d - sq(s) * b;
  const auto p = expand(objective);
  std::mt19937_64 gen(13);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int trial = 0; trial < 50; ++trial) {
    PivotValues<double> v{u(gen), u(gen), u(gen), u(gen)};
    const double phi = u(gen) * 2;
    v.c = std::cos(phi);
    v.s = std::sin(phi);
    const double from_poly = evaluate(coefficient(p, monomial<2, 0>), v) * v.c * v.c +
                             evaluate(coefficient(p, monomial<0, 2>), v) * v.s * v.s +
                             evaluate(coefficient(p, monomial<1, 1>), v) * v.c * v.s;
    CHECK(from_poly == doctest::Approx(evaluate(objective, v)).epsilon(1e-12));
  }
}
