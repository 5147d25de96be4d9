#pragma once
// The command's line on how a run ended is the runtime's (runtime/algorithm/stop_summary.hpp), which the
// Python module returns too.
#include "runtime/algorithm/stop_summary.hpp"

namespace tensordiag::cli {

using runtime::stop_summary;

}  // namespace tensordiag::cli
