// The round-robin schedule: every pair once per sweep, in groups of disjoint pairs.
#include <doctest/doctest.h>

#include <set>
#include <utility>

#include "runtime/algorithm/pivot_schedule.hpp"

using tensordiag::runtime::round_robin_schedule;

TEST_CASE("the schedule covers every pair exactly once, in disjoint groups of the right count") {
  for (int n = 2; n <= 40; ++n) {
    const auto groups = round_robin_schedule(n);
    CHECK(groups.size() == static_cast<std::size_t>(n % 2 == 0 ? n - 1 : n));
    std::set<std::pair<int, int>> seen;
    for (const auto& group : groups) {
      CHECK(group.size() == static_cast<std::size_t>(n / 2));
      std::set<int> used;
      for (const auto [p, q] : group) {
        CHECK(0 <= p);
        CHECK(p < q);
        CHECK(q < n);
        CHECK(used.insert(p).second);
        CHECK(used.insert(q).second);
        CHECK(seen.insert({p, q}).second);
      }
    }
    CHECK(seen.size() == static_cast<std::size_t>(n * (n - 1) / 2));
  }
}

TEST_CASE("the schedule is deterministic") {
  const auto first = round_robin_schedule(9);
  const auto second = round_robin_schedule(9);
  REQUIRE(first.size() == second.size());
  for (std::size_t g = 0; g < first.size(); ++g)
    for (std::size_t k = 0; k < first[g].size(); ++k) {
      CHECK(first[g][k].p == second[g][k].p);
      CHECK(first[g][k].q == second[g][k].q);
    }
}
