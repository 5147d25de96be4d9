#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace tensordiag::cli {

std::function<bool(const runtime::SweepRecord&)> sweep_progress(bool quiet, int max_sweeps) {
  if (quiet || !::isatty(STDERR_FILENO)) return {};
  return [max_sweeps](const runtime::SweepRecord& record) {
    std::fprintf(stderr, "tensordiag: sweep %d/%d  off_rel %.3e  diag_norm2 %.9e  %.3g s\n",
                 record.sweep, max_sweeps, record.off_rel, record.diag_norm2, record.seconds);
    return false;
  };
}

}  // namespace tensordiag::cli
