#pragma once
// The HOSVD start (Init::hosvd) around an engine that does not compute it itself: diagonalize()'s
// engines (Engine::starts_from_hosvd false) and the complex engine.
#include <cmath>
#include <utility>

#include "runtime/algorithm/core_figures.hpp"
#include "runtime/algorithm/hosvd_start.hpp"
#include "runtime/run_plan.hpp"

namespace tensordiag::runtime {

// One tensor from the HOSVD start computed on the host (hosvd_start.hpp), for the engines that do not
// compute it themselves (Engine::starts_from_hosvd): run_engine(T', run) -> Result<T> runs the
// engine on T' = T x_n Q_n^T (Q_n^H for a complex T) with the tolerance rescaled so that it still means off(C) <= tol off(T); its history and callback records
// are brought to T's scale (sweep 0 shows off(T') / off(T), what the start gained), its factors
// composed with the Q_n, and the verification made against T itself.
template <class T, class RunEngine>
Result<T> run_from_hosvd(const HostTensor<T>& tensor, const RunPlan& plan, RunEngine&& run_engine) {
  const HosvdStart<T> start = hosvd_start(tensor, plan.run.settings.threads, plan.run.settings.structure);
  const Structure structure = plan.run.settings.structure;
  const double off_input = std::sqrt(core_figures(tensor, structure).off_norm2);
  const double off_start = std::sqrt(core_figures(start.rotated, structure).off_norm2);
  const double scale = off_input > 0 ? off_start / off_input : 0.0;  // T's off_rel of T''s 1
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
  Result<T> result = run_engine(start.rotated, run);
  for (SweepRecord& record : result.history) record.off_rel *= scale;
  compose_with_bases(result.factors, start.bases);
  result.hosvd_start = true;
  result.timings.init_seconds = start.seconds;
  result.timings.setup_seconds += start.seconds;
  result.timings.total_seconds += start.seconds;
  return result;
}

}  // namespace tensordiag::runtime
