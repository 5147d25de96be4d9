#pragma once
// A run of exactly `sweeps` sweeps for the benches: no stop on the tolerance or a stall, no
// verification (they time the sweeps, not the convergence), as the options of diagonalize() or
// the settings an engine takes; and the sweeps' GPU time, the sum of their CUDA-event seconds.
#include <vector>

#include "runtime/algorithm/run_options.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/algorithm/run_settings.hpp"

namespace tensordiag::bench {

inline runtime::Options forced_sweeps(int sweeps) {
  runtime::Options options;
  options.max_sweeps = sweeps;
  options.tol = 0;
  options.stall_tol = 0;
  options.verify = false;
  return options;
}

inline runtime::RunSettings forced_sweep_settings(int sweeps) {
  runtime::RunSettings settings;
  settings.stop = runtime::StopCriteria{sweeps, 0.0, 0.0};
  settings.verify = false;
  return settings;
}

inline double sweeps_seconds(const std::vector<runtime::SweepRecord>& history) {
  double total = 0;
  for (const auto& record : history) total += record.seconds;
  return total;
}

}  // namespace tensordiag::bench
