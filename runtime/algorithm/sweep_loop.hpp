#pragma once
// The loop every engine that reports per sweep runs (DESIGN.md section 2): sweep, record, ask the
// callback, stop at the first criterion that fires. An input already diagonal (off = 0, so
// history[0].off_rel == 0) stops at once by tolerance, with no sweep.
#include <functional>
#include <optional>
#include <vector>

#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/stop_criteria.hpp"

namespace tensordiag::runtime {

// @pre history holds the input's record (sweep 0). `sweep(n)` runs sweep n and returns its record.
template <class Sweep>
StopReason run_sweeps(std::vector<SweepRecord>& history, const StopCriteria& stop,
                      const std::function<bool(const SweepRecord&)>& on_sweep, Sweep&& sweep) {
  if (history.front().off_rel == 0) return StopReason::tolerance;
  for (int n = 1;; ++n) {
    history.push_back(sweep(n));
    const bool stop_asked = on_sweep && on_sweep(history.back());
    if (const auto reason = stop_reason_after(history, stop, stop_asked)) return *reason;
  }
}

}  // namespace tensordiag::runtime
