#pragma once
// How a caller stops a long run from outside: a check the work asks between sweeps and between the
// steps of long host loops (never inside a parallel region or a kernel). The CLI answers from the
// flag its signal handler sets, the Python module from Python's pending signals; the runtime knows
// neither. Returning true ends the work by throwing run_cancelled; a check may also throw its own
// exception (Python's KeyboardInterrupt), which propagates unchanged. Either way the work unwinds:
// what it allocated is freed, and it has written nothing (the runtime writes no output files).
#include <functional>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

// Empty: the work is never cancelled. Called on the thread that started the work.
using CancelCheck = std::function<bool()>;

inline void stop_if_cancelled(const CancelCheck& cancelled) {
  if (cancelled && cancelled()) throw run_cancelled();
}

}  // namespace tensordiag::runtime
