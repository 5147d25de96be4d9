#pragma once
// The operations an expression may use. Each tag says how it prints, how the host evaluates it,
// and which OpKind it is: codegen lowers an expression by switching on the kind (codegen/lower.cpp),
// so a new operation is a new enumerator that -Wswitch makes the lowering handle. No Hana here.
#include <cmath>
#include <string_view>

namespace tensordiag::dsl::op {

// Printing precedence: a child binding weaker than its parent gets parentheses.
enum class Notation { infix, prefix, call };

// Every operation, one enumerator per tag below.
enum class OpKind { add, sub, mul, div, neg, sq, sqrt, abs, sign, atan2, min, max };

// The number of operands of an operation of that kind.
constexpr int arity(OpKind kind) {
  switch (kind) {
    case OpKind::neg:
    case OpKind::sq:
    case OpKind::sqrt:
    case OpKind::abs:
    case OpKind::sign: return 1;
    case OpKind::add:
    case OpKind::sub:
    case OpKind::mul:
    case OpKind::div:
    case OpKind::atan2:
    case OpKind::min:
    case OpKind::max: return 2;
  }
  return 0;
}

struct add {
  static constexpr std::string_view name = "+";
  static constexpr OpKind kind = OpKind::add;
  static constexpr Notation notation = Notation::infix;
  static constexpr int precedence = 1;
  template <class T> static T apply(T x, T y) { return x + y; }
};
struct sub {
  static constexpr std::string_view name = "-";
  static constexpr OpKind kind = OpKind::sub;
  static constexpr Notation notation = Notation::infix;
  static constexpr int precedence = 1;
  template <class T> static T apply(T x, T y) { return x - y; }
};
struct mul {
  static constexpr std::string_view name = "*";
  static constexpr OpKind kind = OpKind::mul;
  static constexpr Notation notation = Notation::infix;
  static constexpr int precedence = 2;
  template <class T> static T apply(T x, T y) { return x * y; }
};
struct div {
  static constexpr std::string_view name = "/";
  static constexpr OpKind kind = OpKind::div;
  static constexpr Notation notation = Notation::infix;
  static constexpr int precedence = 2;
  template <class T> static T apply(T x, T y) { return x / y; }
};
struct neg {
  static constexpr std::string_view name = "-";
  static constexpr OpKind kind = OpKind::neg;
  static constexpr Notation notation = Notation::prefix;
  static constexpr int precedence = 3;
  template <class T> static T apply(T x) { return -x; }
};
struct sq {
  static constexpr std::string_view name = "sq";
  static constexpr OpKind kind = OpKind::sq;
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x) { return x * x; }
};
struct sqrt {
  static constexpr std::string_view name = "sqrt";
  static constexpr OpKind kind = OpKind::sqrt;
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x) { return std::sqrt(x); }
};
struct abs {
  static constexpr std::string_view name = "abs";
  static constexpr OpKind kind = OpKind::abs;
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x) { return std::abs(x); }
};
// sign(0) = 0, as in the paper's formulas.
struct sign {
  static constexpr std::string_view name = "sign";
  static constexpr OpKind kind = OpKind::sign;
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x) { return T((x > T(0)) - (x < T(0))); }
};
struct atan2 {
  static constexpr std::string_view name = "atan2";
  static constexpr OpKind kind = OpKind::atan2;
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T y, T x) { return std::atan2(y, x); }
};
struct min {
  static constexpr std::string_view name = "min";
  static constexpr OpKind kind = OpKind::min;
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x, T y) { return y < x ? y : x; }
};
struct max {
  static constexpr std::string_view name = "max";
  static constexpr OpKind kind = OpKind::max;
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x, T y) { return x < y ? y : x; }
};

}  // namespace tensordiag::dsl::op
