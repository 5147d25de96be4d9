#pragma once
// Host evaluation of an expression at given values of a, b, d, e, c, s.
#include <boost/hana/unpack.hpp>
#include <complex>
#include <utility>

#include "dsl/expression.hpp"

namespace tensordiag::dsl {

template <class T>
struct PivotValues {
  T a{}, b{}, d{}, e{};  // the pivot entries (DESIGN.md section 2)
  T c{1}, s{0};          // the rotation, for objectives
};

template <class T, Symbol S>
constexpr T evaluate(Var<S>, const PivotValues<T>& v) {
  if constexpr (S == Symbol::a) return v.a;
  if constexpr (S == Symbol::b) return v.b;
  if constexpr (S == Symbol::d) return v.d;
  if constexpr (S == Symbol::e) return v.e;
  if constexpr (S == Symbol::c) return v.c;
  if constexpr (S == Symbol::s) return v.s;
}
// The number in T's precision (a complex T: its real type's, the imaginary part zero).
template <class T>
constexpr T evaluate(Constant k, const PivotValues<T>&) {
  using Real = decltype(std::real(std::declval<T>()));
  return T(static_cast<Real>(k.value));
}
template <class T>
constexpr T evaluate(Zero, const PivotValues<T>&) { return T(0); }
template <class T>
constexpr T evaluate(One, const PivotValues<T>&) { return T(1); }

template <class T, class Op, class... Args>
T evaluate(const Node<Op, Args...>& node, const PivotValues<T>& v) {
  return boost::hana::unpack(node.args, [&](const auto&... args) { return Op::apply(evaluate(args, v)...); });
}

}  // namespace tensordiag::dsl
