#include "runtime/algorithm/pivot_schedule.hpp"

#include <algorithm>
#include <utility>

namespace tensordiag::runtime {

// Circle method on M = N rounded up to even players: in round r, players i != j of 0..M-2 meet when
// i + j = r (mod M-1), and the one i with 2i = r (mod M-1) meets player M-1. For odd N, player
// M-1 = N is a bye and its pair is dropped.
PivotSchedule round_robin_schedule(int size) {
  const int players = size % 2 == 0 ? size : size + 1;
  const int rounds = players - 1;
  std::vector<PivotGroup> groups;
  groups.reserve(static_cast<std::size_t>(rounds));
  for (int r = 0; r < rounds; ++r) {
    PivotGroup group;
    for (int i = 0; i < rounds; ++i) {
      const int j = ((r - i) % rounds + rounds) % rounds;
      if (i < j) group.push_back({i, j});
      if (i == j && players - 1 < size) group.push_back({i, players - 1});
    }
    std::sort(group.begin(), group.end(), [](PivotPair x, PivotPair y) { return x.p < y.p; });
    groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace tensordiag::runtime
