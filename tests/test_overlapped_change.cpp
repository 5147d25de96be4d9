// The plan of a change of layout overlapped with the pass before it
// (runtime/distributed/overlapped_change.hpp), over every change that swaps in place in the
// distributed schedules (XOR and round robin, even and odd N, 2 and 4 ranks) and 1 to 64 pieces:
// the launches cover each row and representative of the second memory mode once, in whole pairs of
// the group, the leaving rows first, a piece a launch; each piece sent leaves after the launch that
// wrote it; the two sides of every trade name the same piece; and the slots, each piece receiving
// what was traded for it, end holding the next layout's rows whole; each row's diagonal entry is
// named once, by the launch that writes it (diagonal_rows_of_launch).
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>
#include <vector>

#include "runtime/distributed/distributed_schedule.hpp"
#include "runtime/distributed/overlapped_change.hpp"
#include "runtime/distributed/row_exchange.hpp"

using namespace tensordiag::runtime;

namespace {

std::size_t at(int index) { return static_cast<std::size_t>(index); }

// The indices of the second memory mode a piece's blocks hold.
std::set<int> indices_of_piece(const OverlappedChange& plan, const PivotGroup& group, int piece, int size) {
  const std::vector<int> indices = representative_indices(group, representatives_of_piece(plan, piece), size);
  return {indices.begin(), indices.end()};
}

// A pipelined change's pass after it: its launches take the next group's representatives once
// each, and each reads (its pairs of the second memory mode) only blocks of the pieces up to the
// one it waits for, which grow launch by launch to the last piece. Returns whether it is pipelined.
bool check_pipelined(const OverlappedChange& plan, const PivotGroup& group, const PivotGroup& next_group, int size) {
  if (plan.pipelined.empty()) return false;
  std::vector<int> taken;
  int after = -1;
  std::set<int> landed;
  for (const ArrivalLaunch& launch : plan.pipelined) {
    CHECK(launch.after_piece > after);
    CHECK(launch.after_piece < plan.pieces);
    CHECK(std::is_sorted(launch.representatives.begin(), launch.representatives.end()));
    for (int piece = after + 1; piece <= launch.after_piece; ++piece) {
      const std::set<int> indices = indices_of_piece(plan, group, piece, size);
      landed.insert(indices.begin(), indices.end());
    }
    after = launch.after_piece;
    for (const int index : representative_indices(next_group, launch.representatives, size)) {
      CAPTURE(index);
      CHECK(landed.count(index) == 1);
    }
    taken.insert(taken.end(), launch.representatives.begin(), launch.representatives.end());
  }
  CHECK(after == plan.pieces - 1);
  std::sort(taken.begin(), taken.end());
  std::vector<int> every(static_cast<std::size_t>((size + 1) / 2));
  std::iota(every.begin(), every.end(), 0);
  CHECK(taken == every);
  return true;
}

// Returns how many ranks' plans were pipelined.
int check_change(const PivotGroup& group, const SlabLayout& now, const SlabLayout& next, int pieces,
                 const PivotGroup* next_group = nullptr) {
  const int ranks = now.ranks();
  int size = 0;
  for (const auto& rows : now.rows) size += static_cast<int>(rows.size());
  const int representatives = (size + 1) / 2;
  std::vector<OverlappedChange> plans;
  for (int r = 0; r < ranks; ++r) plans.push_back(overlapped_change(group, now, next, r, pieces, next_group));
  int pipelined = 0;
  for (int r = 0; r < ranks; ++r) {
    CAPTURE(r);
    const OverlappedChange& plan = plans[at(r)];
    const std::vector<int>& mine = now.rows[at(r)];
    CHECK(plan.pieces == std::min(pieces, representatives));
    // The pieces take every representative once; the same order on every rank.
    std::vector<int> order = plan.order;
    CHECK(order == plans.front().order);
    std::sort(order.begin(), order.end());
    std::vector<int> every(static_cast<std::size_t>(representatives));
    std::iota(every.begin(), every.end(), 0);
    CHECK(order == every);
    if (!next_group) CHECK(plan.order == every);
    if (next_group && check_pipelined(plan, group, *next_group, size)) ++pipelined;
    // The launches cover each (row, representative of the second memory mode) once, whole pairs
    // each; the leaving rows' launches first, one a piece.
    const auto covers = [&](const OverlappedLaunch& launch, int row, int representative) {
      if (!std::binary_search(launch.rows.begin(), launch.rows.end(), row)) return false;
      if (launch.piece < 0) return true;
      const std::vector<int> taken = representatives_of_piece(plan, launch.piece);
      return std::find(taken.begin(), taken.end(), representative) != taken.end();
    };
    for (const int row : mine)
      for (int representative = 0; representative < representatives; ++representative) {
        int covering = 0;
        for (const OverlappedLaunch& launch : plan.launches) covering += covers(launch, row, representative) ? 1 : 0;
        CHECK(covering == 1);
      }
    // Each row's diagonal entry (i, .., i) is named once, by the launch that writes it: the one
    // covering row i at i's own representative.
    std::vector<int> diagonal_rows;
    for (std::size_t l = 0; l < plan.launches.size(); ++l)
      for (const int row : diagonal_rows_of_launch(plan, group, l, size)) {
        int own = -1;
        for (int representative = 0; representative < representatives; ++representative) {
          const std::vector<int> indices = representative_indices(group, {representative}, size);
          if (std::find(indices.begin(), indices.end(), row) != indices.end()) own = representative;
        }
        CAPTURE(row);
        CHECK(covers(plan.launches[l], row, own));
        diagonal_rows.push_back(row);
      }
    std::sort(diagonal_rows.begin(), diagonal_rows.end());
    std::vector<int> mine_sorted = mine;
    std::sort(mine_sorted.begin(), mine_sorted.end());
    CHECK(diagonal_rows == mine_sorted);
    bool leaving_rows = false;
    for (std::size_t l = 0; l < plan.launches.size(); ++l) {
      const OverlappedLaunch& launch = plan.launches[l];
      REQUIRE_FALSE(launch.rows.empty());
      CHECK(std::is_sorted(launch.rows.begin(), launch.rows.end()));
      bool leaves = false;
      for (const int index : launch.rows) leaves = leaves || next.owner(index) != r;
      if (leaves) {
        CHECK(launch.piece == static_cast<int>(l));
        leaving_rows = true;
      } else {
        CHECK(launch.piece == -1);
        CHECK(l + 1 == plan.launches.size());
      }
      for (const PivotPair& pair : group)
        CHECK(std::binary_search(launch.rows.begin(), launch.rows.end(), pair.p) ==
              std::binary_search(launch.rows.begin(), launch.rows.end(), pair.q));
    }

    // Trades: the pieces for each partner, after their launches, matched by the partner's plan
    // piece for piece; the slots end holding the next layout's rows.
    std::vector<std::vector<int>> slots;  // slot t: the row each piece of it holds
    for (const int row : mine) slots.push_back(std::vector<int>(at(plan.pieces), row));
    REQUIRE(plan.sent.size() == static_cast<std::size_t>(ranks - 1));
    for (int k = 1; k < ranks; ++k) {
      const int partner = r ^ k;
      const std::vector<RowPiece>& sent = plan.sent[at(k - 1)];
      const std::vector<RowPiece>& received = plan.received[at(k - 1)];
      std::set<std::pair<int, int>> expected, named;
      for (const int index : mine)
        if (next.owner(index) == partner)
          for (int piece = 0; piece < plan.pieces; ++piece) expected.insert({index, piece});
      for (const RowPiece& piece : sent) named.insert({piece.row, piece.piece});
      CHECK(named == expected);
      CHECK(sent.size() == expected.size());
      if (!sent.empty()) CHECK(leaving_rows);
      CHECK(received == plans[at(partner)].sent[at(k - 1)]);
      REQUIRE(received.size() == sent.size());
      for (std::size_t j = 0; j < sent.size(); ++j) {
        const int launch = sent[j].piece;  // the launch whose event a piece waits for
        REQUIRE(launch >= 0);
        REQUIRE(launch < static_cast<int>(plan.launches.size()));
        CHECK(plan.launches[at(launch)].piece == sent[j].piece);
        CHECK(std::binary_search(plan.launches[at(launch)].rows.begin(), plan.launches[at(launch)].rows.end(),
                                 sent[j].row));
        if (j > 0) CHECK(sent[j - 1].piece <= launch);
        CHECK(received[j].piece == sent[j].piece);  // the same place in the row on both sides
        const auto slot = std::find(mine.begin(), mine.end(), sent[j].row) - mine.begin();
        slots[static_cast<std::size_t>(slot)][at(sent[j].piece)] = received[j].row;
      }
    }
    std::vector<int> held;
    for (const auto& pieces_of_slot : slots) {
      CHECK(std::adjacent_find(pieces_of_slot.begin(), pieces_of_slot.end(), std::not_equal_to<>()) ==
            pieces_of_slot.end());
      held.push_back(pieces_of_slot.front());
    }
    std::sort(held.begin(), held.end());
    CHECK(held == next.rows[at(r)]);
  }
  return pipelined;
}

// Calls f(stage, next stage, kind, ranks, N) for every change of layout that swaps in place in the
// distributed schedules: XOR and round robin, even and odd N, 2 and 4 ranks.
template <class F>
void for_each_in_place_change(const F& f) {
  for (const int ranks : {2, 4})
    for (const int size : {4, 5, 7, 8, 9, 12, 13, 16, 32})
      for (const SweepSchedule kind : {SweepSchedule::xor_subspaces, SweepSchedule::round_robin}) {
        if (size / 2 < ranks) continue;
        const bool power_of_two = (size & (size - 1)) == 0;
        if (kind == SweepSchedule::xor_subspaces && (!power_of_two || size < 2 * ranks)) continue;
        CAPTURE(ranks);
        CAPTURE(size);
        const DistributedSchedule schedule = distributed_schedule(size, ranks, kind);
        for (std::size_t s = 0; s < schedule.stages.size(); ++s) {
          const DistributedStage& stage = schedule.stages[s];
          const DistributedStage& after = schedule.stages[(s + 1) % schedule.stages.size()];
          if (after.layout.rows == stage.layout.rows || !swaps_in_place(stage.layout, after.layout)) continue;
          CAPTURE(s);
          f(stage, after, kind, ranks, size);
        }
      }
}

}  // namespace

