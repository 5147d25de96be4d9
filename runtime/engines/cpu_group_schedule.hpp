#pragma once
// The sweep of the CPU engines that run one pivot group a pass (the symmetric and complex ones):
// the round robin, or with `--schedule xor` (N a power of two) the XOR groups in the order of the
// GPU's subspace passes with cells of 8 (xor_schedule.hpp: xor_groups_in_pass_order), so that both
// backends run the same rotations. Each group stays a pass of its own: on the CPU the cells' block
// products cost more than the passes they save (subspace_step.hpp).
#include <string>

#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/run_options.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/algorithm/xor_schedule.hpp"

namespace tensordiag::runtime {

inline bool cpu_runs_xor_groups(int size, const RunSettings& settings) {
  return settings.schedule == SweepSchedule::xor_subspaces && has_xor_schedule(size);
}

inline PivotSchedule cpu_group_schedule(int size, const RunSettings& settings) {
  return cpu_runs_xor_groups(size, settings) ? xor_groups_in_pass_order(size, 3) : round_robin_schedule(size);
}

// Result::schedule and Result::passes_per_sweep of such a run.
template <class T>
void record_group_schedule(Result<T>& result, int size, const RunSettings& settings, const PivotSchedule& schedule) {
  result.schedule = std::string(
      to_string(cpu_runs_xor_groups(size, settings) ? SweepSchedule::xor_subspaces : SweepSchedule::round_robin));
  result.passes_per_sweep = static_cast<int>(schedule.size());
}

}  // namespace tensordiag::runtime
