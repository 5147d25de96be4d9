#include "runtime/algorithm/stop_summary.hpp"

#include <cstdio>

namespace tensordiag::runtime {

namespace {

template <class... Values>
std::string format(const char* pattern, Values... values) {
  char line[200];
  std::snprintf(line, sizeof line, pattern, values...);
  return line;
}

}  // namespace

std::string stop_summary(StopReason reason, dsl::StallFigure stalls_on, int sweeps, double off_rel, double tol,
                         double stall_tol) {
  switch (reason) {
    case StopReason::tolerance:
      return format("converged after %d sweeps: off_rel %.3e <= tol %.3g", sweeps, off_rel, tol);
    case StopReason::stalled:
      return format("stalled after %d sweeps: off_rel %.3e (a sweep raised %s by less than stall_tol %.3g, relative, "
                    "and did not halve off_rel)",
                    sweeps, off_rel, stalls_on == dsl::StallFigure::trace ? "the trace" : "||diag C||^2", stall_tol);
    case StopReason::max_sweeps:
      return format("stopped at max_sweeps (%d): off_rel %.3e > tol %.3g", sweeps, off_rel, tol);
    case StopReason::callback:
      break;
  }
  return format("stopped by the caller after %d sweeps: off_rel %.3e", sweeps, off_rel);
}

}  // namespace tensordiag::runtime