TEST_CASE("the pieces of an overlapped change cover the representatives once, in order") {
  for (const int representatives : {1, 2, 4, 5, 7, 64})
    for (int pieces = 1; pieces <= representatives; ++pieces) {
      int next = 0;
      for (int piece = 0; piece < pieces; ++piece) {
        const auto [begin, end] = piece_representatives(piece, pieces, representatives);
        CHECK(begin == next);
        CHECK(end > begin);
        next = end;
      }
      CHECK(next == representatives);
    }
}

TEST_CASE("the indices of a piece: its representatives' pairs and the unpaired index, all pieces N indices once") {
  for (const int size : {4, 5, 7, 8, 9, 16})
    for (const PivotGroup& group : round_robin_schedule(size))
      for (int pieces = 1; pieces <= (size + 1) / 2; ++pieces) {
        CAPTURE(size);
        CAPTURE(pieces);
        std::vector<int> all;
        for (int piece = 0; piece < pieces; ++piece) {
          const auto [begin, end] = piece_representatives(piece, pieces, (size + 1) / 2);
          std::vector<int> taken(static_cast<std::size_t>(end - begin));
          std::iota(taken.begin(), taken.end(), begin);
          const std::vector<int> indices = representative_indices(group, taken, size);
          std::size_t expected = 0;
          for (int r = begin; r < end; ++r) expected += r < static_cast<int>(group.size()) ? 2 : 1;
          CHECK(indices.size() == expected);
          for (int r = begin; r < end && r < static_cast<int>(group.size()); ++r) {
            CHECK(std::find(indices.begin(), indices.end(), group[at(r)].p) != indices.end());
            CHECK(std::find(indices.begin(), indices.end(), group[at(r)].q) != indices.end());
          }
          all.insert(all.end(), indices.begin(), indices.end());
        }
        std::sort(all.begin(), all.end());
        std::vector<int> every(static_cast<std::size_t>(size));
        std::iota(every.begin(), every.end(), 0);
        CHECK(all == every);
      }
}

