#pragma once
// When a run stops (DESIGN.md section 2): at off_rel <= tol, when a sweep raised the rule's
// objective (||diag C||^2, or the trace for max_trace) by less than stall_tol relative without
// halving off_rel (a non-diagonalizable tensor has reached its limit), or after max_sweeps. Shared
// by every engine so they stop alike (kernels_templates/small_tensor.cu repeats it on the device).
//
// Why off_rel too: near convergence a sweep's gain of ||diag C||^2 is about off_rel^2 before it,
// so a quadratically converging run (the Jacobi eigenvalue method at D = 2) passes under
// stall_tol = 1e-13 while off_rel still falls from 3e-7 to 1e-12, one sweep short of tol; a run
// at its limit, or at rounding's floor, does not halve off_rel.
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
    const bool no_gain = before > 0 ? (after - before) / before < c.stall_tol : after <= before;
    const bool stalled = no_gain && !(now.off_rel <= 0.5 * last.off_rel);
    if (stalled) return StopReason::stalled;
  }
  if (now.sweep >= c.max_sweeps) return StopReason::max_sweeps;
  return std::nullopt;
}

}  // namespace tensordiag::runtime
