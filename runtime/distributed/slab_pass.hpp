#pragma once
// A group's rotations applied to a slab (the fused pass of DESIGN.md section 3, a rank's part of
// it). The rank holds each of its pairs' rows p and q whole, so the sliced mode mixes its own rows;
// every other mode mixes entries within one row, whichever pairs they belong to. The modes are
// applied in memory order, the sliced (slowest) mode first, as the one-rank pass applies them, so
// each entry goes through the same roundings and the result is the one-rank result bit for bit.
#include <omp.h>

#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/distributed/slab.hpp"
#include "runtime/engines/group_pass.hpp"

namespace tensordiag::runtime {

template <class T>
void apply_slab_pass(Slab<T>& slab, const GroupRotations<T>& group, int threads) {
  const int sliced = slab.sliced_mode();
  const IndexOffsets offsets = slab.offsets();
  for (std::size_t k = 0; k < group.pairs.size(); ++k) {
    const auto [p, q] = group.pairs[k];
    if (!offsets.holds(sliced, p)) continue;
    rotate_rows(slab.values.data() + offsets(sliced, p), slab.values.data() + offsets(sliced, q),
                slab.row_length(), group.at(sliced, k));
  }
  // The other modes, on each row: a tensor of order D - 1 in the same layout.
  GroupRotations<T> within_row(slab.order - 1, group.pairs);
  for (int mode = 0, inner = 0; mode < slab.order; ++mode) {
    if (mode == sliced) continue;
    for (std::size_t k = 0; k < group.pairs.size(); ++k) within_row.at(inner, k) = group.at(mode, k);
    ++inner;
  }
  const std::size_t rows = slab.rows().size();
  // Large rows use every thread inside; many small ones, a thread a row.
  const bool by_row = slab.row_length() < threaded_pass_entries;
#pragma omp parallel for schedule(static) num_threads(threads > 0 ? threads : omp_get_max_threads()) if (by_row)
  for (std::size_t t = 0; t < rows; ++t)
    apply_group_pass(slab.row(t), slab.order - 1, slab.size, slab.layout, within_row, by_row ? 1 : threads);
}

}  // namespace tensordiag::runtime
