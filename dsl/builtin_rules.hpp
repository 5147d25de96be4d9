#pragma once
// The built-in rules, written in the DSL (DESIGN.md section 2).
#include <string_view>

#include "dsl/rule.hpp"

namespace tensordiag::dsl {

namespace rules {
using namespace pivot;
// Maximize ||diag C||^2: the micro-iteration's share of it is g(phi) = (a c + b s)^2 + (d c - e s)^2,
// giving 2phi = atan2(2(ab - de), a^2 + d^2 - b^2 - e^2) (the seed's printed formula is wrong twice).
inline constexpr auto max_diag = objective_rule("max_diag", sq(a * c + b * s) + sq(d * c - e * s));
// Maximize the trace sum_i C[i, .., i] (Begović Kovač & Perković 2024): (c, s) ~ (a + d, b - e).
inline constexpr auto max_trace = objective_rule("max_trace", (a * c + b * s) + (d * c - e * s));
}  // namespace rules

inline constexpr std::string_view builtin_rule_names[] = {"max_diag", "max_trace"};

// Calls f(rule) with the built-in rule of that name; returns false when there is none.
template <class F>
bool with_builtin_rule(std::string_view name, F&& f) {
  if (name == rules::max_diag.name) {
    f(rules::max_diag);
    return true;
  }
  if (name == rules::max_trace.name) {
    f(rules::max_trace);
    return true;
  }
  return false;
}

}  // namespace tensordiag::dsl
