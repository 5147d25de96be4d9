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
  explicit SwapSearch(const DistributedSchedule& schedule)
      : schedule_(schedule), ranks_(static_cast<std::size_t>(schedule.ranks)), deals_(schedule.stages.size()) {
    deals_[0].resize(ranks_);
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

  // held[j * P + r]: the rows of stage s's part j that rank r holds under `owner`.
  std::vector<int> held_by(std::size_t s, const std::vector<int>& owner) const {
    std::vector<int> held(ranks_ * ranks_, 0);
    const auto& parts = schedule_.stages[s].layout.rows;
    for (std::size_t j = 0; j < parts.size(); ++j)
      for (const int index : parts[j]) ++held[j * ranks_ + static_cast<std::size_t>(owner[static_cast<std::size_t>(index)])];
    return held;
  }

  // The deals of stage s whose change from the stage before swaps in place (every pair of ranks
  // trades as many rows each way) and, for the last stage, whose change back to the first does
  // too; each with the rows it keeps in place. Ranks get their parts in order, and a deal is cut
  // as soon as a pair of ranks that both have theirs would trade unevenly.
  struct Candidates {
    const std::vector<int>& from;  // rows of part j on rank r before the change
    const std::vector<int>* back;  // rows of part j that the first stage puts on rank r, or null
    std::size_t ranks;
    Deal deal;
    std::vector<bool> used;
    std::vector<std::pair<int, Deal>> found;
    long long& work;

    void extend(std::size_t t, int kept) {
      if (++work > work_limit) return;
      if (t == ranks) {
        found.emplace_back(kept, deal);
        return;
      }
      for (std::size_t j = 0; j < ranks; ++j) {
        if (used[j]) continue;
        deal[t] = static_cast<int>(j);
        bool even = true;
        for (std::size_t r = 0; r < t && even; ++r) {
          const auto mine = static_cast<std::size_t>(deal[r]);
          even = from[j * ranks + r] == from[mine * ranks + t] &&
                 (back == nullptr || (*back)[j * ranks + r] == (*back)[mine * ranks + t]);
        }
        if (!even) continue;
        used[j] = true;
        extend(t + 1, kept + from[j * ranks + t]);
        used[j] = false;
      }
    }
  };

  bool descend(std::size_t s) {
    const std::size_t stages = schedule_.stages.size();
    if (s == stages) return true;
    const std::vector<int> from = held_by(s, owners(s - 1, deals_[s - 1]));
    const std::vector<int> back = held_by(s, owners(0, deals_[0]));
    Candidates candidates{from, s + 1 == stages ? &back : nullptr, ranks_, Deal(ranks_), std::vector<bool>(ranks_),
                          {}, work_};
    candidates.extend(0, 0);
    if (work_ > work_limit) return false;
    std::stable_sort(candidates.found.begin(), candidates.found.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& [kept, deal] : candidates.found) {
      deals_[s] = std::move(deal);
      if (descend(s + 1)) return true;
      if (work_ > work_limit) return false;
    }
    return false;
  }

  // Partial deals looked at, over the whole search: a bound on the time it may take.
  static constexpr long long work_limit = 2'000'000;
  const DistributedSchedule& schedule_;
  std::size_t ranks_;
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
