#include "cli/interrupt_signals.hpp"

#include <atomic>
#include <csignal>

namespace tensordiag::cli {

namespace {

// A lock-free atomic, not a volatile sig_atomic_t: the handler may run on any of the process's
// threads (OpenMP's, the CUDA runtime's), two at once for two signals, and the flag is read on
// another. Lock-free atomics are async-signal-safe.
std::atomic<int> caught_signal = 0;
static_assert(std::atomic<int>::is_always_lock_free);

// Keeps the first signal handled; calls nothing else.
extern "C" void record_signal(int signal) {
  int none = 0;
  caught_signal.compare_exchange_strong(none, signal);
}

}  // namespace

void catch_interrupt_signals() {
  struct sigaction action {};
  action.sa_handler = record_signal;
  action.sa_flags = SA_RESTART;
  // Both blocked while the handler runs on a thread; the first handled is the one kept.
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int caught_interrupt_signal() noexcept { return caught_signal.load(); }

runtime::CancelCheck cancel_on_interrupt_signal() {
  return [] { return caught_signal.load() != 0; };
}

void stop_if_interrupted() { runtime::stop_if_cancelled(cancel_on_interrupt_signal()); }

const char* interrupt_description(int signal) noexcept {
  return signal == SIGTERM ? "terminated (SIGTERM)" : "interrupted (SIGINT)";
}

}  // namespace tensordiag::cli
