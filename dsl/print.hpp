#pragma once
// Every expression prints itself: to_string(sq(a*c + b*s)) == "sq(a*c + b*s)".
#include <boost/hana/for_each.hpp>
#include <ostream>
#include <string>

#include "dsl/expression.hpp"
#include "dsl/format_number.hpp"

namespace tensordiag::dsl {

namespace detail {

// How tightly an expression binds when printed: leaves and calls never need parentheses.
template <class X>
struct binding : std::integral_constant<int, 100> {};
template <class Op, class... Args>
  requires(Op::notation != op::Notation::call)
struct binding<Node<Op, Args...>> : std::integral_constant<int, Op::precedence> {};

template <class X>
struct is_negation : std::false_type {};
template <class X>
struct is_negation<Node<op::neg, X>> : std::true_type {};

}  // namespace detail

template <Symbol S>
std::string to_string(Var<S>) { return std::string(symbol_name(S)); }
inline std::string to_string(Constant k) {
  std::string text = format_number(k.value);
  if (k.value < 0) text = std::string("(").append(text).append(")");
  return text;
}
inline std::string to_string(Zero) { return "0"; }
inline std::string to_string(One) { return "1"; }

template <class Op, class... Args>
std::string to_string(const Node<Op, Args...>& node) {
  using boost::hana::at_c;
  if constexpr (Op::notation == op::Notation::call) {
    std::string text = std::string(Op::name) + "(";
    bool first = true;
    boost::hana::for_each(node.args, [&](const auto& arg) {
      text += (first ? "" : ", ") + to_string(arg);
      first = false;
    });
    return text + ")";
  } else if constexpr (Op::notation == op::Notation::prefix) {
    using X = std::remove_cvref_t<decltype(at_c<0>(node.args))>;
    const std::string inner = to_string(at_c<0>(node.args));
    return "-" + (detail::binding<X>::value < Op::precedence ? "(" + inner + ")" : inner);
  } else {
    using L = std::remove_cvref_t<decltype(at_c<0>(node.args))>;
    using R = std::remove_cvref_t<decltype(at_c<1>(node.args))>;
    const std::string left = to_string(at_c<0>(node.args));
    const std::string right = to_string(at_c<1>(node.args));
    // Left-associative: the right child needs parentheses at equal precedence (a - (b - c)).
    // A negation operand is wrapped too, for the eye: d*(-e), not d*-e.
    const bool wrap_left = detail::binding<L>::value < Op::precedence || detail::is_negation<L>::value;
    const bool wrap_right = detail::binding<R>::value <= Op::precedence || detail::is_negation<R>::value;
    const std::string sep = Op::precedence == 1 ? " " : "";
    return (wrap_left ? "(" + left + ")" : left) + sep + std::string(Op::name) + sep +
           (wrap_right ? "(" + right + ")" : right);
  }
}

template <Expression X>
std::ostream& operator<<(std::ostream& out, const X& x) {
  return out << to_string(x);
}

}  // namespace tensordiag::dsl
