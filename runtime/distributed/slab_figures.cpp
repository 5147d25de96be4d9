#include "runtime/distributed/slab_figures.hpp"

#include <vector>

namespace tensordiag::runtime {

template <class T>
SlabFigures slab_figures(const Slab<T>& slab, Communicator& comm) {
  const std::vector<int>& rows = slab.rows();
  const std::size_t length = slab.row_length();
  // The diagonal entry (i, .., i) sits at flat index i * S, S the sum of the strides; S > N^(D-1)
  // >= the length of a row or a part of one, so a row (or part) t holds at most one: where
  // i * S falls into [rows[t] * length, (rows[t] + 1) * length).
  const std::vector<std::ptrdiff_t> strides = strides_of(slab.order, slab.size, slab.layout);
  std::size_t diagonal_step = 0;
  for (const std::ptrdiff_t stride : strides) diagonal_step += static_cast<std::size_t>(stride);
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> diagonal(rows.size(), none);  // its place within row t, or none
  for (std::size_t t = 0; t < rows.size(); ++t) {
    const std::size_t first = static_cast<std::size_t>(rows[t]) * length;
    const std::size_t i = (first + diagonal_step - 1) / diagonal_step;  // the first i with i * S >= first
    if (i < static_cast<std::size_t>(slab.size) && i * diagonal_step < first + length)
      diagonal[t] = i * diagonal_step - first;
  }
  std::vector<double> off(rows.size(), 0.0);
#pragma omp parallel for schedule(static) if (rows.size() * length >= (1u << 16))
  for (std::size_t t = 0; t < rows.size(); ++t) {
    const T* row = slab.row(t);
    double sum = 0.0;
    for (std::size_t k = 0; k < length; ++k) {
      const double v = static_cast<double>(row[k]);
      if (k != diagonal[t]) sum += v * v;
    }
    off[t] = sum;
  }
  SlabFigures part;
  for (std::size_t t = 0; t < rows.size(); ++t) {
    part.off_norm2 += off[t];
    if (diagonal[t] == none) continue;
    const double d = static_cast<double>(slab.row(t)[diagonal[t]]);
    part.diag_norm2 += d * d;
    part.trace += d;
  }
  return {sum_over_ranks(comm, part.off_norm2), sum_over_ranks(comm, part.diag_norm2),
          sum_over_ranks(comm, part.trace)};
}

template SlabFigures slab_figures(const Slab<float>&, Communicator&);
template SlabFigures slab_figures(const Slab<double>&, Communicator&);

}  // namespace tensordiag::runtime
