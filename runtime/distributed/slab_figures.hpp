#pragma once
// The convergence figures of a tensor spread over ranks (DESIGN.md section 2: off summed directly,
// never as a difference): each rank sums its rows, row by row, and the ranks' sums are added in
// rank order, so every rank gets the same figures and a repeated run the same again. They equal
// the one-rank figures up to the order of the additions (relative 1e-16 a term).
#include "runtime/algorithm/run_result.hpp"
#include "runtime/distributed/communicator.hpp"
#include "runtime/distributed/slab.hpp"

namespace tensordiag::runtime {

struct SlabFigures {
  double off_norm2 = 0.0;
  double diag_norm2 = 0.0;
  double trace = 0.0;
};

template <class T>
SlabFigures slab_figures(const Slab<T>& slab, Communicator& comm);

extern template SlabFigures slab_figures(const Slab<float>&, Communicator&);
extern template SlabFigures slab_figures(const Slab<double>&, Communicator&);

}  // namespace tensordiag::runtime
