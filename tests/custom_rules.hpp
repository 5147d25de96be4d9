#pragma once
// Rules written for the tests, beyond the built-in ones: together with max_diag (a double angle)
// and max_trace (a direction) they reach every rotation form and every DSL operation, so the
// host-compiled rule functions (codegen_rule_host.cpp) cover all of codegen's lowering.
#include "dsl/rule.hpp"

namespace tensordiag::test_rules {

using namespace dsl::pivot;

// An explicit angle using sqrt, abs, sign, min, max, atan2, /, unary minus and constants.
inline constexpr auto every_operation = dsl::angle_rule(
    "every_operation",
    atan2(b - e, a + d) / 2 + min(abs(a), 0.5) * sign(b) - max(d, -1.5) / sqrt(1 + sq(e)) + -(0.1 * e));

// A weighted objective: a quadratic with constants and a division in its coefficients.
inline constexpr auto weighted = dsl::objective_rule("weighted", 3 * sq(a * c + b * s) + sq(d * c - e * s) / 2);

// A sum of squared one-row forms with constants in them: it has a complex lift
// (dsl/hermitian_form.hpp), whose generated terms multiply and divide complex entries by numbers.
inline constexpr auto scaled_rows = dsl::objective_rule("scaled_rows", sq(2 * a * c + b * s) + sq(d * c - e * s / 4));

// A rule that ignores d: its generated parameter d is [[maybe_unused]].
inline constexpr auto without_d = dsl::angle_rule("without_d", atan2(b, a) + e);

}  // namespace tensordiag::test_rules