TEST_CASE("an overlapped change of layout: launches of whole pairs, leaving rows first and in pieces, trades that "
          "match piece for piece") {
  int changes = 0;
  for_each_in_place_change([&](const DistributedStage& stage, const DistributedStage& after, SweepSchedule, int, int) {
    for (const int pieces : {1, 2, 3, 4, 64}) check_change(stage.groups.back(), stage.layout, after.layout, pieces);
    ++changes;
  });
  CHECK(changes > 20);
}

TEST_CASE("a pipelined change: the pieces component by component, and each launch of the pass after it reads only "
          "pieces landed before it") {
  int pipelined = 0, changes = 0;
  for_each_in_place_change([&](const DistributedStage& stage, const DistributedStage& after, SweepSchedule kind, int ranks,
                               int size) {
    for (const int pieces : {1, 2, 3, 4, 64}) {
      CAPTURE(pieces);
      const int ranks_pipelined = check_change(stage.groups.back(), stage.layout, after.layout, pieces, &after.groups.front());
      CHECK((ranks_pipelined == 0 || ranks_pipelined == ranks));  // every rank or none
      pipelined += ranks_pipelined > 0 ? 1 : 0;
      // The XOR schedule's consecutive groups c, c' make N / 4 components: always pipelined.
      if (kind == SweepSchedule::xor_subspaces && size >= 8) CHECK(ranks_pipelined == ranks);
      ++changes;
    }
  });
  CHECK(changes > 50);
  CHECK(pipelined > 30);
}

