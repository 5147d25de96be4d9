#pragma once
// The sweeps of a tensor spread over GPU ranks (issue 14): distributed_engine.hpp's loop with each
// rank's slab in its device's memory and the general GPU engine's kernels (pivot_angles, group_pass)
// reading the slab through a row table (rows[i]: where index i of the slowest memory mode lives);
// where a pivot subtensor is over a warp's shared memory the angles take the split kernels
// (pivot_head, pivot_contract, pivot_tail), and where group_pass's tile does not fit the pass takes
// chunk_pass_slab and group_factors, the figures then off_norm_partial's (small N, large D), each
// through the same table. Such a pass is not cut into the pieces of an overlapped change. Per
// group: every rank computes the angles of the pairs it holds (zeros for the others), NCCL sums
// them (exactly: one rank's nonzero each), and every rank applies the whole group to its rows and
// to its copy of the factors in one pass. Between stages, rows swap in place with the partner
// ranks where the change allows (row_exchange.hpp: swaps_in_place), else move one row a rank a
// step (row_moves.hpp: odd N, ranks not a power of two), both by NCCL send/recv through staging
// chunks into the slots rows leave; the row table follows them: no reordering, no second slab.
// With the same group order, one GPU rank gives the result of P GPU ranks bit for bit (the kernels
// do the same arithmetic on each entry; only the figures' sums are ordered otherwise).
#include "codegen/lowered_rule.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/distributed/device_communicator.hpp"
#include "runtime/distributed/distributed_result.hpp"
#include "runtime/distributed/distributed_schedule.hpp"

namespace tensordiag::runtime {

// `slab` (host memory) holds the first stage's rows; the core comes back to host memory in the
// last stage's layout. Throws user_error where GPU ranks cannot run the request: the pivot check
// past N = 1024 (its norm on the device only) or where the split angles would be needed (as on one
// GPU), a slab over the device memory.
template <class T>
DistributedResult<T> run_gpu_slab_engine(Slab<T> slab, const DistributedSchedule& schedule,
                                         const codegen::LoweredRule& rule, const RunSettings& settings,
                                         DeviceCommunicator& comm);

extern template DistributedResult<float> run_gpu_slab_engine(Slab<float>, const DistributedSchedule&,
                                                             const codegen::LoweredRule&, const RunSettings&,
                                                             DeviceCommunicator&);
extern template DistributedResult<double> run_gpu_slab_engine(Slab<double>, const DistributedSchedule&,
                                                              const codegen::LoweredRule&, const RunSettings&,
                                                              DeviceCommunicator&);

}  // namespace tensordiag::runtime
