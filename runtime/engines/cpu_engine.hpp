#pragma once
// The CPU engine: the sweeps of DESIGN.md section 2 with the fused group step of section 3.
// Per group: the 2^D pivot subtensor of every pair is gathered, the rule's D micro-iterations run
// on it (with the optional pivot check), and all D modes' rotations are then applied to the tensor
// in one pass. Templated on the rule so a rule written in the DSL runs as it is.
#include <cmath>

#include "dsl/rule.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/engines/cpu_sweeps.hpp"
#include "runtime/engines/group_step.hpp"
#include "runtime/engines/subspace_step.hpp"
#include "runtime/algorithm/stop_criteria.hpp"
#include "runtime/algorithm/verification.hpp"

namespace tensordiag::runtime {

// The run with any DSL rule; `settings.pivot_norm` does not apply (the bounds on the norm, else an
// exact eigensolver).
template <class T, class Rule>
Result<T> run_cpu_engine(const HostTensor<T>& tensor, const Rule& rule, const RunSettings& settings) {
  const std::vector<SweepPass> passes = cpu_sweep_passes(tensor.order(), tensor.size(), settings);
  std::optional<PivotCheckCount> checks;
  if (settings.eta > 0) checks.emplace();
  Result<T> result = run_cpu_sweeps(tensor, settings, tensor.order(), passes,
                                    [&](HostTensor<T>& core, const SweepPass& pass, std::vector<Matrix<T>>& factors) {
                                      sweep_pass(core, factors, pass, rule, settings.eta, settings.threads,
                                                 checks ? &*checks : nullptr);
                                    });
  result.schedule = to_string(settings.schedule == SweepSchedule::xor_subspaces ? SweepSchedule::xor_subspaces
                                                                                : SweepSchedule::round_robin);
  result.passes_per_sweep = static_cast<int>(passes.size());
  result.pivot_checks = checks;
  return result;
}

}  // namespace tensordiag::runtime
