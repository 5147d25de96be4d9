#pragma once
// The change of layout between two stages of a distributed sweep: every row whose rank changes is
// sent to its new rank in one all-to-all (Communicator::exchange_rows); rows that stay move only
// within the rank, to their new position.
#include <cstddef>

#include "runtime/distributed/communicator.hpp"
#include "runtime/distributed/slab.hpp"

namespace tensordiag::runtime {

// Makes `slab` hold `next`. Returns the bytes this rank sent.
template <class T>
std::size_t exchange_rows(Slab<T>& slab, const SlabLayout& next, Communicator& comm);

extern template std::size_t exchange_rows(Slab<float>&, const SlabLayout&, Communicator&);
extern template std::size_t exchange_rows(Slab<double>&, const SlabLayout&, Communicator&);

}  // namespace tensordiag::runtime
