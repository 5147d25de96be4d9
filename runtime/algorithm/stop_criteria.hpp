#pragma once
// When a run stops (DESIGN.md section 2): at off_rel <= tol, when a sweep raised the rule's
// objective (||diag C||^2, or the trace for max_trace) by less than stall_tol relative (a non-diagonalizable tensor has reached its limit), or after
// max_sweeps. Shared by every engine so they stop alike.
#include <optional>
#include <vector>

#include "dsl/rule_info.hpp"
#include "runtime/algorithm/run_result.hpp"

namespace tensordiag::runtime {

struct StopCriteria {
  int max_sweeps;
  double tol;
  double stall_tol;
  dsl::StallFigure stalls_on = dsl::StallFigure::diag_norm2;  // the rule's property (dsl/rule_info.hpp)
};

// Called after each sweep with the history so far (history[0] = the input).
inline std::optional<StopReason> stop_reason_after(const std::vector<SweepRecord>& history, const StopCriteria& c,
                                                   bool callback_asked_to_stop) {
  const SweepRecord& now = history.back();
  if (now.off_rel <= c.tol) return StopReason::tolerance;
  if (callback_asked_to_stop) return StopReason::callback;
  if (history.size() >= 2) {
    const SweepRecord& last = history[history.size() - 2];
    const bool on_trace = c.stalls_on == dsl::StallFigure::trace;
    const double before = on_trace ? last.trace : last.diag_norm2;
    const double after = on_trace ? now.trace : now.diag_norm2;
    const bool stalled = before > 0 ? (after - before) / before < c.stall_tol : after <= before;
    if (stalled) return StopReason::stalled;
  }
  if (now.sweep >= c.max_sweeps) return StopReason::max_sweeps;
  return std::nullopt;
}

}  // namespace tensordiag::runtime
