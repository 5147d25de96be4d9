#pragma once
// Compile-time expansion of an objective as a polynomial in (c, s) whose coefficients are
// expressions of the pivot entries: sq(a*c + b*s) -> {c^2: a*a, c*s: a*b + b*a, s^2: b*b}.
// A polynomial is a hana::map from the monomial c^i s^j, keyed Int<16 i + j>, to its coefficient.
// c and s may appear only under + - * sq and unary -, and / by an expression free of them.
#include <boost/hana/at_key.hpp>
#include <boost/hana/contains.hpp>
#include <boost/hana/erase_key.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/fold_left.hpp>
#include <boost/hana/insert.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/core/to.hpp>
#include <boost/hana/tuple.hpp>

#include "dsl/expression.hpp"
#include "dsl/integral.hpp"

namespace tensordiag::dsl {

template <int I, int J>
inline constexpr Int<16 * I + J> monomial{};

template <class Key>
inline constexpr int degree_of = std::remove_cvref_t<Key>::value / 16 + std::remove_cvref_t<Key>::value % 16;

template <class X>
struct negation_of {
  static constexpr bool value = false;
};
template <class X>
struct negation_of<Node<op::neg, X>> {
  static constexpr bool value = true;
  static constexpr X operand(const Node<op::neg, X>& n) { return boost::hana::at_c<0>(n.args); }
};

// Coefficient arithmetic that folds the structural constants and negations, so derived angles
// read as written: 1*x = x, 0*x = 0, 0+x = x, -(-x) = x, x*(-y) = -(x*y), x + (-y) = x - y.
template <class X>
constexpr auto coefficient_neg(X x) {
  if constexpr (std::is_same_v<X, Zero>) return Zero{};
  else if constexpr (negation_of<X>::value) return negation_of<X>::operand(x);
  else return -x;
}
template <class X, class Y>
constexpr auto coefficient_add(X x, Y y) {
  if constexpr (std::is_same_v<X, Zero>) return y;
  else if constexpr (std::is_same_v<Y, Zero>) return x;
  else if constexpr (negation_of<X>::value && negation_of<Y>::value)
    return coefficient_neg(negation_of<X>::operand(x) + negation_of<Y>::operand(y));
  else if constexpr (negation_of<Y>::value) return x - negation_of<Y>::operand(y);
  else if constexpr (negation_of<X>::value) return y - negation_of<X>::operand(x);
  else return x + y;
}
template <class X, class Y>
constexpr auto coefficient_mul(X x, Y y) {
  if constexpr (std::is_same_v<X, Zero> || std::is_same_v<Y, Zero>) return Zero{};
  else if constexpr (std::is_same_v<X, One>) return y;
  else if constexpr (std::is_same_v<Y, One>) return x;
  else if constexpr (negation_of<X>::value) return coefficient_neg(coefficient_mul(negation_of<X>::operand(x), y));
  else if constexpr (negation_of<Y>::value) return coefficient_neg(coefficient_mul(x, negation_of<Y>::operand(y)));
  else return x * y;
}

// The coefficient of a monomial, Zero when absent.
template <class Poly, class Key>
constexpr auto coefficient(const Poly& p, Key key) {
  if constexpr (decltype(boost::hana::contains(p, key))::value) return boost::hana::at_key(p, key);
  else return Zero{};
}

template <class Poly, class Key, class Coef>
constexpr auto add_term(const Poly& p, Key key, Coef coef) {
  namespace hana = boost::hana;
  if constexpr (decltype(hana::contains(p, key))::value) {
    return hana::insert(hana::erase_key(p, key), hana::make_pair(key, coefficient_add(hana::at_key(p, key), coef)));
  } else {
    return hana::insert(p, hana::make_pair(key, coef));
  }
}

template <class P, class Q>
constexpr auto poly_add(const P& p, const Q& q) {
  namespace hana = boost::hana;
  return hana::fold_left(hana::to_tuple(q), p, [](auto acc, auto term) {
    return add_term(acc, hana::first(term), hana::second(term));
  });
}

template <class P, class F>
constexpr auto poly_map(const P& p, F f) {
  namespace hana = boost::hana;
  return hana::fold_left(hana::to_tuple(p), hana::make_map(), [f](auto acc, auto term) {
    return hana::insert(acc, hana::make_pair(hana::first(term), f(hana::second(term))));
  });
}

template <class P, class Q>
constexpr auto poly_mul(const P& p, const Q& q) {
  namespace hana = boost::hana;
  return hana::fold_left(hana::to_tuple(p), hana::make_map(), [&q](auto acc, auto left) {
    return hana::fold_left(hana::to_tuple(q), acc, [&left](auto inner, auto right) {
      constexpr int key = std::remove_cvref_t<decltype(hana::first(left))>::value +
                          std::remove_cvref_t<decltype(hana::first(right))>::value;
      return add_term(inner, Int<key>{}, coefficient_mul(hana::second(left), hana::second(right)));
    });
  });
}

template <class>
inline constexpr bool dependent_false = false;

template <Symbol S>
constexpr auto expand(Var<S> v) {
  namespace hana = boost::hana;
  if constexpr (S == Symbol::c) return hana::make_map(hana::make_pair(monomial<1, 0>, One{}));
  else if constexpr (S == Symbol::s) return hana::make_map(hana::make_pair(monomial<0, 1>, One{}));
  else return hana::make_map(hana::make_pair(monomial<0, 0>, v));
}
constexpr auto expand(Constant k) { return boost::hana::make_map(boost::hana::make_pair(monomial<0, 0>, k)); }
constexpr auto expand(One) { return boost::hana::make_map(boost::hana::make_pair(monomial<0, 0>, One{})); }
constexpr auto expand(Zero) { return boost::hana::make_map(); }

template <class Op, class... Args>
constexpr auto expand(const Node<Op, Args...>& node) {
  namespace hana = boost::hana;
  using hana::at_c;
  if constexpr (!mentions_rotation_v<Node<Op, Args...>>) {
    return hana::make_map(hana::make_pair(monomial<0, 0>, node));
  } else if constexpr (std::is_same_v<Op, op::add>) {
    return poly_add(expand(at_c<0>(node.args)), expand(at_c<1>(node.args)));
  } else if constexpr (std::is_same_v<Op, op::sub>) {
    return poly_add(expand(at_c<0>(node.args)),
                    poly_map(expand(at_c<1>(node.args)), [](auto x) { return coefficient_neg(x); }));
  } else if constexpr (std::is_same_v<Op, op::neg>) {
    return poly_map(expand(at_c<0>(node.args)), [](auto x) { return coefficient_neg(x); });
  } else if constexpr (std::is_same_v<Op, op::mul>) {
    return poly_mul(expand(at_c<0>(node.args)), expand(at_c<1>(node.args)));
  } else if constexpr (std::is_same_v<Op, op::sq>) {
    const auto p = expand(at_c<0>(node.args));
    return poly_mul(p, p);
  } else if constexpr (std::is_same_v<Op, op::div>) {
    static_assert(!mentions_rotation_v<decltype(at_c<1>(node.args))>,
                  "tensordiag rule: an objective may divide by an expression of a, b, d, e only, "
                  "never by one that contains c or s");
    const auto denominator = at_c<1>(node.args);
    return poly_map(expand(at_c<0>(node.args)), [denominator](auto x) { return x / denominator; });
  } else {
    static_assert(dependent_false<Op>,
                  "tensordiag rule: in an objective, c and s may appear only under + - * / sq and "
                  "unary minus (not inside sqrt, abs, sign, atan2, min or max)");
  }
}

}  // namespace tensordiag::dsl
