#include "runtime/distributed/slab_figures.hpp"

#include <vector>

namespace tensordiag::runtime {

template <class T>
SlabFigures slab_figures(const Slab<T>& slab, Communicator& comm) {
  const std::vector<int>& rows = slab.rows();
  const std::size_t length = slab.row_length();
  // In row i (index i of the sliced mode) the diagonal entry (i, .., i) sits at i times the sum of
  // the other modes' strides.
  const std::vector<std::ptrdiff_t> strides = strides_of(slab.order, slab.size, slab.layout);
  std::size_t within_row_step = 0;
  for (int mode = 0; mode < slab.order; ++mode)
    if (mode != slab.sliced_mode()) within_row_step += static_cast<std::size_t>(strides[static_cast<std::size_t>(mode)]);
  std::vector<double> off(rows.size(), 0.0);
#pragma omp parallel for schedule(static) if (rows.size() * length >= (1u << 16))
  for (std::size_t t = 0; t < rows.size(); ++t) {
    const T* row = slab.row(t);
    const std::size_t diagonal = static_cast<std::size_t>(rows[t]) * within_row_step;
    double sum = 0.0;
    for (std::size_t k = 0; k < length; ++k) {
      const double v = static_cast<double>(row[k]);
      if (k != diagonal) sum += v * v;
    }
    off[t] = sum;
  }
  SlabFigures part;
  for (std::size_t t = 0; t < rows.size(); ++t) {
    const double d = static_cast<double>(slab.row(t)[static_cast<std::size_t>(rows[t]) * within_row_step]);
    part.off_norm2 += off[t];
    part.diag_norm2 += d * d;
    part.trace += d;
  }
  return {sum_over_ranks(comm, part.off_norm2), sum_over_ranks(comm, part.diag_norm2),
          sum_over_ranks(comm, part.trace)};
}

template SlabFigures slab_figures(const Slab<float>&, Communicator&);
template SlabFigures slab_figures(const Slab<double>&, Communicator&);

}  // namespace tensordiag::runtime
