#pragma once
// Wall time in seconds on the monotonic clock: what every timing of a report and a benchmark reads.
#include <chrono>

namespace tensordiag::runtime {

class Stopwatch {
public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  // Seconds since construction or the last restart.
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  void restart() { start_ = std::chrono::steady_clock::now(); }

private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tensordiag::runtime