TEST_CASE("a pipelined change at N = 8, two ranks: groups 3 then 4 make components {0, 3, 4, 7} and {1, 2, 5, 6}") {
  const DistributedSchedule schedule = distributed_schedule(8, 2, SweepSchedule::xor_subspaces);
  REQUIRE(schedule.stages.size() == 3);
  const PivotGroup& group = schedule.stages[0].groups.back();
  const PivotGroup& next_group = schedule.stages[1].groups.front();
  for (const PivotPair& pair : group) CHECK((pair.p ^ pair.q) == 3);
  for (const PivotPair& pair : next_group) CHECK((pair.p ^ pair.q) == 4);
  const OverlappedChange plan =
      overlapped_change(group, schedule.stages[0].layout, schedule.stages[1].layout, 0, 4, &next_group);
  REQUIRE(plan.pieces == 4);
  REQUIRE(plan.pipelined.size() == 2);
  // Pieces 0 and 1 hold the first component's blocks, 2 and 3 the second's.
  const auto indices_until = [&](int last) {
    std::set<int> indices;
    for (int piece = 0; piece <= last; ++piece) {
      const std::set<int> more = indices_of_piece(plan, group, piece, 8);
      indices.insert(more.begin(), more.end());
    }
    return indices;
  };
  CHECK(indices_until(1) == std::set<int>{0, 3, 4, 7});
  CHECK(indices_until(3) == std::set<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(plan.pipelined[0].after_piece == 1);
  CHECK(plan.pipelined[1].after_piece == 3);
  const std::vector<int> first = representative_indices(next_group, plan.pipelined[0].representatives, 8);
  CHECK(std::set<int>(first.begin(), first.end()) == std::set<int>{0, 3, 4, 7});
}
