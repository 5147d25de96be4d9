#pragma once
// A tensor shape a GPU test runs: order, size and layout.
#include "runtime/core/tensor.hpp"

namespace tensordiag::testing {

struct Shape {
  int order, size;
  runtime::Layout layout = runtime::Layout::c_order;
};

}  // namespace tensordiag::testing
