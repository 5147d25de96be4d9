#pragma once
// A rotation rule: how a micro-iteration chooses (c, s) from the pivot entries a, b, d, e.
// Written either as an objective in (c, s) to maximize, from which the maximizer is derived in
// closed form at compile time, or as an explicit angle phi.
//
//   degree 1:  alpha c + beta s                  -> phi   = atan2(beta, alpha)        (Direction)
//   degree 2:  alpha c^2 + beta s^2 + gamma c s  -> 2 phi = atan2(gamma, alpha - beta) (DoubleAngle)
//
// (A constant term does not move the maximizer.) Degree 2 follows from alpha c^2 + beta s^2 +
// gamma c s = (alpha + beta)/2 + (alpha - beta)/2 cos 2phi + gamma/2 sin 2phi, whose maximum over
// the full circle is at 2phi = atan2(gamma, alpha - beta).
#include <boost/hana/all_of.hpp>
#include <boost/hana/keys.hpp>
#include <boost/hana/length.hpp>
#include <string>
#include <string_view>

#include "dsl/evaluate.hpp"
#include "dsl/givens.hpp"
#include "dsl/polynomial.hpp"
#include "dsl/print.hpp"

namespace tensordiag::dsl {

// phi = atan2(y, x).
template <class X, class Y>
struct Direction {
  X x;
  Y y;
};
// 2 phi = atan2(y, x).
template <class X, class Y>
struct DoubleAngle {
  X x;
  Y y;
};
// phi given explicitly.
template <class Phi>
struct ExplicitAngle {
  Phi phi;
};

template <class Objective>
constexpr auto derive_maximizer(const Objective& objective) {
  namespace hana = boost::hana;
  const auto p = expand(objective);
  using Keys = decltype(hana::keys(p));
  constexpr auto all_of_degree = [](auto... allowed) {
    return decltype(hana::all_of(Keys{}, [](auto key) {
      return hana::bool_c<((degree_of<decltype(key)> == decltype(allowed)::value) || ...)>;
    }))::value;
  };
  constexpr bool linear = all_of_degree(hana::int_c<0>, hana::int_c<1>);
  constexpr bool quadratic = all_of_degree(hana::int_c<0>, hana::int_c<2>);
  constexpr bool constant = all_of_degree(hana::int_c<0>);
  static_assert(!constant, "tensordiag rule: the objective does not depend on c or s, so it picks no angle");
  static_assert(linear || quadratic,
                "tensordiag rule: an objective must be linear in (c, s) (alpha*c + beta*s) or a "
                "homogeneous quadratic (alpha*c*c + beta*s*s + gamma*c*s), plus an optional constant");
  if constexpr (linear) {
    return Direction{coefficient(p, monomial<1, 0>), coefficient(p, monomial<0, 1>)};
  } else {
    const auto alpha_minus_beta = [&] {
      const auto alpha = coefficient(p, monomial<2, 0>);
      const auto beta = coefficient(p, monomial<0, 2>);
      if constexpr (std::is_same_v<decltype(beta), const Zero>) return alpha;
      else if constexpr (std::is_same_v<decltype(alpha), const Zero>) return coefficient_neg(beta);
      else return alpha - beta;
    }();
    return DoubleAngle{alpha_minus_beta, coefficient(p, monomial<1, 1>)};
  }
}

// No objective: the rule was written as an angle.
struct NoObjective {};

template <class Objective, class Rotation>
struct Rule {
  std::string_view name;
  Objective objective;
  Rotation rotation;
};

// A rule that maximizes `objective` over phi.
template <Expression Objective>
constexpr auto objective_rule(std::string_view name, Objective objective) {
  return Rule<Objective, decltype(derive_maximizer(objective))>{name, objective, derive_maximizer(objective)};
}

// A rule that sets phi directly from the pivot entries.
template <Expression Phi>
constexpr auto angle_rule(std::string_view name, Phi phi) {
  static_assert(!mentions_rotation_v<Phi>, "tensordiag rule: an explicit angle may not mention c or s");
  return Rule<NoObjective, ExplicitAngle<Phi>>{name, NoObjective{}, ExplicitAngle<Phi>{phi}};
}

template <class X, class Y>
std::string to_string(const Direction<X, Y>& r) {
  return "phi = atan2(" + to_string(r.y) + ", " + to_string(r.x) + ")";
}
template <class X, class Y>
std::string to_string(const DoubleAngle<X, Y>& r) {
  return "2*phi = atan2(" + to_string(r.y) + ", " + to_string(r.x) + ")";
}
template <class Phi>
std::string to_string(const ExplicitAngle<Phi>& r) {
  return "phi = " + to_string(r.phi);
}

// "max_diag: maximize sq(a*c + b*s) + sq(d*c - e*s)", or "name: phi = ..." for an angle rule.
template <class Objective, class Rotation>
std::string describe(const Rule<Objective, Rotation>& rule) {
  if constexpr (std::is_same_v<Objective, NoObjective>) {
    return std::string(rule.name) + ": " + to_string(rule.rotation);
  } else {
    return std::string(rule.name) + ": maximize " + to_string(rule.objective);
  }
}

// Host evaluation: the rotation the rule picks for these pivot entries.
template <class T, class X, class Y>
Givens<T> rotation(const Direction<X, Y>& r, const PivotValues<T>& v) {
  return givens_from_direction(evaluate(r.x, v), evaluate(r.y, v));
}
template <class T, class X, class Y>
Givens<T> rotation(const DoubleAngle<X, Y>& r, const PivotValues<T>& v) {
  return givens_from_double_angle(evaluate(r.x, v), evaluate(r.y, v));
}
template <class T, class Phi>
Givens<T> rotation(const ExplicitAngle<Phi>& r, const PivotValues<T>& v) {
  const T phi = evaluate(r.phi, v);
  return {std::cos(phi), std::sin(phi)};
}
template <class T, class Objective, class Rotation>
Givens<T> rotation(const Rule<Objective, Rotation>& rule, const PivotValues<T>& v) {
  return rotation(rule.rotation, v);
}

}  // namespace tensordiag::dsl
