#include "runtime/algorithm/skew_schedule.hpp"

#include <algorithm>

#include "runtime/algorithm/skew_blocks.hpp"
#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

// The indices of unit u: block u's D indices, or one leftover index past the blocks.
std::vector<int> unit_indices(int unit, int order, int blocks) {
  std::vector<int> indices;
  if (unit < blocks)
    for (int n = 0; n < order; ++n) indices.push_back(unit * order + n);
  else
    indices.push_back(blocks * order + (unit - blocks));
  return indices;
}

}  // namespace

PivotSchedule skew_schedule(int order, int size) {
  if (order < 2 || size < order) throw internal_error("skew_schedule: needs N >= D >= 2");
  const int blocks = skew_block_count(order, size);
  const int units = blocks + size % order;
  PivotSchedule schedule;
  if (units < 2) return schedule;
  for (const PivotGroup& round : round_robin_schedule(units)) {
    std::vector<PivotGroup> unit_pairs;  // each unit pair's index pairs, in increasing (p, q)
    std::size_t longest = 0;
    for (const auto [u, v] : round) {
      if (u >= blocks && v >= blocks) continue;  // two leftover indices: no block entry moves
      PivotGroup pairs;
      for (const int p : unit_indices(std::min(u, v), order, blocks))
        for (const int q : unit_indices(std::max(u, v), order, blocks)) pairs.push_back({p, q});
      longest = std::max(longest, pairs.size());
      unit_pairs.push_back(std::move(pairs));
    }
    for (std::size_t j = 0; j < longest; ++j) {
      PivotGroup group;
      for (const PivotGroup& pairs : unit_pairs)
        if (j < pairs.size()) group.push_back(pairs[j]);
      std::sort(group.begin(), group.end(), [](PivotPair x, PivotPair y) { return x.p < y.p; });
      schedule.push_back(std::move(group));
    }
  }
  return schedule;
}

PivotGroup padded_to_matching(const PivotGroup& live, int size) {
  std::vector<bool> named(static_cast<std::size_t>(size), false);
  for (const auto [p, q] : live) named[static_cast<std::size_t>(p)] = named[static_cast<std::size_t>(q)] = true;
  PivotGroup group = live;
  int waiting = -1;
  for (int i = 0; i < size; ++i) {
    if (named[static_cast<std::size_t>(i)]) continue;
    if (waiting < 0) {
      waiting = i;
    } else {
      group.push_back({waiting, i});
      waiting = -1;
    }
  }
  return group;
}

PaddedSkewSchedule padded_skew_schedule(int order, int size) {
  PaddedSkewSchedule padded;
  for (const PivotGroup& live : skew_schedule(order, size)) {
    padded.live.push_back(static_cast<int>(live.size()));
    padded.groups.push_back(padded_to_matching(live, size));
  }
  return padded;
}

}  // namespace tensordiag::runtime
