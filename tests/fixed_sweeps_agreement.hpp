#pragma once
// Two runs compared sweep for sweep: options for a fixed number of round-robin sweeps (no
// tolerance ends them), and a run's core, factors and off_rel history within `bound` (relative) of
// a reference run's, as the GPU tests hold the GPU to the CPU engine.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>

#include "relative_difference.hpp"
#include "runtime/diagonalize.hpp"

namespace tensordiag::testing {

inline runtime::Options fixed_round_robin(runtime::Backend backend, int sweeps) {
  runtime::Options options;
  options.backend = backend;
  options.schedule = runtime::SweepSchedule::round_robin;
  options.max_sweeps = sweeps;
  options.tol = 0.0;
  options.stall_tol = 0.0;
  return options;
}

template <class Run>
void check_within(const Run& run, const Run& reference, double bound) {
  REQUIRE(run.sweeps() == reference.sweeps());
  CHECK(relative_difference(run.core.values(), reference.core.values()) <= bound);
  for (std::size_t n = 0; n < reference.factors.size(); ++n) {
    CAPTURE(n);
    CHECK(relative_difference(run.factors[n].data, reference.factors[n].data) <= bound);
  }
  for (std::size_t k = 0; k < reference.history.size(); ++k)
    CHECK(std::abs(run.history[k].off_rel - reference.history[k].off_rel) <= bound);
}

}  // namespace tensordiag::testing
