#pragma once
// The loop every engine that reports per sweep runs (DESIGN.md section 2): ask the cancel check,
// sweep, record, ask the callback, stop at the first criterion that fires. An input already
// diagonal (off = 0, so history[0].off_rel == 0) stops at once by tolerance, with no sweep.
#include <functional>
#include <optional>
#include <type_traits>
#include <vector>

#include "runtime/algorithm/cancellation.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/algorithm/stop_criteria.hpp"

namespace tensordiag::runtime {

// Asked by a sweep that knows its record before its work is done (the GPU ranks' change of layout
// at a sweep's end runs the next sweep's first pass only if that sweep will run): takes the record
// into the history, asks the callback and the criteria, and says whether the run goes on. A sweep
// asks it once at most; run_sweeps keeps that answer, and the record the sweep returns is the same.
using GoesOn = std::function<bool(const SweepRecord&)>;

// @pre history holds the input's record (sweep 0). `sweep(n)`, or `sweep(n, goes_on)`, runs sweep
// n and returns its record. Throws run_cancelled when settings.cancelled says so before a sweep.
template <class Sweep>
StopReason run_sweeps(std::vector<SweepRecord>& history, const RunSettings& settings, Sweep&& sweep) {
  if (history.front().off_rel == 0) return StopReason::tolerance;
  for (int n = 1;; ++n) {
    stop_if_cancelled(settings.cancelled);
    std::optional<std::optional<StopReason>> reason;  // set once the sweep's record is in
    const GoesOn take = [&](const SweepRecord& record) {
      history.push_back(record);
      const bool stop_asked = settings.on_sweep && settings.on_sweep(history.back());
      reason = stop_reason_after(history, settings.stop, stop_asked);
      return !reason->has_value();
    };
    if constexpr (std::is_invocable_v<Sweep&, int, const GoesOn&>) {
      const SweepRecord record = sweep(n, take);
      if (!reason) take(record);
    } else {
      take(sweep(n));
    }
    if (*reason) return **reason;
  }
}

}  // namespace tensordiag::runtime
