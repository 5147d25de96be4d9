#pragma once
// One human line on how a run ended: which stopping criterion fired (DESIGN.md section 2) and the
// off_rel it reached, a stall named by the figure the rule's objective climbs. The
// command prints it and the Python module's Result.summary() returns it, so both word it alike.
#include <string>

#include "dsl/rule_info.hpp"
#include "runtime/algorithm/run_result.hpp"

namespace tensordiag::runtime {

// "converged after 5 sweeps: off_rel 3.938e-16 <= tol 1e-12", "stalled after 9 sweeps: off_rel
// 2.1e-01 (a sweep raised the trace by less than stall_tol 1e-13, relative)", ...
std::string stop_summary(StopReason reason, dsl::StallFigure stalls_on, int sweeps, double off_rel, double tol,
                         double stall_tol);

template <class T>
std::string stop_summary(const Result<T>& result) {
  return stop_summary(result.stop_reason, result.stalls_on, result.sweeps(), result.history.back().off_rel, result.tol,
                      result.stall_tol);
}

}  // namespace tensordiag::runtime
