#pragma once
// A change of layout overlapped with the passes beside it (issue 14, "Overlap"): the last group of
// a stage rotates the rank's rows in several launches, the rows about to leave first and in pieces,
// and each piece is sent as soon as its launch is done, while the later launches run.
//
// A launch rotates whole pairs of the group in the distributed mode (the pass mixes rows p and q)
// and, in the second memory mode, the pairs of one piece: the group's representatives there (its
// pairs, then an odd N's unpaired index) are taken in `order`, and piece i of K covers positions
// [i R / K, (i + 1) R / K) of it, R = ceil(N / 2), so that it holds each of its rows' blocks of
// N^(D-2) entries at those indices and their partners, closed under the group's rotations. The
// leaving rows' pairs go piece by piece (one launch a piece), then everything that stays in one
// launch of all pieces.
//
// Pipelined (given the next group, the first after the change): the pass after the change runs in
// launches too, each as soon as the pieces it reads have landed. A launch rotates every row and,
// in the second memory mode, the next group's pairs within some components of the graph whose
// edges are both groups' pairs: such a component is closed under both groups, so the pieces of its
// representatives (taken component by component in `order`) hold all it reads. It needs two
// components at least (the XOR schedule's consecutive groups c and c' have N / 4, the cosets of
// {0, c, c', c ^ c'}). Its angles cannot wait for the rows: they come from the next group's pivot
// subtensors gathered before the change (kernels_templates/pivot_angles.cu, pivot_subtensors).
//
// Both sides of a trade must agree on the order: rank r sends its pieces for rank s piece by piece,
// within a piece by ascending row, and receives s's for r in s's order (the same pieces, as many
// rows: an in-place change trades equal counts), which r computes from the same layouts and groups.
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

// A launch of the pass after a pipelined change.
struct ArrivalLaunch {
  std::vector<int> representatives;  // the next group's representatives of the second memory mode, ascending
  int after_piece;                   // the last piece it reads (every earlier one landed before it)
};

struct OverlappedChange {
  int pieces = 1;  // K: the pieces of a leaving row
  // The group's representatives of the second memory mode in the order the pieces take them:
  // 0 .. R-1, or component by component where pipelined.
  std::vector<int> order;
  // The leaving rows' launches first, launch i their piece i (so a piece sent may leave after the
  // launch of its number), then the staying rows' launch.
  std::vector<OverlappedLaunch> launches;
  // For k = 1 .. P-1 (entry k - 1), the partner me XOR k: the pieces sent to it and received from
  // it in the order of the trades (the j-th received lands where the j-th sent was).
  std::vector<std::vector<RowPiece>> sent, received;
  // The pass after the change, in launches as its pieces land; empty: not pipelined.
  std::vector<ArrivalLaunch> pipelined;
};

// The positions [begin, end) of piece `piece` of `pieces` among `representatives`.
std::pair<int, int> piece_representatives(int piece, int pieces, int representatives);

// The representatives of the second memory mode that piece `piece` of `change` covers.
std::vector<int> representatives_of_piece(const OverlappedChange& change, int piece);

// The indices of the second memory mode that `representatives` of `group` cover, for an index set
// of `size` (N): each representative's pair, p then q, or an odd N's unpaired index.
std::vector<int> representative_indices(const PivotGroup& group, const std::vector<int>& representatives, int size);

// The rows of launch `launch` of `change`'s pass before it whose diagonal entry (i, .., i) that
// launch writes: those whose own index lies in the indices of the launch's piece (every row of the
// staying rows' launch). Over a change's launches, each row of the rank once.
std::vector<int> diagonal_rows_of_launch(const OverlappedChange& change, const PivotGroup& group, std::size_t launch,
                                         int size);

// The plan for rank `me` whose slab holds `now` and runs `group` last before the change to `next`,
// the leaving rows in `pieces` pieces (at most ceil(N / 2)); pipelined with the pass of
// `next_group` after it where that group's and this one's pairs make two components or more.
// @pre now holds `group` whole, next holds next_group whole, and the change swaps in place
// (row_exchange.hpp's swaps_in_place).
OverlappedChange overlapped_change(const PivotGroup& group, const SlabLayout& now, const SlabLayout& next, int me,
                                   int pieces, const PivotGroup* next_group = nullptr);

}  // namespace tensordiag::runtime
