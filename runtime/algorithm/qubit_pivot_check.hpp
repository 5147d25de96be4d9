#pragma once
// The pivot check of an N = 2 tensor (DESIGN.md section 7). Its one pair (0, 1) has Lambda =
// [[0, l], [-l, 0]], whose 2-norm is |l|, so the pair is rotated iff 2 |l| >= eta |l|: for every
// l when eta <= 2 (l = 0 too: 0 >= 0), and only where l = 0 above. So for eta below 2 the check
// accepts every rotation, and a run with it is the run without it, bit for bit: the N = 2 engines
// (gpu_qubit_engine, gpu_qubit_ranks) take such an eta without forming Lambda. They keep a margin
// (eta < 1.5): near 2 the computed norm's last bits decide, and the general engines decide there.
#include "runtime/algorithm/pivot_norm_bounds.hpp"

namespace tensordiag::runtime {

inline constexpr double qubit_pivot_check_eta_limit = 1.5;

inline bool pivot_check_accepts_every_pair(int size, double eta) {
  return size == 2 && eta < qubit_pivot_check_eta_limit;
}

// What such a run reports: a check a mode a sweep (one group), each decided by Lambda's columns
// (for a 2 x 2 skew Lambda the column bound is its norm), none needing the exact norm.
inline PivotCheckCount every_pair_accepted(int sweeps, int order) {
  PivotCheckCount count;
  count.checks = static_cast<long long>(sweeps) * order;
  count.by_columns = count.checks;
  return count;
}

}  // namespace tensordiag::runtime
