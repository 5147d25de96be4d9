#pragma once
// The block entries C[B_k] of a skew core (runtime/algorithm/skew_blocks.hpp), k < N / D, in double.
#include <vector>

#include "runtime/algorithm/skew_blocks.hpp"

namespace tensordiag::testing {

template <class T>
std::vector<double> block_entries(const runtime::HostTensor<T>& core) {
  std::vector<double> out;
  for (int k = 0; k < runtime::skew_block_count(core.order(), core.size()); ++k)
    out.push_back(static_cast<double>(core.data()[runtime::skew_block_offset(core.strides(), k)]));
  return out;
}

}  // namespace tensordiag::testing
