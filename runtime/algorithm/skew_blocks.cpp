#include "runtime/algorithm/skew_blocks.hpp"


namespace tensordiag::runtime {

std::ptrdiff_t skew_block_offset(const std::vector<std::ptrdiff_t>& strides, int block) {
  const auto order = static_cast<int>(strides.size());
  std::ptrdiff_t offset = 0;
  for (int n = 0; n < order; ++n) offset += static_cast<std::ptrdiff_t>(block * order + n) * strides[static_cast<std::size_t>(n)];
  return offset;
}

template <class T>
SkewPivot skew_pivot_values(const HostTensor<T>& core, int p, int q) {
  const int order = core.order();
  const int block_p = skew_block_of(p, order, core.size());
  const int block_q = skew_block_of(q, order, core.size());
  SkewPivot v;
  if (block_p == block_q) return v;  // one block (invariant) or none (no block entry involved)
  const auto& strides = core.strides();
  const T* data = core.data();
  // The mode that holds p in B_A is p - A D: replacing p by q there moves the offset by (q - p) stride.
  if (block_p >= 0) {
    const std::ptrdiff_t at = skew_block_offset(strides, block_p);
    v.a = data[at];
    v.b = data[at + (q - p) * strides[static_cast<std::size_t>(p - block_p * order)]];
  }
  if (block_q >= 0) {
    const std::ptrdiff_t at = skew_block_offset(strides, block_q);
    v.d = data[at];
    v.e = data[at + (p - q) * strides[static_cast<std::size_t>(q - block_q * order)]];
  }
  return v;
}

template <class T>
SkewFigures skew_figures(const HostTensor<T>& core) {
  const int order = core.order();
  const int size = core.size();
  const auto& strides = core.strides();
  SkewFigures figures;
  for (int k = 0; k < skew_block_count(order, size); ++k) {
    const double x = core.data()[skew_block_offset(strides, k)];
    figures.block_norm2 += x * x;
    figures.block_sum += x;
  }
  // Every multi-index (odometer), carrying its offset. An entry with a repeated index is 0 by the
  // structure (the input check allows rounding there, which no rotation moves): it is not counted.
  // An entry with distinct indices is on the blocks when they all share one block.
  std::vector<int> index(static_cast<std::size_t>(order), 0);
  std::vector<char> seen(static_cast<std::size_t>(size), 0);
  std::ptrdiff_t offset = 0;
  for (std::size_t flat = 0; flat < core.count(); ++flat) {
    const int block = skew_block_of(index[0], order, size);
    bool distinct = true, on_block = block >= 0;
    for (const int i : index) {
      distinct = distinct && !seen[static_cast<std::size_t>(i)];
      seen[static_cast<std::size_t>(i)] = 1;
      on_block = on_block && skew_block_of(i, order, size) == block;
    }
    for (const int i : index) seen[static_cast<std::size_t>(i)] = 0;
    if (distinct && !on_block) {
      const double x = core.data()[offset];
      figures.off_norm2 += x * x;
    }
    for (int n = order - 1; n >= 0; --n) {
      const auto m = static_cast<std::size_t>(n);
      offset += strides[m];
      if (++index[m] < size) break;
      offset -= size * strides[m];
      index[m] = 0;
    }
  }
  return figures;
}

template SkewPivot skew_pivot_values(const HostTensor<float>&, int, int);
template SkewPivot skew_pivot_values(const HostTensor<double>&, int, int);
template SkewFigures skew_figures(const HostTensor<float>&);
template SkewFigures skew_figures(const HostTensor<double>&);

}  // namespace tensordiag::runtime
