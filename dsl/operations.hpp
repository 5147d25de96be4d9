#pragma once
// The operations an expression may use. Each tag says how it prints and how the host evaluates
// it; codegen maps the same tags to CUDA C++.
#include <cmath>
#include <string_view>

namespace tensordiag::dsl::op {

// Printing precedence: a child binding weaker than its parent gets parentheses.
enum class Notation { infix, prefix, call };

struct add {
  static constexpr std::string_view name = "+";
  static constexpr Notation notation = Notation::infix;
  static constexpr int precedence = 1;
  template <class T> static T apply(T x, T y) { return x + y; }
};
struct sub {
  static constexpr std::string_view name = "-";
  static constexpr Notation notation = Notation::infix;
  static constexpr int precedence = 1;
  template <class T> static T apply(T x, T y) { return x - y; }
};
struct mul {
  static constexpr std::string_view name = "*";
  static constexpr Notation notation = Notation::infix;
  static constexpr int precedence = 2;
  template <class T> static T apply(T x, T y) { return x * y; }
};
struct div {
  static constexpr std::string_view name = "/";
  static constexpr Notation notation = Notation::infix;
  static constexpr int precedence = 2;
  template <class T> static T apply(T x, T y) { return x / y; }
};
struct neg {
  static constexpr std::string_view name = "-";
  static constexpr Notation notation = Notation::prefix;
  static constexpr int precedence = 3;
  template <class T> static T apply(T x) { return -x; }
};
struct sq {
  static constexpr std::string_view name = "sq";
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x) { return x * x; }
};
struct sqrt {
  static constexpr std::string_view name = "sqrt";
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x) { return std::sqrt(x); }
};
struct abs {
  static constexpr std::string_view name = "abs";
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x) { return std::abs(x); }
};
// sign(0) = 0, as in the paper's formulas.
struct sign {
  static constexpr std::string_view name = "sign";
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x) { return T((x > T(0)) - (x < T(0))); }
};
struct atan2 {
  static constexpr std::string_view name = "atan2";
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T y, T x) { return std::atan2(y, x); }
};
struct min {
  static constexpr std::string_view name = "min";
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x, T y) { return y < x ? y : x; }
};
struct max {
  static constexpr std::string_view name = "max";
  static constexpr Notation notation = Notation::call;
  template <class T> static T apply(T x, T y) { return x < y ? y : x; }
};

}  // namespace tensordiag::dsl::op
