#pragma once
// The change of layout between two stages of a distributed sweep: every row whose rank changes is
// sent to its new rank in one all-to-all (Communicator::exchange_rows); rows that stay move only
// within the rank, to their new position.
#include <cstddef>

#include "runtime/distributed/communicator.hpp"
#include "runtime/distributed/distributed_schedule.hpp"
#include "runtime/distributed/slab.hpp"

namespace tensordiag::runtime {

// Whether the change from `now` to `next` can swap rows in place: the number of ranks is a power of
// two and each pair of ranks trades as many rows each way. Two ranks whose row counts stay always
// do (each sends what it does not keep); more ranks depend on the layouts (the XOR stages of N = 16
// on 4 ranks do, on 8 ranks not). Then rank r trades with r XOR k for k = 1..P-1
// (MPI_Sendrecv_replace, row by row) and puts its rows in order with one row of scratch: no second
// slab.
bool swaps_in_place(const SlabLayout& now, const SlabLayout& next);

// Whether every change of layout of the schedule (the one back to the first included) does.
bool swaps_in_place(const DistributedSchedule& schedule);

// Makes `slab` hold `next`: in place where swaps_in_place says so, else through a second slab and
// buffers for the rows in flight (an all-to-all). Returns the bytes this rank sent.
template <class T>
std::size_t exchange_rows(Slab<T>& slab, const SlabLayout& next, Communicator& comm);

extern template std::size_t exchange_rows(Slab<float>&, const SlabLayout&, Communicator&);
extern template std::size_t exchange_rows(Slab<double>&, const SlabLayout&, Communicator&);

}  // namespace tensordiag::runtime
