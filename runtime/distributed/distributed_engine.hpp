#pragma once
// The sweeps of a tensor spread over ranks (issue 14; docs/DESIGN.md, "Between GPUs and hosts"):
// the loop of the CPU engine (cpu_sweeps.hpp) with a slab for the core. Each stage of the sweep
// (distributed_schedule.hpp) first brings the slabs to its layout, then runs its groups: every rank
// computes the angles of the pairs whose rows it holds (the pivot check's gathers summed across the
// ranks), the ranks share them (D x N/2 pairs of numbers), and each applies the whole group to its
// rows and to its copy of the factors. On one rank with the same group order this is the CPU
// engine's run, bit for bit; on P ranks too, but for the figures' order of addition.
#include <cmath>
#include <optional>

#include "runtime/algorithm/cancellation.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/algorithm/sweep_loop.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/distributed/communicator.hpp"
#include "runtime/distributed/distributed_result.hpp"
#include "runtime/distributed/distributed_schedule.hpp"
#include "runtime/distributed/rank_agreement.hpp"
#include "runtime/distributed/row_exchange.hpp"
#include "runtime/distributed/slab_figures.hpp"
#include "runtime/distributed/slab_pass.hpp"
#include "runtime/engines/group_step.hpp"

namespace tensordiag::runtime {

// One group on the slab: its angles, shared, then its rotations on the rows and the factors.
template <class T, class Rule>
void slab_group_step(Slab<T>& slab, std::vector<Matrix<T>>& factors, const PivotGroup& pairs, const Rule& rule,
                     const RunSettings& settings, Communicator& comm, PivotCheckCount* count) {
  const IndexOffsets offsets = slab.offsets();
  std::vector<bool> owned(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) owned[k] = offsets.holds(slab.sliced_mode(), pairs[k].p);
  const auto sum_across_ranks = [&comm](std::vector<double>& values) { comm.sum_parts(values); };
  GroupRotations<T> group = group_angles(slab.values.data(), offsets, slab.size, pairs, owned, rule, settings.eta,
                                         settings.threads, count, sum_across_ranks);
  share_rotations(group, owned, slab.order, sum_across_ranks);
  apply_slab_pass(slab, group, settings.threads);
  apply_group_to_factors(factors, group, settings.threads);
}

// @pre `slab` holds the first stage's layout.
template <class T, class Rule>
DistributedResult<T> run_distributed_engine(Slab<T> slab, const DistributedSchedule& schedule, const Rule& rule,
                                            RunSettings settings, Communicator& comm) {
  const Stopwatch total;
  DistributedResult<T> out;
  Result<T>& result = out.run;
  result.backend = Backend::cpu;
  result.factors.assign(static_cast<std::size_t>(slab.order), Matrix<T>::identity(slab.size));
  result.schedule = to_string(schedule.kind);
  result.passes_per_sweep = static_cast<int>(schedule.groups().size());
  std::optional<PivotCheckCount> checks;
  if (settings.eta > 0) checks.emplace();

  decide_stops_together(settings, comm);

  const SlabFigures input = slab_figures(slab, comm);
  const double off_input = std::sqrt(input.off_norm2);
  result.history.push_back(SweepRecord{0, off_input > 0 ? 1.0 : 0.0, input.diag_norm2, input.trace, 0.0});
  result.timings.setup_seconds = total.seconds();

  DistributionFigures& figures = out.distribution;
  figures.ranks = comm.size();
  figures.transport = comm.description();
  figures.stages_per_sweep = static_cast<int>(schedule.stages.size());
  figures.bytes_per_sweep = schedule.rows_moved_per_sweep() * slab.row_length() * sizeof(T);

  const Stopwatch sweeps;
  result.stop_reason = run_sweeps(result.history, settings, [&](int sweep) {
    const Stopwatch this_sweep;
    for (const DistributedStage& stage : schedule.stages) {
      if (slab.held.rows != stage.layout.rows) {
        const Stopwatch exchange;
        figures.bytes_sent += exchange_rows(slab, stage.layout, comm);
        figures.exchange_seconds += exchange.seconds();
      }
      // A sweep of a large tensor takes long: a cancelled run stops within a stage.
      stop_if_cancelled(settings.cancelled);
      for (const PivotGroup& pairs : stage.groups)
        slab_group_step(slab, result.factors, pairs, rule, settings, comm, checks ? &*checks : nullptr);
    }
    const SlabFigures now = slab_figures(slab, comm);
    return SweepRecord{sweep, off_input > 0 ? std::sqrt(now.off_norm2) / off_input : 0.0, now.diag_norm2, now.trace,
                       this_sweep.seconds()};
  });
  result.timings.sweeps_seconds = sweeps.seconds();
  result.timings.total_seconds = total.seconds();
  result.pivot_checks = checks;
  out.core = std::move(slab);
  return out;
}

}  // namespace tensordiag::runtime
