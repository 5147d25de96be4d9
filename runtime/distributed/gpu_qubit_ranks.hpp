#pragma once
// An N = 2 tensor over one or two GPU ranks (issue 14): its slowest memory mode split between
// them, so a tensor twice one device's memory runs (N = 2, D = 35 float32 is 137 GB). The sweeps
// are the one-GPU qubit path's (kernels_templates/qubit_sweep.cu: the tensor is never rewritten
// while they run, only D accumulated rotations change): each rank reduces its rows, NCCL sums the
// two small reductions a sweep (the rows a rank does not hold add zeros: exact where the ranks'
// rows are whole shares of the reduction, as at every plan's D), and every rank settles them and
// takes the angles of the whole tensor alike. The core is written once at the end: each rank
// rotates its slab in the other D - 1 modes (chunk_pass of an order D - 1 spec), swaps half of it
// with the other rank so that each holds both indices of the split mode for half the rest, mixes
// them, and swaps back (two exchanges of half a slab a run, none a sweep).
#include "codegen/lowered_rule.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/distributed/device_communicator.hpp"
#include "runtime/distributed/distributed_result.hpp"

namespace tensordiag::runtime {

// `slab` (host memory) holds this rank's rows of the split mode: both on one rank, index `rank`
// on two. Throws user_error for more than two ranks, the pivot check (the N = 2 path has none), an
// order the qubit kernels refuse, or a slab over the device memory.
template <class T>
DistributedResult<T> run_gpu_qubit_ranks(Slab<T> slab, const codegen::LoweredRule& rule, const RunSettings& settings,
                                         DeviceCommunicator& comm);

extern template DistributedResult<float> run_gpu_qubit_ranks(Slab<float>, const codegen::LoweredRule&,
                                                             const RunSettings&, DeviceCommunicator&);
extern template DistributedResult<double> run_gpu_qubit_ranks(Slab<double>, const codegen::LoweredRule&,
                                                              const RunSettings&, DeviceCommunicator&);

}  // namespace tensordiag::runtime
