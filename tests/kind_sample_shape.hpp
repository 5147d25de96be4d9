#pragma once
// The shape a test that takes every kernel kind in turn gives each kind: its own (order, size),
// except for qubit_sweep, which serves N = 2 with D >= 20 only (N = 2, D = 20), and the XOR
// subspace kinds, which serve N a power of two only (N = 4 in place of another N).
#include <string_view>
#include <utility>

namespace tensordiag::testing {

inline std::pair<int, int> sample_shape(std::string_view kind, int order, int size) {
  if (kind == "qubit_sweep") return {20, 2};
  if ((kind == "subspace_angles" || kind == "subspace_apply") && (size & (size - 1)) != 0) return {order, 4};
  return {order, size};
}

}  // namespace tensordiag::testing
