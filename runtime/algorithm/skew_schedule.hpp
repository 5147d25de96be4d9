#pragma once
// The order of structure skew's pairs at orders D >= 3 (docs/DESIGN.md section 7). Rotating every
// mode by the same G in the plane (p, q) moves the block entries of the blocks of p and q only
// (dsl/skew_rule.hpp), and its angle reads only entries whose indices lie in those blocks and
// {p, q}. So pairs whose blocks are disjoint take their angles from the same core, and a group of
// them applied at once is the same as one after another; pairs that share a block are not (a
// group of them could lower the objective).
//
// The units are the N / D blocks and the N mod D indices left over, each a unit of its own. The
// round robin over the units (pivot_schedule.hpp) gives rounds of disjoint unit pairs (u, v); each
// unit pair's index pairs (p in u, q in v, p < q) run one a group, in increasing (p, q): group j
// of a round holds the j-th index pair of each of its unit pairs. A round of block pairs so takes
// D^2 groups, of up to (N / D) / 2 pairs each. Pairs inside one block (whose block entry such a
// rotation leaves as it is) and pairs of two leftover indices (no block entry) are in no group.
// Deterministic: the same (D, N) gives the same order.
#include "runtime/algorithm/pivot_schedule.hpp"

namespace tensordiag::runtime {

PivotSchedule skew_schedule(int order, int size);

// `live` completed to N / 2 disjoint pairs, as the GPU's group pass takes a group: the live pairs
// first, then the indices no live pair names, paired in increasing order (one left over for odd N).
// The pass rotates the added pairs by the identity.
PivotGroup padded_to_matching(const PivotGroup& live, int size);

// skew_schedule as the GPU engines take it (the general engine's group passes, small_tensor's
// schedule): every group padded_to_matching, and how many of its pairs are live (they come first).
struct PaddedSkewSchedule {
  PivotSchedule groups;
  std::vector<int> live;
};
PaddedSkewSchedule padded_skew_schedule(int order, int size);

}  // namespace tensordiag::runtime
