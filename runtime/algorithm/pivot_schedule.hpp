#pragma once
// The cyclic pivot order of a sweep: every pair (p, q), p < q, exactly once, arranged in groups of
// disjoint pairs by the round-robin (circle) method — N-1 groups of N/2 pairs for even N, N groups
// of (N-1)/2 pairs for odd N (DESIGN.md section 2). Deterministic: the same N gives the same order.
#include <string>
#include <vector>

namespace tensordiag::runtime {

struct PivotPair {
  int p;
  int q;
};

using PivotGroup = std::vector<PivotPair>;
using PivotSchedule = std::vector<PivotGroup>;  // a sweep: its groups in order

PivotSchedule round_robin_schedule(int size);

}  // namespace tensordiag::runtime
