// A change of layout as steps of single-row moves (runtime/distributed/row_moves.hpp), simulated
// with fixed slots: every rank sends and receives one row a step at most, sends only rows it holds,
// receives into the slot of the row it sends in that step or into a free one (there always is
// one, with slots for the most rows a rank holds), and ends holding exactly its rows of the next
// layout. Over every change of the distributed schedules (odd N, ranks not a power of two, both
// kinds) and over random layouts with unequal row counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "runtime/distributed/distributed_schedule.hpp"
#include "runtime/distributed/row_moves.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;

namespace {

std::size_t most_rows(const SlabLayout& a, const SlabLayout& b) {
  std::size_t most = 0;
  for (int r = 0; r < a.ranks(); ++r)
    most = std::max({most, a.rows[static_cast<std::size_t>(r)].size(), b.rows[static_cast<std::size_t>(r)].size()});
  return most;
}

// Runs the steps on slots of `capacity` rows a rank; returns the number of steps.
std::size_t simulate(const SlabLayout& now, const SlabLayout& next, std::size_t capacity) {
  const int ranks = now.ranks();
  std::vector<std::vector<int>> slots(static_cast<std::size_t>(ranks), std::vector<int>(capacity, -1));
  for (int r = 0; r < ranks; ++r)
    std::copy(now.rows[static_cast<std::size_t>(r)].begin(), now.rows[static_cast<std::size_t>(r)].end(),
              slots[static_cast<std::size_t>(r)].begin());
  const std::vector<RowMoveStep> steps = row_move_steps(now, next);
  for (const RowMoveStep& step : steps) {
    REQUIRE_FALSE(step.empty());
    std::vector<int> send_slot(static_cast<std::size_t>(ranks), -1);
    std::vector<const RowMove*> receive(static_cast<std::size_t>(ranks), nullptr);
    for (const RowMove& move : step) {
      CHECK(move.from != move.to);
      CHECK(next.owner(move.index) == move.to);
      auto& from = slots[static_cast<std::size_t>(move.from)];
      const auto held = std::find(from.begin(), from.end(), move.index);
      REQUIRE(held != from.end());  // a rank sends only a row it holds
      REQUIRE(send_slot[static_cast<std::size_t>(move.from)] < 0);  // one send a step
      send_slot[static_cast<std::size_t>(move.from)] = static_cast<int>(held - from.begin());
      REQUIRE(receive[static_cast<std::size_t>(move.to)] == nullptr);  // one receive a step
      receive[static_cast<std::size_t>(move.to)] = &move;
    }
    for (int r = 0; r < ranks; ++r)
      if (send_slot[static_cast<std::size_t>(r)] >= 0) slots[static_cast<std::size_t>(r)][static_cast<std::size_t>(send_slot[static_cast<std::size_t>(r)])] = -1;
    for (int r = 0; r < ranks; ++r) {
      const RowMove* move = receive[static_cast<std::size_t>(r)];
      if (!move) continue;
      auto& mine = slots[static_cast<std::size_t>(r)];
      int slot = send_slot[static_cast<std::size_t>(r)];
      if (slot < 0) {
        const auto free = std::find(mine.begin(), mine.end(), -1);
        REQUIRE(free != mine.end());  // a free slot is there
        slot = static_cast<int>(free - mine.begin());
      }
      mine[static_cast<std::size_t>(slot)] = move->index;
    }
  }
  for (int r = 0; r < ranks; ++r) {
    std::set<int> held;
    for (const int index : slots[static_cast<std::size_t>(r)])
      if (index >= 0) held.insert(index);
    CHECK(held == std::set<int>(next.rows[static_cast<std::size_t>(r)].begin(), next.rows[static_cast<std::size_t>(r)].end()));
  }
  return steps.size();
}

}  // namespace

TEST_CASE("row moves: every change of the distributed schedules, odd N and ranks not a power of two included") {
  int changes = 0;
  for (int ranks = 2; ranks <= 8; ++ranks)
    for (int size = 2 * ranks; size <= 2 * ranks + 11; ++size)
      for (const SweepSchedule kind : {SweepSchedule::automatic, SweepSchedule::round_robin}) {
        CAPTURE(ranks);
        CAPTURE(size);
        const DistributedSchedule schedule = distributed_schedule(size, ranks, kind);
        const std::size_t capacity = schedule.most_rows();
        for (std::size_t s = 0; s < schedule.stages.size() && schedule.stages.size() > 1; ++s) {
          const SlabLayout& now = schedule.stages[s].layout;
          const SlabLayout& next = schedule.stages[(s + 1) % schedule.stages.size()].layout;
          std::size_t moved = 0;
          for (int r = 0; r < ranks; ++r)
            for (const int index : now.rows[static_cast<std::size_t>(r)]) moved += next.owner(index) != r;
          const std::size_t steps = simulate(now, next, capacity);
          // At least the rows the busiest rank sends; never more steps than rows moved.
          CHECK(steps <= moved);
          ++changes;
        }
      }
  CHECK(changes > 500);
}

TEST_CASE("row moves: random layouts with unequal row counts, slots for the most rows a rank holds") {
  std::mt19937 random(2026);
  for (int trial = 0; trial < 400; ++trial) {
    const int ranks = 2 + static_cast<int>(random() % 6);
    const int size = ranks + static_cast<int>(random() % 20);
    CAPTURE(trial);
    const auto layout = [&] {
      // Every rank one row at least, the rest anywhere.
      std::vector<int> owner(static_cast<std::size_t>(size));
      for (int i = 0; i < size; ++i) owner[static_cast<std::size_t>(i)] = i < ranks ? i : static_cast<int>(random() % ranks);
      std::shuffle(owner.begin(), owner.end(), random);
      SlabLayout l;
      l.rows.resize(static_cast<std::size_t>(ranks));
      for (int i = 0; i < size; ++i) l.rows[static_cast<std::size_t>(owner[static_cast<std::size_t>(i)])].push_back(i);
      return l;
    };
    const SlabLayout now = layout(), next = layout();
    simulate(now, next, most_rows(now, next));
  }
}

TEST_CASE("row moves: two ranks trading as many rows each way swap them one pair a step") {
  const SlabLayout now{{{0, 1, 2}, {3, 4, 5}}}, next{{{0, 4, 5}, {1, 2, 3}}};
  const std::vector<RowMoveStep> steps = row_move_steps(now, next);
  REQUIRE(steps.size() == 2);
  for (const RowMoveStep& step : steps) {
    REQUIRE(step.size() == 2);
    CHECK(step[0].from == step[1].to);
    CHECK(step[0].to == step[1].from);
  }
  CHECK(row_move_steps(now, now).empty());
}
