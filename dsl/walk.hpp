#pragma once
// Walks an expression bottom-up and hands every node to a visitor as plain values, so layers
// outside dsl/ (codegen) translate expressions without seeing Boost.Hana. A visitor with result
// type R provides
//   R symbol(Symbol);                                      // a, b, d, e, c, s
//   R constant(double);                                    // numbers; Zero and One walk as 0 and 1
//   R operation(op::OpKind, std::span<const R>);           // the op tag's kind and its operands
// Operands are walked left to right, so a visitor with side effects sees a deterministic order.
// Only tags with a kind can be walked: a custom op tag (evaluated and printed on the host, as any
// tag) is refused at compile time, naming itself.
#include <array>
#include <boost/hana/unpack.hpp>
#include <concepts>
#include <span>
#include <utility>
#include <vector>

#include "dsl/expression.hpp"
#include "dsl/rotation_form.hpp"
#include "dsl/rule.hpp"

namespace tensordiag::dsl {

template <class Visitor, Symbol S>
auto walk(Var<S>, Visitor& visitor) {
  return visitor.symbol(S);
}
template <class Visitor>
auto walk(Constant k, Visitor& visitor) {
  return visitor.constant(k.value);
}
template <class Visitor>
auto walk(Zero, Visitor& visitor) {
  return visitor.constant(0.0);
}
template <class Visitor>
auto walk(One, Visitor& visitor) {
  return visitor.constant(1.0);
}
// An op tag that names its OpKind (dsl/operations.hpp).
template <class Op>
concept KindedOperation = requires {
  { Op::kind } -> std::convertible_to<op::OpKind>;
};

template <class Visitor, class Op, class... Args>
auto walk(const Node<Op, Args...>& node, Visitor& visitor) {
  if constexpr (!KindedOperation<Op>) {
    static_assert(KindedOperation<Op>,
                  "tensordiag DSL: this operation has no OpKind, so codegen cannot lower it to CUDA (add an "
                  "enumerator to dsl::op::OpKind, a `kind` to the tag, and its case to codegen/lower.cpp)");
    return visitor.constant(0.0);
  } else {
    static_assert(op::arity(Op::kind) == sizeof...(Args), "tensordiag DSL: an operation with the wrong number of operands");
    using Result = decltype(visitor.constant(0.0));
    return boost::hana::unpack(node.args, [&visitor](const auto&... args) {
      // Braced initialization evaluates its elements in order: left operand first.
      const std::array<Result, sizeof...(Args)> operands{walk(args, visitor)...};
      return visitor.operation(Op::kind, std::span<const Result>(operands));
    });
  }
}

template <class Result>
struct WalkedRotation {
  RotationForm form;
  std::vector<Result> operands;
};

// The forms with operands {x, y}; x is walked first.
template <class Visitor, class X, class Y>
auto walk_xy(RotationForm form, const X& x, const Y& y, Visitor& visitor) {
  using Result = decltype(visitor.constant(0.0));
  auto x_result = walk(x, visitor);
  auto y_result = walk(y, visitor);
  return WalkedRotation<Result>{form, {std::move(x_result), std::move(y_result)}};
}
template <class Visitor, class X, class Y>
auto walk_rotation(const Direction<X, Y>& r, Visitor& visitor) {
  return walk_xy(RotationForm::direction, r.x, r.y, visitor);
}
template <class Visitor, class X, class Y>
auto walk_rotation(const DoubleAngle<X, Y>& r, Visitor& visitor) {
  return walk_xy(RotationForm::double_angle, r.x, r.y, visitor);
}
template <class Visitor, class Phi>
auto walk_rotation(const ExplicitAngle<Phi>& r, Visitor& visitor) {
  using Result = decltype(visitor.constant(0.0));
  return WalkedRotation<Result>{RotationForm::explicit_angle, {walk(r.phi, visitor)}};
}
template <class Visitor, class Objective, class Rotation>
auto walk_rotation(const Rule<Objective, Rotation>& rule, Visitor& visitor) {
  return walk_rotation(rule.rotation, visitor);
}

}  // namespace tensordiag::dsl
