#pragma once
// A change of layout overlapped with the pass before it (issue 14, "Overlap"): the last group of a
// stage rotates the rank's rows in several launches, the rows about to leave first and in pieces,
// and each piece is sent as soon as its launch is done, while the later launches run. Nothing can
// overlap the pass after the change: its angles sum every rank's pairs, whose rows are complete
// only once every row has arrived.
//
// A launch rotates whole pairs of the group in the distributed mode (the pass mixes rows p and q)
// and, in the second memory mode, the pairs of one piece: piece i of K covers the group's
// representatives (its pairs, then an odd N's unpaired index) [i R / K, (i + 1) R / K), R =
// ceil(N / 2), so that it holds each of its rows' blocks of N^(D-2) entries at those indices and
// their partners, closed under the group's rotations. The leaving rows' pairs go piece by piece
// (one launch a piece), then everything that stays in one launch of all pieces.
//
// Both sides of a trade must agree on the order: rank r sends its pieces for rank s piece by piece,
// within a piece by ascending row, and receives s's for r in s's order (the same pieces, as many
// rows: an in-place change trades equal counts), which r computes from the same layouts and group.
#include <utility>
#include <vector>

#include "runtime/distributed/slab_layout.hpp"

namespace tensordiag::runtime {

struct OverlappedLaunch {
  std::vector<int> rows;  // the distributed mode's indices it rotates, ascending: whole pairs of the group
  int piece;              // the piece of the second memory mode it covers; -1: all of it
};

struct RowPiece {
  int row;
  int piece;
  bool operator==(const RowPiece&) const = default;
};

struct OverlappedChange {
  int pieces = 1;  // K: the pieces of a leaving row
  // The leaving rows' launches first, launch i their piece i (so a piece sent may leave after the
  // launch of its number), then the staying rows' launch.
  std::vector<OverlappedLaunch> launches;
  // For k = 1 .. P-1 (entry k - 1), the partner me XOR k: the pieces sent to it and received from
  // it in the order of the trades (the j-th received lands where the j-th sent was).
  std::vector<std::vector<RowPiece>> sent, received;
};

// The representatives [begin, end) of piece `piece` of `pieces` among `representatives`.
std::pair<int, int> piece_representatives(int piece, int pieces, int representatives);

// The indices of the second memory mode that piece `piece` of `pieces` covers, for `group` of an
// index set of `size` (N): its representatives' pairs, each p then q, and an odd N's unpaired index.
std::vector<int> piece_indices(const PivotGroup& group, int piece, int pieces, int size);

// The plan for rank `me` whose slab holds `now` and runs `group` last before the change to `next`,
// the leaving rows in `pieces` pieces (at most ceil(N / 2)).
// @pre now holds `group` whole and the change swaps in place (row_exchange.hpp's swaps_in_place).
OverlappedChange overlapped_change(const PivotGroup& group, const SlabLayout& now, const SlabLayout& next, int me,
                                   int pieces);

}  // namespace tensordiag::runtime
