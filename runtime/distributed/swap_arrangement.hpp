#pragma once
// Which rank holds which part of a stage's layout is free: the XOR stages deal their cosets to the
// ranks in any order, and the sweep's groups and results do not change with it. GPU ranks change
// layout only by pairwise swaps in place (row_exchange.hpp: swaps_in_place, no second slab); the
// cosets in leader order allow that for N = 16 on 4 ranks but not for N = 8 on 4 (rank 0 sends
// row 3 to rank 3 and receives row 4 from rank 2 between the passes {0, 3} and {0, 4}). Dealing
// each stage's parts so that every pair of ranks trades as many rows each way finds such a sweep
// where one exists.
#include "runtime/distributed/distributed_schedule.hpp"

namespace tensordiag::runtime {

// Re-deals the parts of the stages after the first among the ranks so that every change of
// layout, the one back to the first included, swaps rows in place, preferring at each change the
// deal that keeps most rows where they are. A depth-first search over the stages, each stage's
// deals built rank by rank and cut as soon as two ranks would trade unevenly, most rows kept
// first; for P <= 8 (N <= 256 tested, all found within 0.2 s together), giving up after a fixed
// amount of work (P = 16 and more: the search is not tried). Returns whether the schedule now
// swaps in place (it is left as it was when not).
bool arrange_for_swaps(DistributedSchedule& schedule);

}  // namespace tensordiag::runtime
