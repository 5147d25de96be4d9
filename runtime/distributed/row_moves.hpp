#pragma once
// A change of layout (row_exchange.hpp) as steps of single-row moves, for ranks that hold their
// rows in fixed slots with no second slab: GPU ranks, where row_exchange's in-place swaps do not
// apply (odd N, a number of ranks that is not a power of two, ranks trading unequal numbers of
// rows). In a step each rank sends at most one row and receives at most one; a row it receives
// lands in the slot of the row it sends in the same step (through staging, chunk after chunk, as
// the swaps do), else in a free slot. With slots for the most rows a rank holds before or after,
// a free slot is always there when needed (tested by simulation).
//
// How: the moves (row i from its rank in `now` to its rank in `next`) are walked into chains: from
// a rank with more rows to send than to receive (else from the first rank with a row to send),
// follow one of its moves to the receiver, then one of the receiver's, and so on. A move back into
// the start closes the walk as a cycle; a move into a rank the walk reached before closes the cycle
// from there (that rank's send onwards), which leaves as a chain of its own, and the walk goes on
// from that rank. A walk that reaches a rank with nothing left to send ends there, a path: that
// rank receives into a free slot, which it has (it ends with no more rows than slots, and sends
// nothing more). In a chain each rank sends once and receives once at most; a cycle changes no
// rank's row count, so the paths after it keep that argument.
// Chains join the step before them where no rank would send or receive twice, else begin a new
// one. Deterministic: every rank computes the same steps.
#include <vector>

#include "runtime/distributed/slab_layout.hpp"

namespace tensordiag::runtime {

struct RowMove {
  int index;  // the row (index of the slowest memory mode)
  int from;   // the rank that holds it now
  int to;     // the rank that holds it next
};

using RowMoveStep = std::vector<RowMove>;

std::vector<RowMoveStep> row_move_steps(const SlabLayout& now, const SlabLayout& next);

}  // namespace tensordiag::runtime
