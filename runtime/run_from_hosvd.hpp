#pragma once
// The HOSVD start (Init::hosvd) around an engine that does not compute it itself: diagonalize()'s
// engines (Engine::starts_from_hosvd false), the complex engine and the packed one.
#include <cmath>
#include <utility>
#include <vector>

#include "runtime/algorithm/core_figures.hpp"
#include "runtime/algorithm/hosvd_start.hpp"
#include "runtime/run_plan.hpp"

namespace tensordiag::runtime {

// A run from a start T' = T x_n Q_n^T with off(T') = scale off(T): the engine's settings with the
// tolerance rescaled so that it still means off(C) <= tol off(T) and its callback's records brought
// to T's scale (sweep 0 shows off(T') / off(T), what the start gained); no verification (the caller
// checks against T itself) and no second start. `plan` must outlive the run.
inline EngineRun run_from_start(const RunPlan& plan, double scale) {
  EngineRun run = plan.run;
  if (scale > 0) run.settings.stop.tol = plan.run.settings.stop.tol / scale;
  if (plan.run.settings.on_sweep)
    run.settings.on_sweep = [&plan, scale](const SweepRecord& record) {
      SweepRecord rescaled = record;
      rescaled.off_rel *= scale;
      return plan.run.settings.on_sweep(rescaled);
    };
  run.settings.verify = false;
  run.settings.init = Init::identity;
  return run;
}

// The run's result brought back to T: history at T's scale, factors composed with the Q_n, the
// start's time counted.
template <class T>
void finish_from_start(Result<T>& result, double scale, const std::vector<Matrix<T>>& bases, double seconds) {
  for (SweepRecord& record : result.history) record.off_rel *= scale;
  compose_with_bases(result.factors, bases);
  result.hosvd_start = true;
  result.timings.init_seconds = seconds;
  result.timings.setup_seconds += seconds;
  result.timings.total_seconds += seconds;
}

// One tensor from the HOSVD start computed on the host (hosvd_start.hpp), for the engines that do not
// compute it themselves (Engine::starts_from_hosvd): run_engine(T', run) -> Result<T> runs the
// engine on T' = T x_n Q_n^T (Q_n^H for a complex T), through run_from_start and finish_from_start.
template <class T, class RunEngine>
Result<T> run_from_hosvd(const HostTensor<T>& tensor, const RunPlan& plan, RunEngine&& run_engine) {
  const HosvdStart<T> start = hosvd_start(tensor, plan.run.settings.threads, plan.run.settings.structure);
  const Structure structure = plan.run.settings.structure;
  const double off_input = std::sqrt(core_figures(tensor, structure).off_norm2);
  const double off_start = std::sqrt(core_figures(start.rotated, structure).off_norm2);
  const double scale = off_input > 0 ? off_start / off_input : 0.0;  // T's off_rel of T''s 1
  Result<T> result = run_engine(start.rotated, run_from_start(plan, scale));
  finish_from_start(result, scale, start.bases, start.seconds);
  return result;
}

}  // namespace tensordiag::runtime
