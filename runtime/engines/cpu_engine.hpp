#pragma once
// The CPU engine: the sweeps of DESIGN.md section 2 with the fused group step of section 3.
// Per group: the 2^D pivot subtensor of every pair is gathered, the rule's D micro-iterations run
// on it (with the optional pivot check), and all D modes' rotations are then applied to the tensor
// in one pass. Templated on the rule so a rule written in the DSL runs as it is.
#include <cmath>

#include "dsl/rule.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/algorithm/sweep_loop.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/engines/group_step.hpp"
#include "runtime/engines/subspace_step.hpp"
#include "runtime/algorithm/stop_criteria.hpp"
#include "runtime/algorithm/verification.hpp"

namespace tensordiag::runtime {

// The run with any DSL rule; `settings.pivot_norm` does not apply (an exact eigensolver, always).
template <class T, class Rule>
Result<T> run_cpu_engine(const HostTensor<T>& tensor, const Rule& rule, const RunSettings& settings) {
  const Stopwatch total;
  Result<T> result;
  result.backend = Backend::cpu;
  result.core = tensor;
  result.factors.assign(static_cast<std::size_t>(tensor.order()), Matrix<T>::identity(tensor.size()));
  const std::vector<SweepPass> passes = cpu_sweep_passes(tensor.order(), tensor.size(), settings);
  result.schedule = settings.schedule == SweepSchedule::xor_subspaces ? "xor" : "round-robin";
  result.passes_per_sweep = static_cast<int>(passes.size());
  if (settings.eta > 0) result.pivot_checks.emplace();
  const double off_input = std::sqrt(off_norm2(tensor));
  auto record = [off_input](int sweep, const HostTensor<T>& core, double seconds) {
    const double off_rel = off_input > 0 ? std::sqrt(off_norm2(core)) / off_input : 0.0;
    return SweepRecord{sweep, off_rel, diag_norm2(core), trace(core), seconds};
  };
  result.history.push_back(SweepRecord{0, off_input > 0 ? 1.0 : 0.0, diag_norm2(tensor), trace(tensor), 0.0});
  result.timings.setup_seconds = total.seconds();

  const Stopwatch sweeps;
  result.stop_reason = run_sweeps(result.history, settings, [&](int sweep) {
    const Stopwatch this_sweep;
    for (const SweepPass& pass : passes) {
      // A sweep of a large tensor takes seconds: a cancelled run stops within one pass.
      stop_if_cancelled(settings.cancelled);
      sweep_pass(result.core, result.factors, pass, rule, settings.eta, settings.threads,
                 result.pivot_checks ? &*result.pivot_checks : nullptr);
    }
    SweepRecord figures = record(sweep, result.core, 0.0);
    figures.seconds = this_sweep.seconds();
    return figures;
  });
  result.timings.sweeps_seconds = sweeps.seconds();
  result.timings.total_seconds = total.seconds();
  return result;
}

}  // namespace tensordiag::runtime
