#pragma once
// A rank of `mpirun -np P tensordiag ... --distributed` whose peer died: mpirun ends the job by
// sending the survivors SIGTERM, but a survivor waiting in a collective that can never complete
// does not reach its next cancel check (interrupt_signals.hpp). The watchdog, a thread beside the
// run, sees the recorded signal; when the run has not ended `grace` later, it prints the rank's one
// line, runs `cleanup` (the staged outputs) and ends the process with 128 + the signal's number.
#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <thread>

namespace tensordiag::cli {

class LostRankWatchdog {
public:
  LostRankWatchdog(int rank, std::function<void()> cleanup,
                   std::chrono::milliseconds grace = std::chrono::milliseconds(200));
  ~LostRankWatchdog();  // the run ended: stops watching
  LostRankWatchdog(const LostRankWatchdog&) = delete;
  LostRankWatchdog& operator=(const LostRankWatchdog&) = delete;

private:
  void watch(int rank, std::chrono::milliseconds grace);

  std::function<void()> cleanup_;
  std::atomic<bool> done_ = false;
  std::thread thread_;
};

}  // namespace tensordiag::cli
