#pragma once
// A line per sweep on stderr while a long run works. Only on a terminal: a redirected stderr (a
// log, a test) gets errors alone, and --quiet silences it.
#include <functional>

#include "runtime/diagonalize.hpp"

namespace tensordiag::cli {

// The Options::on_sweep callback: prints and never asks the run to stop. Empty (no callback) when
// `quiet` or when stderr is not a terminal.
std::function<bool(const runtime::SweepRecord&)> sweep_progress(bool quiet, int max_sweeps);

}  // namespace tensordiag::cli
