// Structure skew's order at D >= 3 (runtime/algorithm/skew_schedule.hpp): every pair whose rotation
// can move a block entry exactly once a sweep, no other pair, the pairs of a group in disjoint
// blocks; such a group's angles taken from one core and applied at once equal its pairs taken one
// after another (each angle from the core its predecessors left), and every group raises the block
// objective; the GPU's padding completes a group to a perfect matching with the live pairs first.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "planted_symmetric.hpp"
#include "relative_difference.hpp"
#include "runtime/algorithm/core_figures.hpp"
#include "runtime/algorithm/skew_blocks.hpp"
#include "runtime/algorithm/skew_schedule.hpp"
#include "runtime/engines/cpu_skew_engine.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/engines/group_pass.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using namespace tensordiag::testing;

namespace {

// The unit of index i: its block, or N / D + (its place among the leftover indices).
int unit_of(int i, int order, int size) {
  const int block = skew_block_of(i, order, size);
  return block >= 0 ? block : skew_block_count(order, size) + (i - skew_block_count(order, size) * order);
}

}  // namespace

TEST_CASE("skew schedule: each movable pair once a sweep, no other, the pairs of a group in disjoint units") {
  for (int order = 2; order <= 6; ++order)
    for (int size = order; size <= 4 * order + 3; ++size) {
      CAPTURE(order);
      CAPTURE(size);
      const PivotSchedule schedule = skew_schedule(order, size);
      std::set<std::pair<int, int>> seen;
      for (const PivotGroup& group : schedule) {
        REQUIRE_FALSE(group.empty());
        std::set<int> units;
        for (const auto [p, q] : group) {
          CHECK(p < q);
          CHECK(seen.insert({p, q}).second);
          CHECK(units.insert(unit_of(p, order, size)).second);
          CHECK(units.insert(unit_of(q, order, size)).second);
        }
      }
      std::size_t movable = 0;
      for (int p = 0; p < size; ++p)
        for (int q = p + 1; q < size; ++q) {
          const int bp = skew_block_of(p, order, size), bq = skew_block_of(q, order, size);
          const bool moves = bp != bq;  // one block (invariant) or both in none (no block entry): not
          movable += moves;
          CHECK(seen.count({p, q}) == static_cast<std::size_t>(moves));
        }
      CHECK(seen.size() == movable);
      // Rounds of the units' round robin, D^2 groups a round of block pairs: N D groups or so.
      const int units = skew_block_count(order, size) + size % order;
      const int rounds = units < 2 ? 0 : (units % 2 == 0 ? units - 1 : units);
      CHECK(schedule.size() <= static_cast<std::size_t>(rounds * order * order));
    }
}

TEST_CASE("skew schedule: a group at once equals its pairs one after another, and raises the block objective") {
  for (auto [order, size] : {std::pair{3, 7}, {3, 12}, {4, 9}, {4, 14}, {5, 11}}) {
    CAPTURE(order);
    CAPTURE(size);
    HostTensor<double> core = planted<double>(order, size, 800u + static_cast<unsigned>(size), 2.0, Structure::skew).tensor;
    for (const PivotGroup& group : skew_schedule(order, size)) {
      const double before = core_figures(core, Structure::skew).diag_norm2;
      // At once: every angle from `core`, one fused pass.
      GroupRotations<double> at_once(order, group);
      for (std::size_t k = 0; k < group.size(); ++k) {
        const dsl::Givens<double> g = skew_pair_rotation(core, group[k].p, group[k].q);
        for (int n = 0; n < order; ++n) at_once.at(n, k) = g;
      }
      HostTensor<double> together = core;
      apply_group_pass(together, at_once, 1);
      // One after another: each angle from the core the pairs before it left.
      for (const auto [p, q] : group) rotate_pair_every_mode(core, p, q, skew_pair_rotation(core, p, q), 1);
      CHECK(relative_difference(together.values(), core.values()) <= 1e-14);
      CHECK(core_figures(together, Structure::skew).diag_norm2 >= before * (1 - 1e-14));
      core = together;
    }
  }
}

TEST_CASE("skew schedule: the GPU's padding is a perfect matching, the live pairs first, p < q") {
  for (int size : {3, 4, 7, 8, 13}) {
    CAPTURE(size);
    for (const PivotGroup& live : skew_schedule(3, size)) {
      const PivotGroup padded = padded_to_matching(live, size);
      REQUIRE(padded.size() == static_cast<std::size_t>(size / 2));
      CHECK(std::equal(live.begin(), live.end(), padded.begin(),
                       [](PivotPair x, PivotPair y) { return x.p == y.p && x.q == y.q; }));
      std::set<int> named;
      for (const auto [p, q] : padded) {
        CHECK(p < q);
        CHECK(named.insert(p).second);
        CHECK(named.insert(q).second);
      }
    }
  }
  CHECK(padded_to_matching({}, 5).size() == 2);
}

TEST_CASE("skew schedule: a skew run reports its groups as its passes a sweep") {
  for (auto [order, size] : {std::pair{3, 7}, {4, 9}, {2, 7}}) {
    CAPTURE(order);
    Options options;
    options.structure = Structure::skew;
    options.backend = Backend::cpu;
    options.max_sweeps = 1;
    const auto result = diagonalize(planted<double>(order, size, 900u, 0.5, Structure::skew).tensor, options);
    CHECK(result.schedule == "round-robin");
    // Order 2 pairs its units (4 blocks-and-leftover: the round robin of 4): 3 groups.
    const std::size_t groups = order == 2 ? 3 : skew_schedule(order, size).size();
    CHECK(result.passes_per_sweep == static_cast<int>(groups));
  }
}
