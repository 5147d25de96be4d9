#include "runtime/algorithm/skew_signs.hpp"

#include "runtime/algorithm/core_figures.hpp"
#include "runtime/algorithm/skew_blocks.hpp"

namespace tensordiag::runtime {

template <class T>
void make_skew_blocks_nonnegative(Result<T>& result) {
  HostTensor<T>& core = result.core;
  const int order = core.order();
  Matrix<T>& q = result.factors.front();
  const auto& strides = core.strides();
  const auto count = static_cast<std::ptrdiff_t>(core.count());
  for (int k = 0; k < skew_block_count(order, core.size()); ++k) {
    if (!(core.data()[skew_block_offset(strides, k)] < 0)) continue;
    const int i = k * order;
    for (const std::ptrdiff_t stride : strides)
      for (std::ptrdiff_t base = 0; base < count; base += stride * core.size())
        for (std::ptrdiff_t e = 0; e < stride; ++e) core.data()[base + i * stride + e] *= T(-1);
    for (int row = 0; row < q.n; ++row) q(row, i) *= T(-1);
  }
  const Matrix<T> shared = q;
  result.factors.assign(static_cast<std::size_t>(order), shared);
  if (result.history.size() > 1) result.history.back().trace = core_figures(core, Structure::skew).trace;
}

template void make_skew_blocks_nonnegative(Result<float>&);
template void make_skew_blocks_nonnegative(Result<double>&);

}  // namespace tensordiag::runtime
