#pragma once
// What an engine needs to know of a run besides the tensors and the rule, settled from Options by
// diagonalize(): the stop criteria for the dtype, the pivot check, the CPU threads, the callback,
// the cancel check, whether to verify the result.
#include <functional>

#include "runtime/algorithm/run_options.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/stop_criteria.hpp"

namespace tensordiag::runtime {

struct RunSettings {
  StopCriteria stop;
  double eta = 0.0;  // pivot check threshold; 0 disables the check
  int threads = 0;   // CPU threads; 0 = all hardware threads
  std::function<bool(const SweepRecord&)> on_sweep;
  PivotNorm pivot_norm = PivotNorm::automatic;
  bool verify = false;  // fill Result::verification at the end of the run
  CancelCheck cancelled = {};  // empty: never cancelled
  SweepSchedule schedule = SweepSchedule::automatic;
  Structure structure = Structure::general;  // engines that cannot keep a structure decline it
  // Init::hosvd reaches only an engine that starts from the HOSVD itself (Engine::starts_from_hosvd);
  // for the others diagonalize() computes the start on the host and hands them T x_n Q_n^T.
  Init init = Init::identity;
};

}  // namespace tensordiag::runtime
