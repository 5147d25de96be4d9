#include "cli/lost_rank_watchdog.hpp"

#include <cstdio>
#include <cstdlib>

#include "cli/interrupt_signals.hpp"

namespace tensordiag::cli {

LostRankWatchdog::LostRankWatchdog(int rank, std::function<void()> cleanup, std::chrono::milliseconds grace)
    : cleanup_(std::move(cleanup)), thread_([this, rank, grace] { watch(rank, grace); }) {}

LostRankWatchdog::~LostRankWatchdog() {
  done_ = true;
  thread_.join();
}

void LostRankWatchdog::watch(int rank, std::chrono::milliseconds grace) {
  using clock = std::chrono::steady_clock;
  constexpr auto poll = std::chrono::milliseconds(50);
  std::optional<clock::time_point> signalled;
  while (!done_) {
    std::this_thread::sleep_for(poll);
    const int signal = caught_interrupt_signal();
    if (signal == 0) continue;
    if (!signalled) signalled = clock::now();
    if (clock::now() - *signalled < grace) continue;
    std::fprintf(stderr,
                 "tensordiag: error: rank %d: %s while waiting for the other ranks (a rank was lost or stopped); "
                 "nothing written\n",
                 rank, interrupt_description(signal));
    std::fflush(stderr);
    if (cleanup_) cleanup_();
    std::_Exit(128 + signal);
  }
}

}  // namespace tensordiag::cli
