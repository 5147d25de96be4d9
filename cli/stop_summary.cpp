#include "cli/stop_summary.hpp"

#include <cstdio>

namespace tensordiag::cli {

namespace {

// printf ignores arguments the pattern does not use (C11 7.21.6.1), so every case passes all three.
std::string format(const char* pattern, int sweeps, double off_rel, double bound) {
  char line[200];
  std::snprintf(line, sizeof line, pattern, sweeps, off_rel, bound);
  return line;
}

}  // namespace

template <class T>
std::string stop_summary(const runtime::Result<T>& result) {
  const double off_rel = result.history.back().off_rel;
  switch (result.stop_reason) {
    case runtime::StopReason::tolerance:
      return format("converged after %d sweeps: off_rel %.3e <= tol %.3g", result.sweeps(), off_rel,
                    result.tol);
    case runtime::StopReason::stalled:
      return format("stalled after %d sweeps: off_rel %.3e (a sweep raised ||diag C||^2 by less "
                    "than stall_tol %.3g, relative)",
                    result.sweeps(), off_rel, result.stall_tol);
    case runtime::StopReason::max_sweeps:
      return format("stopped at max_sweeps (%d): off_rel %.3e > tol %.3g", result.sweeps(), off_rel,
                    result.tol);
    case runtime::StopReason::callback:
      break;
  }
  return format("stopped by the caller after %d sweeps: off_rel %.3e", result.sweeps(), off_rel,
                0.0);
}

template std::string stop_summary(const runtime::Result<float>&);
template std::string stop_summary(const runtime::Result<double>&);

}  // namespace tensordiag::cli
