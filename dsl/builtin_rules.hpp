#pragma once
// The built-in rules, written in the DSL (DESIGN.md section 2), and their registry: the one list
// from which every name, help text, CLI choice and rule property is derived.
#include <array>
#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/unpack.hpp>
#include <string_view>

#include "dsl/rule.hpp"
#include "dsl/rule_info.hpp"

namespace tensordiag::dsl {

namespace rules {
using namespace pivot;
// Maximize ||diag C||^2: the micro-iteration's share of it is g(phi) = (a c + b s)^2 + (d c - e s)^2,
// giving 2phi = atan2(2(ab - de), a^2 + d^2 - b^2 - e^2) (the seed's printed formula is wrong twice).
inline constexpr auto max_diag = objective_rule("max_diag", sq(a * c + b * s) + sq(d * c - e * s));
// Maximize the trace sum_i C[i, .., i] (Begović Kovač & Perković 2024): (c, s) ~ (a + d, b - e).
inline constexpr auto max_trace = objective_rule("max_trace", (a * c + b * s) + (d * c - e * s));
}  // namespace rules

// A rule with what the registry says of it.
template <class R>
struct RegisteredRule {
  R rule;
  std::string_view help;
  StallFigure stalls_on;
};

// The registry. The first rule is the default.
inline constexpr auto builtin_rules = boost::hana::make_tuple(
    RegisteredRule{rules::max_diag, "maximizes sum_i C[i,..,i]^2", StallFigure::diag_norm2},
    RegisteredRule{rules::max_trace, "maximizes sum_i C[i,..,i]", StallFigure::trace});

// The registry as plain values, in its order.
inline constexpr auto builtin_rule_infos = boost::hana::unpack(builtin_rules, [](const auto&... entry) {
  return std::array<RuleInfo, sizeof...(entry)>{RuleInfo{entry.rule.name, entry.help, entry.stalls_on}...};
});

// Calls f(rule) with the built-in rule of that name; returns false when there is none.
template <class F>
bool with_builtin_rule(std::string_view name, F&& f) {
  bool found = false;
  boost::hana::for_each(builtin_rules, [&](const auto& entry) {
    if (!found && entry.rule.name == name) {
      found = true;
      f(entry.rule);
    }
  });
  return found;
}

}  // namespace tensordiag::dsl
