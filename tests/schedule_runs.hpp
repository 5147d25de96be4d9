#pragma once
// One tensor run twice with the same options, once with the round robin and once with the XOR
// schedule: the comparison every schedule test makes.
#include "runtime/diagonalize.hpp"

namespace tensordiag::testing {

template <class T>
struct ScheduleRuns {
  runtime::Result<T> round_robin;
  runtime::Result<T> by_xor;
};

template <class T>
ScheduleRuns<T> run_both_schedules(const runtime::HostTensor<T>& tensor, runtime::Options options) {
  options.schedule = runtime::SweepSchedule::round_robin;
  runtime::Result<T> round_robin = runtime::diagonalize(tensor, options);
  options.schedule = runtime::SweepSchedule::xor_subspaces;
  return {std::move(round_robin), runtime::diagonalize(tensor, options)};
}

}  // namespace tensordiag::testing
