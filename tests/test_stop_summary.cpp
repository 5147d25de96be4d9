// The line that says how a run ended (runtime/stop_summary.hpp): one wording per stop reason, a
// stall named by the objective the rule stalls on.
#include <doctest/doctest.h>

#include "runtime/stop_summary.hpp"

using namespace tensordiag::runtime;

TEST_CASE("stop_summary: every stop reason, a stall against the rule's objective") {
  CHECK(stop_summary(StopReason::tolerance, "max_diag", 5, 3.938e-16, 1e-12, 1e-13) ==
        "converged after 5 sweeps: off_rel 3.938e-16 <= tol 1e-12");
  CHECK(stop_summary(StopReason::stalled, "max_diag", 9, 0.25, 1e-12, 1e-13) ==
        "stalled after 9 sweeps: off_rel 2.500e-01 (a sweep raised ||diag C||^2 by less than stall_tol 1e-13, relative)");
  CHECK(stop_summary(StopReason::stalled, "max_trace", 9, 0.25, 1e-5, 1e-6) ==
        "stalled after 9 sweeps: off_rel 2.500e-01 (a sweep raised the trace by less than stall_tol 1e-06, relative)");
  CHECK(stop_summary(StopReason::max_sweeps, "max_trace", 3, 0.5, 1e-12, 1e-13) ==
        "stopped at max_sweeps (3): off_rel 5.000e-01 > tol 1e-12");
  CHECK(stop_summary(StopReason::callback, "max_diag", 2, 0.125, 1e-12, 1e-13) ==
        "stopped by the caller after 2 sweeps: off_rel 1.250e-01");
}

TEST_CASE("stalls_on_trace: max_trace alone stalls on the trace") {
  CHECK(stalls_on_trace("max_trace"));
  CHECK_FALSE(stalls_on_trace("max_diag"));
}
