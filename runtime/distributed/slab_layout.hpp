#pragma once
// How a tensor is spread over ranks (issue 14; docs/DESIGN.md, "Between GPUs and hosts"): by the
// indices of its slowest memory mode (mode 1 in C order, mode D in Fortran order), whole rows of
// N^(D-1) entries, contiguous in memory and in the .npy file. Rank r holds the rows rows[r], in
// ascending order, its t-th at offset t * N^(D-1) of its slab. Which rows a rank holds changes
// between the stages of a sweep (distributed_schedule.hpp).
#include <vector>

#include "runtime/algorithm/pivot_schedule.hpp"

namespace tensordiag::runtime {

struct SlabLayout {
  std::vector<std::vector<int>> rows;  // per rank, ascending

  int ranks() const { return static_cast<int>(rows.size()); }
  // The rank that holds row `index`, and its position there. Throws internal_error when none does.
  int owner(int index) const;
  int position(int index) const;
  // Whether every pair of `group` lies within one rank's rows: then the group's rotations in the
  // distributed mode need no other rank's data.
  bool holds_whole(const PivotGroup& group) const;
};

}  // namespace tensordiag::runtime
