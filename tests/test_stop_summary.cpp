// The line that says how a run ended (runtime/algorithm/stop_summary.hpp): one wording per stop
// reason, a stall named by the figure the rule climbs; and the registry property it comes from.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "runtime/algorithm/stop_summary.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using dsl::StallFigure;

TEST_CASE("stop_summary: every stop reason, a stall against the rule's objective") {
  CHECK(stop_summary(StopReason::tolerance, StallFigure::diag_norm2, 5, 3.938e-16, 1e-12, 1e-13) ==
        "converged after 5 sweeps: off_rel 3.938e-16 <= tol 1e-12");
  CHECK(stop_summary(StopReason::stalled, StallFigure::diag_norm2, 9, 0.25, 1e-12, 1e-13) ==
        "stalled after 9 sweeps: off_rel 2.500e-01 (a sweep raised ||diag C||^2 by less than stall_tol 1e-13, relative, and did not halve off_rel)");
  CHECK(stop_summary(StopReason::stalled, StallFigure::trace, 9, 0.25, 1e-5, 1e-6) ==
        "stalled after 9 sweeps: off_rel 2.500e-01 (a sweep raised the trace by less than stall_tol 1e-06, relative, and did not halve off_rel)");
  CHECK(stop_summary(StopReason::max_sweeps, StallFigure::trace, 3, 0.5, 1e-12, 1e-13) ==
        "stopped at max_sweeps (3): off_rel 5.000e-01 > tol 1e-12");
  CHECK(stop_summary(StopReason::callback, StallFigure::diag_norm2, 2, 0.125, 1e-12, 1e-13) ==
        "stopped by the caller after 2 sweeps: off_rel 1.250e-01");
}

TEST_CASE("the rule registry: max_trace alone stalls on the trace, and lowering keeps the property") {
  REQUIRE(codegen::find_builtin_rule("max_trace") != nullptr);
  CHECK(codegen::find_builtin_rule("max_trace")->stalls_on == StallFigure::trace);
  CHECK(codegen::find_builtin_rule("max_diag")->stalls_on == StallFigure::diag_norm2);
  CHECK(codegen::find_builtin_rule("max_everything") == nullptr);
  CHECK(codegen::lower_builtin_rule("max_trace").stalls_on == StallFigure::trace);
  CHECK(codegen::lower_builtin_rule("max_diag").stalls_on == StallFigure::diag_norm2);
  CHECK(codegen::builtin_rule_names() == std::vector<std::string>{"max_diag", "max_trace"});
}
