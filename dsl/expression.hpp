#pragma once
// Expression templates over the pivot entries of one micro-iteration (DESIGN.md section 2):
//   a = A_{p..p}, d = A_{q..q}, b = A_{p->q,n}, e = A_{q->p,n},
// and the rotation (c, s) = (cos phi, sin phi). An expression's type is its structure; constant
// values ride in the object. Build expressions with the variables of `dsl::pivot`, numbers, the
// operators + - * / and unary -, and sq, sqrt, abs, sign, atan2, min, max.
#include <boost/hana/tuple.hpp>
#include <concepts>
#include <string_view>
#include <type_traits>

#include "dsl/operations.hpp"

namespace tensordiag::dsl {

enum class Symbol { a, b, d, e, c, s };

constexpr std::string_view symbol_name(Symbol symbol) {
  constexpr std::string_view names[] = {"a", "b", "d", "e", "c", "s"};
  return names[static_cast<int>(symbol)];
}

constexpr bool is_rotation_symbol(Symbol symbol) { return symbol == Symbol::c || symbol == Symbol::s; }

template <Symbol S>
struct Var {
  static constexpr Symbol symbol = S;
};

// A number written in a rule. Zero and One are the structural constants that polynomial expansion
// produces; they simplify away instead of printing "1 * x".
struct Constant {
  double value;
};
struct Zero {};
struct One {};

template <class Op, class... Args>
struct Node {
  boost::hana::tuple<Args...> args;
};

template <class T>
struct is_expression : std::false_type {};
template <Symbol S>
struct is_expression<Var<S>> : std::true_type {};
template <>
struct is_expression<Constant> : std::true_type {};
template <>
struct is_expression<Zero> : std::true_type {};
template <>
struct is_expression<One> : std::true_type {};
template <class Op, class... Args>
struct is_expression<Node<Op, Args...>> : std::true_type {};

template <class T>
concept Expression = is_expression<std::remove_cvref_t<T>>::value;

// An operand is an expression or a plain number (which becomes a Constant).
template <class T>
concept Operand = Expression<T> || std::is_arithmetic_v<std::remove_cvref_t<T>>;

template <Operand T>
constexpr auto as_expression(T x) {
  if constexpr (Expression<T>) {
    return x;
  } else {
    return Constant{static_cast<double>(x)};
  }
}

template <class Op, Operand... Args>
constexpr auto make_node(Args... args) {
  return Node<Op, decltype(as_expression(args))...>{{as_expression(args)...}};
}

// True when the expression mentions c or s.
template <class T>
struct mentions_rotation : std::false_type {};
template <Symbol S>
struct mentions_rotation<Var<S>> : std::bool_constant<is_rotation_symbol(S)> {};
template <class Op, class... Args>
struct mentions_rotation<Node<Op, Args...>> : std::bool_constant<(mentions_rotation<Args>::value || ...)> {};

template <class T>
inline constexpr bool mentions_rotation_v = mentions_rotation<std::remove_cvref_t<T>>::value;

// At least one side must be an expression, so these never hijack arithmetic on plain numbers.
template <Operand L, Operand R>
  requires(Expression<L> || Expression<R>)
constexpr auto operator+(L l, R r) { return make_node<op::add>(l, r); }
template <Operand L, Operand R>
  requires(Expression<L> || Expression<R>)
constexpr auto operator-(L l, R r) { return make_node<op::sub>(l, r); }
template <Operand L, Operand R>
  requires(Expression<L> || Expression<R>)
constexpr auto operator*(L l, R r) { return make_node<op::mul>(l, r); }
template <Operand L, Operand R>
  requires(Expression<L> || Expression<R>)
constexpr auto operator/(L l, R r) { return make_node<op::div>(l, r); }
template <Expression X>
constexpr auto operator-(X x) { return make_node<op::neg>(x); }

template <Expression X> constexpr auto sq(X x) { return make_node<op::sq>(x); }
template <Expression X> constexpr auto sqrt(X x) { return make_node<op::sqrt>(x); }
template <Expression X> constexpr auto abs(X x) { return make_node<op::abs>(x); }
template <Expression X> constexpr auto sign(X x) { return make_node<op::sign>(x); }
template <Operand Y, Operand X>
  requires(Expression<Y> || Expression<X>)
constexpr auto atan2(Y y, X x) { return make_node<op::atan2>(y, x); }
template <Operand X, Operand Y>
  requires(Expression<X> || Expression<Y>)
constexpr auto min(X x, Y y) { return make_node<op::min>(x, y); }
template <Operand X, Operand Y>
  requires(Expression<X> || Expression<Y>)
constexpr auto max(X x, Y y) { return make_node<op::max>(x, y); }

// The variables, for `using namespace tensordiag::dsl::pivot;` where a rule is written.
namespace pivot {
inline constexpr Var<Symbol::a> a{};
inline constexpr Var<Symbol::b> b{};
inline constexpr Var<Symbol::d> d{};
inline constexpr Var<Symbol::e> e{};
inline constexpr Var<Symbol::c> c{};
inline constexpr Var<Symbol::s> s{};
}  // namespace pivot

}  // namespace tensordiag::dsl
