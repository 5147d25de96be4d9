#pragma once
// The sweep loop of the CPU engines (DESIGN.md section 2): the input's record, then per sweep
// every pass of `passes` through `step` (the round robin's groups, or the XOR schedule's passes),
// the figures of the core after it (the structure's: core_figures.hpp), and the stop criteria.
// Shared by the general engine (one factor per mode) and the symmetric and skew ones (one Q).
#include <cmath>
#include <vector>

#include "runtime/algorithm/core_figures.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/algorithm/stop_criteria.hpp"
#include "runtime/algorithm/sweep_loop.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/stopwatch.hpp"

namespace tensordiag::runtime {

// The input's record, then the sweeps over `core` (any storage): figures(core) gives its
// CoreFigures, step(core, pass) runs one pass. Fills result's history, stop reason and timings
// (setup from `total`, the sweeps' own).
template <class T, class Core, class Pass, class Figures, class Step>
void sweep_core(Core& core, Result<T>& result, const RunSettings& settings, const std::vector<Pass>& passes,
                const Stopwatch& total, Figures&& figures, Step&& step) {
  const CoreFigures input = figures(core);
  const double off_input = std::sqrt(input.off_norm2);
  result.history.push_back(SweepRecord{0, off_input > 0 ? 1.0 : 0.0, input.diag_norm2, input.trace, 0.0});
  result.timings.setup_seconds = total.seconds();

  const Stopwatch sweeps;
  result.stop_reason = run_sweeps(result.history, settings, [&](int sweep) {
    const Stopwatch this_sweep;
    for (const Pass& pass : passes) {
      // A sweep of a large tensor takes seconds: a cancelled run stops within one pass.
      stop_if_cancelled(settings.cancelled);
      step(core, pass);
    }
    const CoreFigures now = figures(core);
    const double off_rel = off_input > 0 ? std::sqrt(now.off_norm2) / off_input : 0.0;
    return SweepRecord{sweep, off_rel, now.diag_norm2, now.trace, this_sweep.seconds()};
  });
  result.timings.sweeps_seconds = sweeps.seconds();
  result.timings.total_seconds = total.seconds();
}

// Result::factors starts as `factor_count` identities; step(core, pass, factors) runs one pass on
// the core and applies its rotations to the factors.
template <class T, class Pass, class Step>
Result<T> run_cpu_sweeps(const HostTensor<T>& tensor, const RunSettings& settings, int factor_count,
                         const std::vector<Pass>& passes, Step&& step) {
  const Stopwatch total;
  Result<T> result;
  result.backend = Backend::cpu;
  result.core = tensor;
  result.factors.assign(static_cast<std::size_t>(factor_count), Matrix<T>::identity(tensor.size()));
  sweep_core(
      result.core, result, settings, passes, total,
      [&settings](const HostTensor<T>& core) { return core_figures(core, settings.structure); },
      [&](HostTensor<T>& core, const Pass& pass) { step(core, pass, result.factors); });
  return result;
}

}  // namespace tensordiag::runtime
