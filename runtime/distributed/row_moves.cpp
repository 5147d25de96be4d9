#include "runtime/distributed/row_moves.hpp"

#include <algorithm>
#include <deque>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

// A chain's moves can join `step` when no rank of the chain sends or receives there already.
bool fits(const RowMoveStep& step, const RowMoveStep& chain) {
  return std::none_of(chain.begin(), chain.end(), [&step](const RowMove& m) {
    return std::any_of(step.begin(), step.end(), [&m](const RowMove& s) { return s.from == m.from || s.to == m.to; });
  });
}

}  // namespace

std::vector<RowMoveStep> row_move_steps(const SlabLayout& now, const SlabLayout& next) {
  const int ranks = now.ranks();
  if (next.ranks() != ranks) throw internal_error("row_move_steps: the layouts have different numbers of ranks");
  // Each rank's rows to send, in ascending order of index, and how many it has to receive.
  std::vector<std::deque<RowMove>> outgoing(static_cast<std::size_t>(ranks));
  std::vector<int> incoming(static_cast<std::size_t>(ranks), 0);
  for (int r = 0; r < ranks; ++r)
    for (const int index : now.rows[static_cast<std::size_t>(r)])
      if (const int to = next.owner(index); to != r) {
        outgoing[static_cast<std::size_t>(r)].push_back({index, r, to});
        ++incoming[static_cast<std::size_t>(to)];
      }
  const auto sends = [&](int r) { return static_cast<int>(outgoing[static_cast<std::size_t>(r)].size()); };

  std::vector<RowMoveStep> steps;
  // Chains join the last step where they fit, else begin one.
  const auto emit = [&steps](RowMoveStep chain) {
    if (chain.empty()) return;
    if (!steps.empty() && fits(steps.back(), chain))
      steps.back().insert(steps.back().end(), chain.begin(), chain.end());
    else
      steps.push_back(std::move(chain));
  };
  for (;;) {
    int start = -1;
    for (int r = 0; r < ranks && start < 0; ++r)
      if (sends(r) > incoming[static_cast<std::size_t>(r)]) start = r;
    for (int r = 0; r < ranks && start < 0; ++r)
      if (sends(r) > 0) start = r;
    if (start < 0) break;
    // The walk: path[k] moves a row into received_at's rank; a rank the walk reaches again closes
    // a cycle (its send onwards and the move back into it), which leaves as a chain of its own.
    RowMoveStep path;
    std::vector<int> received_at(static_cast<std::size_t>(ranks), -1);
    int at = start;
    while (sends(at) > 0) {
      const RowMove move = outgoing[static_cast<std::size_t>(at)].front();
      outgoing[static_cast<std::size_t>(at)].pop_front();
      --incoming[static_cast<std::size_t>(move.to)];
      path.push_back(move);
      if (move.to == start) break;  // a cycle through the start
      const int first = received_at[static_cast<std::size_t>(move.to)];
      if (first >= 0) {
        const auto cycle = path.begin() + first + 1;
        for (auto m = cycle; m + 1 != path.end(); ++m) received_at[static_cast<std::size_t>(m->to)] = -1;
        emit(RowMoveStep(cycle, path.end()));
        path.erase(cycle, path.end());
      } else {
        received_at[static_cast<std::size_t>(move.to)] = static_cast<int>(path.size()) - 1;
      }
      at = move.to;
    }
    emit(std::move(path));
  }
  return steps;
}

}  // namespace tensordiag::runtime
