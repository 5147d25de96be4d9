#include "runtime/distributed/swap_arrangement.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

#include "runtime/distributed/row_exchange.hpp"

namespace tensordiag::runtime {

namespace {

// A deal: rank r holds part deal[r] of its stage (the parts in the stage's original order).
using Deal = std::vector<int>;

class SwapSearch {
public:
  explicit SwapSearch(const DistributedSchedule& schedule) : schedule_(schedule), deals_(schedule.stages.size()) {
    deals_[0].resize(static_cast<std::size_t>(schedule.ranks));
    std::iota(deals_[0].begin(), deals_[0].end(), 0);
  }

  bool run() { return descend(1); }
  const std::vector<Deal>& deals() const { return deals_; }

private:
  // Every index's rank at stage s under `deal`.
  std::vector<int> owners(std::size_t s, const Deal& deal) const {
    std::vector<int> owner(static_cast<std::size_t>(schedule_.size), -1);
    for (std::size_t r = 0; r < deal.size(); ++r)
      for (const int index : schedule_.stages[s].layout.rows[static_cast<std::size_t>(deal[r])])
        owner[static_cast<std::size_t>(index)] = static_cast<int>(r);
    return owner;
  }

  // The rows kept in place by the change from `from` to `to`, or -1 where some pair of ranks would
  // not trade as many rows each way.
  int kept_if_swaps(const std::vector<int>& from, const std::vector<int>& to) const {
    const auto ranks = static_cast<std::size_t>(schedule_.ranks);
    std::vector<int> counts(ranks * ranks, 0);
    int kept = 0;
    for (std::size_t i = 0; i < from.size(); ++i) {
      ++counts[static_cast<std::size_t>(from[i]) * ranks + static_cast<std::size_t>(to[i])];
      kept += from[i] == to[i] ? 1 : 0;
    }
    for (std::size_t r = 0; r < ranks; ++r)
      for (std::size_t q = r + 1; q < ranks; ++q)
        if (counts[r * ranks + q] != counts[q * ranks + r]) return -1;
    return kept;
  }

  bool descend(std::size_t s) {
    const std::size_t stages = schedule_.stages.size();
    if (s == stages) return true;
    const std::vector<int> before = owners(s - 1, deals_[s - 1]);
    const std::vector<int> first = owners(0, deals_[0]);
    std::vector<std::pair<int, Deal>> candidates;
    Deal deal(static_cast<std::size_t>(schedule_.ranks));
    std::iota(deal.begin(), deal.end(), 0);
    do {
      if (++work_ > work_limit) return false;
      const std::vector<int> mine = owners(s, deal);
      const int kept = kept_if_swaps(before, mine);
      // The last stage must also change back to the first in place.
      if (kept >= 0 && (s + 1 < stages || kept_if_swaps(mine, first) >= 0)) candidates.emplace_back(kept, deal);
    } while (std::next_permutation(deal.begin(), deal.end()));
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& [kept, candidate] : candidates) {
      deals_[s] = std::move(candidate);
      if (descend(s + 1)) return true;
      if (work_ > work_limit) return false;
    }
    return false;
  }

  // Deals looked at: N = 64 on 8 ranks needs about 2 s of backtracking, every other case tested
  // (N <= 64, P <= 8) well under 0.1 s.
  static constexpr long long work_limit = 40'000'000;
  const DistributedSchedule& schedule_;
  std::vector<Deal> deals_;
  long long work_ = 0;
};

}  // namespace

bool arrange_for_swaps(DistributedSchedule& schedule) {
  if (swaps_in_place(schedule)) return true;
  if (schedule.ranks > 8 || !std::has_single_bit(static_cast<unsigned>(schedule.ranks))) return false;
  SwapSearch search(schedule);
  if (!search.run()) return false;
  for (std::size_t s = 1; s < schedule.stages.size(); ++s) {
    const SlabLayout dealt = schedule.stages[s].layout;
    for (std::size_t r = 0; r < dealt.rows.size(); ++r)
      schedule.stages[s].layout.rows[r] = dealt.rows[static_cast<std::size_t>(search.deals()[s][r])];
  }
  return true;
}

}  // namespace tensordiag::runtime
