// When a run stops (runtime/algorithm/stop_criteria.hpp), on hand-made histories: tolerance first,
// a stall only when the objective's gain is under stall_tol and off_rel did not halve (the
// quadratic last sweep of a converging run is progress), the trace for max_trace, max_sweeps last.
#include <doctest/doctest.h>

#include <vector>

#include "runtime/algorithm/stop_criteria.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;

namespace {

// history[0] the input, then one record a sweep: {sweep, off_rel, ||diag C||^2, trace}.
std::vector<SweepRecord> history(std::initializer_list<SweepRecord> records) { return records; }

constexpr StopCriteria float64_criteria{100, 1e-12, 1e-13, dsl::StallFigure::diag_norm2};

}  // namespace

TEST_CASE("stop criteria: a sweep under stall_tol that shrinks off_rel a hundred-thousandfold is not a stall") {
  // Jacobi at D = 2, N = 1100 (measured on the H100): off_rel 3e-7 -> 1.7e-12 gains ~1e-13 of ||diag||^2.
  const double diag = 350.0;
  const auto converging = history({{0, 1.0, 100.0, 1.0}, {1, 3e-7, diag, 2.0}, {2, 1.7e-12, diag * (1 + 9e-14), 2.0}});
  CHECK_FALSE(stop_reason_after(converging, float64_criteria, false).has_value());
  // The next sweep reaches tol.
  auto done = converging;
  done.push_back({3, 4e-16, diag * (1 + 9e-14), 2.0});
  CHECK(stop_reason_after(done, float64_criteria, false) == StopReason::tolerance);
}

TEST_CASE("stop criteria: under stall_tol without halving off_rel is a stall, at a limit or at rounding's floor") {
  const double diag = 80.0;
  const auto at_limit = history({{0, 1.0, 10.0, 1.0}, {1, 0.31, diag, 2.0}, {2, 0.30, diag * (1 + 5e-14), 2.0}});
  CHECK(stop_reason_after(at_limit, float64_criteria, false) == StopReason::stalled);
  // Just halved is progress; a little less than halved is not.
  const auto halved = history({{0, 1.0, 10.0, 1.0}, {1, 0.4, diag, 2.0}, {2, 0.2, diag, 2.0}});
  CHECK_FALSE(stop_reason_after(halved, float64_criteria, false).has_value());
  const auto almost = history({{0, 1.0, 10.0, 1.0}, {1, 0.4, diag, 2.0}, {2, 0.2001, diag, 2.0}});
  CHECK(stop_reason_after(almost, float64_criteria, false) == StopReason::stalled);
  // A gain over stall_tol continues whatever off_rel did.
  const auto gaining = history({{0, 1.0, 10.0, 1.0}, {1, 0.4, diag, 2.0}, {2, 0.39, diag * (1 + 1e-9), 2.0}});
  CHECK_FALSE(stop_reason_after(gaining, float64_criteria, false).has_value());
}

TEST_CASE("stop criteria: max_trace watches the trace, tolerance comes before the callback, max_sweeps last") {
  StopCriteria trace_criteria = float64_criteria;
  trace_criteria.stalls_on = dsl::StallFigure::trace;
  // ||diag C||^2 grows, the trace does not: a stall for max_trace only.
  const auto flat_trace = history({{0, 1.0, 10.0, 3.0}, {1, 0.5, 20.0, 4.0}, {2, 0.45, 30.0, 4.0}});
  CHECK(stop_reason_after(flat_trace, trace_criteria, false) == StopReason::stalled);
  CHECK_FALSE(stop_reason_after(flat_trace, float64_criteria, false).has_value());
  const auto reached = history({{0, 1.0, 10.0, 3.0}, {1, 1e-13, 20.0, 4.0}});
  CHECK(stop_reason_after(reached, float64_criteria, true) == StopReason::tolerance);
  const auto early = history({{0, 1.0, 10.0, 3.0}, {1, 0.5, 20.0, 4.0}});
  CHECK(stop_reason_after(early, float64_criteria, true) == StopReason::callback);
  StopCriteria one_sweep = float64_criteria;
  one_sweep.max_sweeps = 1;
  CHECK(stop_reason_after(early, one_sweep, false) == StopReason::max_sweeps);
}
