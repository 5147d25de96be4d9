#include "runtime/distributed/overlapped_change.hpp"

#include <algorithm>
#include <cstddef>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

// Rank r's rows in two sets: those of the pairs (or the unpaired index) with a row leaving r, and
// the rest; both ascending.
std::pair<std::vector<int>, std::vector<int>> leaving_and_staying(const PivotGroup& group, const SlabLayout& now,
                                                                  const SlabLayout& next, int r) {
  const std::vector<int>& mine = now.rows[static_cast<std::size_t>(r)];
  const auto held = [&mine](int index) { return std::binary_search(mine.begin(), mine.end(), index); };
  const auto leaves = [&](int index) { return next.owner(index) != r; };
  std::vector<int> leaving, staying;
  for (const PivotPair& pair : group) {
    if (!held(pair.p) && !held(pair.q)) continue;
    if (!held(pair.p) || !held(pair.q)) throw internal_error("overlapped_change: a pair split between ranks");
    std::vector<int>& to = leaves(pair.p) || leaves(pair.q) ? leaving : staying;
    to.insert(to.end(), {pair.p, pair.q});
  }
  for (const int index : mine)
    if (std::find(leaving.begin(), leaving.end(), index) == leaving.end() &&
        std::find(staying.begin(), staying.end(), index) == staying.end())
      (leaves(index) ? leaving : staying).push_back(index);  // an odd N's unpaired index
  std::sort(leaving.begin(), leaving.end());
  std::sort(staying.begin(), staying.end());
  return {leaving, staying};
}

// The pieces rank `from` sends rank `to`, in trade order: piece by piece, ascending rows.
std::vector<RowPiece> pieces_sent(const std::vector<int>& leaving, const SlabLayout& next, int to, int pieces) {
  std::vector<RowPiece> sent;
  for (int piece = 0; piece < pieces; ++piece)
    for (const int index : leaving)
      if (next.owner(index) == to) sent.push_back({index, piece});
  return sent;
}

}  // namespace

std::pair<int, int> piece_representatives(int piece, int pieces, int representatives) {
  return {piece * representatives / pieces, (piece + 1) * representatives / pieces};
}

std::vector<int> piece_indices(const PivotGroup& group, int piece, int pieces, int size) {
  const auto [begin, end] = piece_representatives(piece, pieces, (size + 1) / 2);
  std::vector<int> indices;
  for (int r = begin; r < end; ++r) {
    if (r < static_cast<int>(group.size())) {
      indices.insert(indices.end(), {group[static_cast<std::size_t>(r)].p, group[static_cast<std::size_t>(r)].q});
      continue;
    }
    std::vector<bool> paired(static_cast<std::size_t>(size), false);  // r is the unpaired index's
    for (const PivotPair& pair : group) paired[static_cast<std::size_t>(pair.p)] = paired[static_cast<std::size_t>(pair.q)] = true;
    indices.push_back(static_cast<int>(std::find(paired.begin(), paired.end(), false) - paired.begin()));
  }
  return indices;
}

OverlappedChange overlapped_change(const PivotGroup& group, const SlabLayout& now, const SlabLayout& next, int me,
                                   int pieces) {
  OverlappedChange change;
  std::size_t size = 0;
  for (const auto& rows : now.rows) size += rows.size();
  change.pieces = std::clamp(pieces, 1, static_cast<int>((size + 1) / 2));
  const auto [leaving, staying] = leaving_and_staying(group, now, next, me);
  if (!leaving.empty())
    for (int piece = 0; piece < change.pieces; ++piece) change.launches.push_back({leaving, piece});
  if (!staying.empty()) change.launches.push_back({staying, -1});
  for (int k = 1; k < now.ranks(); ++k) {
    const int partner = me ^ k;
    std::vector<RowPiece> sent = pieces_sent(leaving, next, partner, change.pieces);
    std::vector<RowPiece> received =
        pieces_sent(leaving_and_staying(group, now, next, partner).first, next, me, change.pieces);
    if (sent.size() != received.size()) throw internal_error("overlapped_change: an unbalanced change");
    change.sent.push_back(std::move(sent));
    change.received.push_back(std::move(received));
  }
  return change;
}

}  // namespace tensordiag::runtime
