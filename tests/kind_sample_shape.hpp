#pragma once
// The shape a test that takes every kernel kind in turn gives each kind: its own (order, size),
// except for qubit_sweep, which serves N = 2 with D >= 20 only (N = 2, D = 20).
#include <string_view>
#include <utility>

namespace tensordiag::testing {

inline std::pair<int, int> sample_shape(std::string_view kind, int order, int size) {
  return kind == "qubit_sweep" ? std::pair{20, 2} : std::pair{order, size};
}

}  // namespace tensordiag::testing
