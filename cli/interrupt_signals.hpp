#pragma once
// SIGINT and SIGTERM during a long command (diagonalize, generate): the handler only records the
// signal in an atomic flag; the work notices it at its next cancel check (between sweeps, between group steps, before
// committing the outputs) and unwinds by throwing run_cancelled, so the AtomicOutput destructor
// removes the temporaries and main() exits 128 + the signal's number (130, 143) with one line.
// A second signal while that cleanup runs is recorded and ignored: the handler stays installed for
// the life of the process, so nothing can kill it between an unlink and the next (SIGKILL still
// does, and then hidden .NAME.tmp-PID files may remain).
#include "runtime/algorithm/cancellation.hpp"

namespace tensordiag::cli {

// Installs the recording handler for SIGINT and SIGTERM (with SA_RESTART, so that interrupted
// reads and writes resume instead of failing with EINTR).
void catch_interrupt_signals();

// The first signal handled (of signals sent together, any may be handled first), or 0.
int caught_interrupt_signal() noexcept;

// The check for runtime::Options::cancelled and GeneratorOptions::cancelled.
runtime::CancelCheck cancel_on_interrupt_signal();

// Throws run_cancelled when a signal was caught.
void stop_if_interrupted();

// "interrupted (SIGINT)" or "terminated (SIGTERM)": what main() prints.
const char* interrupt_description(int signal) noexcept;

}  // namespace tensordiag::cli
