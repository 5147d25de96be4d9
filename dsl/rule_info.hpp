#pragma once
// What the front ends and the runtime know of a rule as plain values (no Hana): its name, its help
// text and the properties that belong to it. Derived from the registry (dsl/builtin_rules.hpp).
#include <string_view>

namespace tensordiag::dsl {

// The figure of the convergence history that a rule's objective climbs, which the stall test
// watches (DESIGN.md section 2): ||diag C||^2, or the trace sum_i C[i, .., i].
enum class StallFigure { diag_norm2, trace };

struct RuleInfo {
  std::string_view name;  // "max_diag"
  std::string_view help;  // one line for --help: "maximizes sum_i C[i,..,i]^2"
  StallFigure stalls_on = StallFigure::diag_norm2;
};

}  // namespace tensordiag::dsl
