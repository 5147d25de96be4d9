// Options::cancelled and GeneratorOptions::cancelled: the work stops at the check that says so,
// by throwing run_cancelled, and a check's own exception passes through unchanged.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "random_tensor.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"

namespace {

using namespace tensordiag;

// Answers true from its `stop_at`-th call on, counting the calls.
struct CountingCheck {
  int stop_at;
  int* calls;
  bool operator()() const { return ++*calls >= stop_at; }
};

// A long CPU run: no tolerance or stall stop before max_sweeps.
runtime::Options endless_options() {
  runtime::Options options;
  options.backend = runtime::Backend::cpu;
  options.tol = 0;
  options.stall_tol = 0;
  options.max_sweeps = 1000;
  options.threads = 1;
  return options;
}

}  // namespace

TEST_CASE("cancellation: a run stops at the check that says so, with no sweep after it") {
  const auto tensor = testing::random_tensor<double>(3, 6, 11);
  // Checks, in order: 1 before the engine starts, then per sweep 1 before it and 1 before each of
  // its 5 group steps (N = 6). Sweep k has ended iff its last check, number 1 + 6k, said no.
  for (const int stop_at : {1, 2, 7, 8, 20}) {
    int calls = 0;
    std::vector<int> swept;
    runtime::Options options = endless_options();
    options.cancelled = CountingCheck{stop_at, &calls};
    options.on_sweep = [&swept](const runtime::SweepRecord& record) {
      swept.push_back(record.sweep);
      return false;
    };
    CAPTURE(stop_at);
    CHECK_THROWS_AS(runtime::diagonalize(tensor, options), run_cancelled);
    CHECK(calls == stop_at);
    CHECK(static_cast<int>(swept.size()) == std::max(0, (stop_at - 2) / 6));
  }
}

TEST_CASE("cancellation: a check that never fires changes nothing") {
  const auto tensor = testing::random_tensor<double>(3, 5, 12);
  runtime::Options options = endless_options();
  options.max_sweeps = 4;
  const auto plain = runtime::diagonalize(tensor, options);
  int calls = 0;
  options.cancelled = CountingCheck{1 << 30, &calls};
  const auto checked = runtime::diagonalize(tensor, options);
  CHECK(calls > 4);
  CHECK(checked.stop_reason == runtime::StopReason::max_sweeps);
  CHECK(checked.core.values() == plain.core.values());
}

TEST_CASE("cancellation: a batch is asked in every tensor's run") {
  // No rotation changes this tensor (its one off-diagonal entry has three distinct indices, so it
  // is no pivot entry): with tol 0 and stall_tol 0 each run takes all of max_sweeps.
  runtime::HostTensor<float> unchanging(3, 4, runtime::Layout::c_order);
  for (int i = 0; i < 4; ++i) unchanging.at({i, i, i}) = static_cast<float>(i + 1);
  unchanging.at({0, 1, 2}) = 1;
  const std::vector<runtime::HostTensor<float>> batch(2, unchanging);
  runtime::Options options = endless_options();
  options.max_sweeps = 10;
  // 1 check before the engine, then per tensor 10 sweeps of 1 + 3 group steps: 81 in all.
  int calls = 0;
  options.cancelled = CountingCheck{1000, &calls};
  CHECK(runtime::diagonalize_batch(batch, options).size() == 2);
  CHECK(calls == 81);
  calls = 0;
  options.cancelled = CountingCheck{60, &calls};  // in the second tensor's run
  CHECK_THROWS_AS(runtime::diagonalize_batch(batch, options), run_cancelled);
  CHECK(calls == 60);
}

TEST_CASE("cancellation: an exception from the check reaches the caller unchanged") {
  runtime::Options options = endless_options();
  options.cancelled = []() -> bool { throw std::out_of_range("the caller's own"); };
  CHECK_THROWS_WITH_AS(runtime::diagonalize(testing::random_tensor<double>(3, 4, 3), options), "the caller's own",
                       std::out_of_range);
}

TEST_CASE("cancellation: the generator stops between its rank-one terms") {
  runtime::GeneratorOptions options;
  options.order = 4;
  options.size = 6;
  int calls = 0;
  options.cancelled = CountingCheck{3, &calls};
  CHECK_THROWS_AS(runtime::generate_diagonalizable<double>(options), run_cancelled);
  CHECK(calls == 3);
  options.cancelled = {};
  CHECK(runtime::generate_diagonalizable<double>(options).tensor.count() == 6 * 6 * 6 * 6);
}
