#include "runtime/distributed/distributed_schedule.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "runtime/algorithm/xor_schedule.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/distributed/swap_arrangement.hpp"

namespace tensordiag::runtime {

namespace {

bool xor_applies(int size, int ranks) {
  return has_xor_schedule(size) && std::has_single_bit(static_cast<unsigned>(ranks)) && size >= 2 * ranks;
}

// Rank r holds the r-th coset of the pass's subspace.
DistributedSchedule xor_stages(int size, int ranks) {
  const int dimension = std::countr_zero(static_cast<unsigned>(size / ranks));
  DistributedSchedule schedule{size, ranks, SweepSchedule::xor_subspaces, {}};
  for (const SubspacePass& pass : xor_schedule(size, dimension)) {
    DistributedStage stage;
    for (const int leader : pass.leaders) {
      std::vector<int> coset;
      for (const int v : pass.span) coset.push_back(leader ^ v);
      std::sort(coset.begin(), coset.end());
      stage.layout.rows.push_back(std::move(coset));
    }
    for (const int c : pass.groups) stage.groups.push_back(pass.global_group(c));
    schedule.stages.push_back(std::move(stage));
  }
  return schedule;
}

// The group's pairs dealt to the ranks in runs as even as they go; an odd N's unpaired index joins
// a rank with the fewest rows (the first such), which holds no pair where ranks = (N + 1) / 2.
SlabLayout layout_of(const PivotGroup& group, int size, int ranks) {
  SlabLayout layout{std::vector<std::vector<int>>(static_cast<std::size_t>(ranks))};
  std::vector<bool> paired(static_cast<std::size_t>(size), false);
  const std::size_t pairs = group.size();
  for (int r = 0; r < ranks; ++r)
    for (std::size_t k = pairs * r / ranks; k < pairs * (r + 1) / ranks; ++k) {
      layout.rows[static_cast<std::size_t>(r)].push_back(group[k].p);
      layout.rows[static_cast<std::size_t>(r)].push_back(group[k].q);
      paired[static_cast<std::size_t>(group[k].p)] = paired[static_cast<std::size_t>(group[k].q)] = true;
    }
  for (int i = 0; i < size; ++i)
    if (!paired[static_cast<std::size_t>(i)]) {
      auto fewest = std::min_element(layout.rows.begin(), layout.rows.end(),
                                     [](const auto& a, const auto& b) { return a.size() < b.size(); });
      fewest->push_back(i);
    }
  for (auto& rows : layout.rows) std::sort(rows.begin(), rows.end());
  return layout;
}

DistributedSchedule round_robin_stages(int size, int ranks) {
  DistributedSchedule schedule{size, ranks, SweepSchedule::round_robin, {}};
  for (PivotGroup& group : round_robin_schedule(size)) {
    if (schedule.stages.empty() || !schedule.stages.back().layout.holds_whole(group))
      schedule.stages.push_back({layout_of(group, size, ranks), {}});
    schedule.stages.back().groups.push_back(std::move(group));
  }
  return schedule;
}

}  // namespace

std::vector<PivotGroup> DistributedSchedule::groups() const {
  std::vector<PivotGroup> all;
  for (const DistributedStage& stage : stages) all.insert(all.end(), stage.groups.begin(), stage.groups.end());
  return all;
}

std::size_t DistributedSchedule::most_rows() const {
  std::size_t most = 0;
  for (const DistributedStage& stage : stages)
    for (const auto& rows : stage.layout.rows) most = std::max(most, rows.size());
  return most;
}

std::size_t DistributedSchedule::rows_moved_per_sweep() const {
  if (stages.size() < 2) return 0;
  std::size_t moved = 0;
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const SlabLayout& from = stages[s].layout;
    const SlabLayout& to = stages[(s + 1) % stages.size()].layout;
    for (int i = 0; i < size; ++i) moved += from.owner(i) != to.owner(i) ? 1 : 0;
  }
  return moved;
}

DistributedSchedule distributed_schedule(int size, int ranks, SweepSchedule asked) {
  if (ranks < 1) throw internal_error("distributed_schedule: no ranks");
  // A group's slots: its pairs, and an odd N's unpaired index, which may be a rank's only row.
  if (const int most = std::max(1, (size + 1) / 2); most < ranks)
    throw user_error("more ranks (" + std::to_string(ranks) + ") than the distributed mode of size N = " +
                     std::to_string(size) + " can take: each rank holds whole index pairs of it (or an odd N's " +
                     "unpaired index), so use at most " + std::to_string(most) + (most == 1 ? " rank" : " ranks"));
  if (asked == SweepSchedule::xor_subspaces && !xor_applies(size, ranks))
    throw user_error("--schedule xor on " + std::to_string(ranks) + " ranks needs N and the number of ranks to be "
                     "powers of two (N = " + std::to_string(size) + "): use --schedule round-robin or auto");
  if (asked == SweepSchedule::round_robin || !xor_applies(size, ranks)) return round_robin_stages(size, ranks);
  DistributedSchedule schedule = xor_stages(size, ranks);
  arrange_for_swaps(schedule);  // GPU ranks need it; CPU ranks trade fewer, or as many, rows
  return schedule;
}

}  // namespace tensordiag::runtime
