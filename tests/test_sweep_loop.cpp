// The sweep loop (runtime/algorithm/sweep_loop.hpp) with a sweep that asks whether the run goes on
// before it returns (the GPU ranks' change at a sweep's end): the record enters the history once,
// the callback is asked once a sweep, and the answer is the one the criteria give after the whole
// sweep; a sweep that does not ask is judged on the record it returns, as before.
#include <doctest/doctest.h>

#include <vector>

#include "runtime/algorithm/sweep_loop.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;

namespace {

// off_rel a sweep: 0.5, 0.25, 0.125, ... (halving: never a stall); the diagonal grows.
SweepRecord halving(int sweep) {
  double off = 1.0;
  for (int n = 0; n < sweep; ++n) off *= 0.5;
  return SweepRecord{sweep, off, 10.0 - off, 1.0, 0.0};
}

struct Loop {
  std::vector<SweepRecord> history;  // the input's record, then one a sweep
  std::vector<bool> answers;  // what goes_on said, sweep by sweep
  int callbacks = 0;
  StopReason reason = StopReason::max_sweeps;
};

// The loop with `settings`, each sweep asking goes_on when `asks(n)`; `stop_at` makes the callback
// ask to stop after that sweep (0: never).
template <class Asks>
Loop run(StopCriteria stop, int stop_at, const Asks& asks) {
  Loop loop;
  loop.history.push_back(halving(0));
  RunSettings settings;
  settings.stop = stop;
  settings.on_sweep = [&loop, stop_at](const SweepRecord& record) {
    ++loop.callbacks;
    return record.sweep == stop_at;
  };
  loop.reason = run_sweeps(loop.history, settings, [&](int n, const GoesOn& goes_on) {
    if (asks(n)) loop.answers.push_back(goes_on(halving(n)));
    return halving(n);
  });
  return loop;
}

}  // namespace

TEST_CASE("run_sweeps: a sweep that asks goes_on gets the answer the loop then keeps, its record taken once") {
  const StopCriteria criteria{6, 0.1, 0.0};  // off_rel 0.0625 <= 0.1 after sweep 4
  for (const int asking : {0, 1, 2}) {       // none asks, every sweep asks, the odd ones ask
    CAPTURE(asking);
    const auto asks = [asking](int n) { return asking == 1 || (asking == 2 && n % 2 == 1); };
    const Loop loop = run(criteria, 0, asks);
    CHECK(loop.reason == StopReason::tolerance);
    REQUIRE(loop.history.size() == 5);
    for (int n = 0; n < 5; ++n) CHECK(loop.history[static_cast<std::size_t>(n)].sweep == n);
    CHECK(loop.callbacks == 4);
    if (asking == 1) CHECK(loop.answers == std::vector<bool>{true, true, true, false});
    if (asking == 2) CHECK(loop.answers == std::vector<bool>{true, true});
  }
  // The callback's stop and max_sweeps reach the asking sweep too.
  const Loop by_callback = run(criteria, 2, [](int) { return true; });
  CHECK(by_callback.reason == StopReason::callback);
  CHECK(by_callback.answers == std::vector<bool>{true, false});
  CHECK(by_callback.callbacks == 2);
  const Loop by_count = run(StopCriteria{3, 0.0, 0.0}, 0, [](int) { return true; });
  CHECK(by_count.reason == StopReason::max_sweeps);
  CHECK(by_count.answers == std::vector<bool>{true, true, false});
  CHECK(by_count.history.size() == 4);
}

TEST_CASE("run_sweeps: a sweep of one argument is judged on the record it returns") {
  std::vector<SweepRecord> history;
  history.push_back(halving(0));
  RunSettings settings;
  settings.stop = StopCriteria{10, 0.2, 0.0};
  int sweeps = 0;
  const StopReason reason = run_sweeps(history, settings, [&](int n) {
    ++sweeps;
    return halving(n);
  });
  CHECK(reason == StopReason::tolerance);
  CHECK(sweeps == 3);  // 0.125 <= 0.2
  CHECK(history.size() == 4);
}
