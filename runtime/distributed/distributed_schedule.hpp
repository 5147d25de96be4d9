#pragma once
// The sweep of a tensor spread over P ranks (issue 14; docs/DESIGN.md, "Between GPUs and hosts").
// A group's rotations in the distributed mode pair rows p and q; when one rank holds both for every
// pair, the whole group step is local to the ranks (the other modes never cross a row), and only
// the group's angles (D x N/2 pairs of numbers) and the pivot check's gathers are summed across
// ranks. So a sweep is a list of stages: a layout, then the groups it holds whole, run one after the
// other; between stages the rows that change rank move (an all-to-all).
//   xor (N and P powers of two, N >= 2P): the stages are the passes of the XOR subspace schedule with
//     subspaces V of dimension log2(N / P): each rank holds a coset a + V, and every group c in V
//     keeps each coset whole; the cosets are dealt to the ranks so that every change of layout
//     swaps rows in place where such a deal is found (swap_arrangement.hpp). P = 2 needs at least three layouts a sweep (no hyperplane holds the
//     group c = N - 1 together with all the others); N = 8: {1, 2, 3}, {4, 5}, {6, 7}.
//   round-robin (any N with ceil(N/2) >= P): each group's pairs are dealt to the ranks in P runs,
//     an odd N's unpaired index to a rank of the fewest rows (at P = ceil(N/2) one rank holds it
//     alone: N = 3 on two ranks, 2 rows and 1); a group the current layout holds whole joins its
//     stage, otherwise a new stage begins.
#include <cstddef>
#include <vector>

#include "runtime/algorithm/run_options.hpp"
#include "runtime/distributed/slab_layout.hpp"

namespace tensordiag::runtime {

struct DistributedStage {
  SlabLayout layout;
  std::vector<PivotGroup> groups;  // the sweep's groups this layout runs, in order
};

struct DistributedSchedule {
  int size = 0;   // N
  int ranks = 0;  // P
  SweepSchedule kind = SweepSchedule::round_robin;  // xor_subspaces or round_robin
  std::vector<DistributedStage> stages;

  // The sweep's groups in order: a one-rank run of the same order gives the same result.
  std::vector<PivotGroup> groups() const;
  // The most rows any rank holds at any stage (its slab's capacity).
  std::size_t most_rows() const;
  // Rows that change rank in a sweep, over every change of layout including the one from the last
  // stage back to the first; each is N^(D-1) entries sent once.
  std::size_t rows_moved_per_sweep() const;
};

// The schedule for `ranks` ranks; `asked` automatic takes xor where it applies, else round-robin.
// Throws user_error when there are more ranks than the distributed mode can give whole pairs (or an
// odd N's unpaired index) to (ceil(N/2) < P), or when xor is asked where it does not apply.
DistributedSchedule distributed_schedule(int size, int ranks, SweepSchedule asked);

}  // namespace tensordiag::runtime
