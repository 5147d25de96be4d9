#pragma once
// What every benchmark here needs to report a time: the median of repeated runs, and the wall
// time of one call.
#include <algorithm>
#include <vector>

#include "runtime/core/stopwatch.hpp"

namespace tensordiag::bench {

// @pre !values.empty(); the mean of the two middle values for an even count.
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

template <class F>
double wall_seconds(F&& f) {
  const runtime::Stopwatch stopwatch;
  f();
  return stopwatch.seconds();
}

}  // namespace tensordiag::bench
