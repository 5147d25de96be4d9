#pragma once
// The loop every engine that reports per sweep runs (DESIGN.md section 2): ask the cancel check,
// sweep, record, ask the callback, stop at the first criterion that fires. An input already
// diagonal (off = 0, so history[0].off_rel == 0) stops at once by tolerance, with no sweep.
#include <vector>

#include "runtime/algorithm/cancellation.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/algorithm/stop_criteria.hpp"

namespace tensordiag::runtime {

// @pre history holds the input's record (sweep 0). `sweep(n)` runs sweep n and returns its record.
// Throws run_cancelled when settings.cancelled says so before a sweep.
template <class Sweep>
StopReason run_sweeps(std::vector<SweepRecord>& history, const RunSettings& settings, Sweep&& sweep) {
  if (history.front().off_rel == 0) return StopReason::tolerance;
  for (int n = 1;; ++n) {
    stop_if_cancelled(settings.cancelled);
    history.push_back(sweep(n));
    const bool stop_asked = settings.on_sweep && settings.on_sweep(history.back());
    if (const auto reason = stop_reason_after(history, settings.stop, stop_asked)) return *reason;
  }
}

}  // namespace tensordiag::runtime
