#include "runtime/distributed/overlapped_change.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>

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

// The index each representative of `group` stands for in the second memory mode's graph: its
// pair's p, or an odd N's unpaired index (the last representative).
std::vector<int> representative_heads(const PivotGroup& group, int size) {
  std::vector<int> heads;
  for (const PivotPair& pair : group) heads.push_back(pair.p);
  if (size % 2 == 1) heads.push_back(representative_indices(group, {static_cast<int>(group.size())}, size).front());
  return heads;
}

// Each index's component in the graph whose edges are the pairs of both groups, numbered by the
// smallest index of each.
std::vector<int> components(const PivotGroup& first, const PivotGroup& second, int size) {
  std::vector<int> root(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) root[static_cast<std::size_t>(i)] = i;
  const auto find = [&root](int i) {
    while (root[static_cast<std::size_t>(i)] != i) i = root[static_cast<std::size_t>(i)];
    return i;
  };
  for (const PivotGroup* group : {&first, &second})
    for (const PivotPair& pair : *group) {
      const int a = find(pair.p), b = find(pair.q);
      root[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
    }
  std::vector<int> component(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) component[static_cast<std::size_t>(i)] = find(i);
  return component;
}

// Makes `change` pipelined with the pass of `next_group` after it where the two groups' pairs make
// two components or more: its pieces take the representatives component by component (stable
// within one), so that each component's pieces come together, and the launch of a component's
// next-group pairs waits for the last of them (components whose last piece is the same share it).
void pipeline(OverlappedChange& change, const PivotGroup& group, const PivotGroup& next_group, int size) {
  const int representatives = static_cast<int>(change.order.size());
  const std::vector<int> component = components(group, next_group, size);
  const std::vector<int> heads = representative_heads(group, size);
  const auto component_of = [&](int r) { return component[static_cast<std::size_t>(heads[static_cast<std::size_t>(r)])]; };
  std::stable_sort(change.order.begin(), change.order.end(), [&](int a, int b) { return component_of(a) < component_of(b); });
  if (component_of(change.order.front()) == component_of(change.order.back())) return;  // one component
  const std::vector<int> next_heads = representative_heads(next_group, size);
  for (int position = 0; position < representatives;) {
    const int c = component_of(change.order[static_cast<std::size_t>(position)]);
    while (position < representatives && component_of(change.order[static_cast<std::size_t>(position)]) == c) ++position;
    int piece = 0;  // the piece holding the component's last position
    while (piece_representatives(piece, change.pieces, representatives).second < position) ++piece;
    if (change.pipelined.empty() || change.pipelined.back().after_piece != piece) change.pipelined.push_back({{}, piece});
    std::vector<int>& launch = change.pipelined.back().representatives;
    for (int r = 0; r < static_cast<int>(next_heads.size()); ++r)
      if (component[static_cast<std::size_t>(next_heads[static_cast<std::size_t>(r)])] == c) launch.push_back(r);
    std::sort(launch.begin(), launch.end());
  }
}

}  // namespace

std::pair<int, int> piece_representatives(int piece, int pieces, int representatives) {
  return {piece * representatives / pieces, (piece + 1) * representatives / pieces};
}

std::vector<int> representatives_of_piece(const OverlappedChange& change, int piece) {
  const auto [begin, end] = piece_representatives(piece, change.pieces, static_cast<int>(change.order.size()));
  return {change.order.begin() + begin, change.order.begin() + end};
}

std::vector<int> representative_indices(const PivotGroup& group, const std::vector<int>& representatives, int size) {
  std::vector<int> indices;
  for (const int r : representatives) {
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

std::vector<int> diagonal_rows_of_launch(const OverlappedChange& change, const PivotGroup& group, std::size_t launch,
                                         int size) {
  const OverlappedLaunch& at = change.launches[launch];
  if (at.piece < 0) return at.rows;
  std::vector<int> piece = representative_indices(group, representatives_of_piece(change, at.piece), size);
  std::sort(piece.begin(), piece.end());
  std::vector<int> rows;
  for (const int row : at.rows)
    if (std::binary_search(piece.begin(), piece.end(), row)) rows.push_back(row);
  return rows;
}

OverlappedChange overlapped_change(const PivotGroup& group, const SlabLayout& now, const SlabLayout& next, int me,
                                   int pieces, const PivotGroup* next_group) {
  OverlappedChange change;
  int size = 0;
  for (const auto& rows : now.rows) size += static_cast<int>(rows.size());
  const int representatives = (size + 1) / 2;
  change.pieces = std::clamp(pieces, 1, representatives);
  change.order.resize(static_cast<std::size_t>(representatives));
  std::iota(change.order.begin(), change.order.end(), 0);
  if (next_group) pipeline(change, group, *next_group, size);
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
