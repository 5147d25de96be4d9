#pragma once
// An N = 2 tensor over P = 2^k GPU ranks (issue 14): its k slowest memory modes split between
// them, rank r holding the entries whose k slowest memory indices spell r (the r-th P-th of the
// tensor in memory order), so a tensor P times one device's memory runs (N = 2, D = 35 float32 is
// 137 GB: two H200s, or four H100s). The sweeps
// are the one-GPU qubit path's (kernels_templates/qubit_sweep.cu: the tensor is never rewritten
// while they run, only D accumulated rotations change): each rank reduces its rows, NCCL sums the
// two small reductions a sweep (the rows a rank does not hold add zeros: exact where the ranks'
// rows are whole shares of the reduction, as at every plan's D), and every rank settles them and
// takes the angles of the whole tensor alike. The core is written once at the end: each rank
// rotates its slab in the other D - k modes (chunk_pass of an order D - k spec); then for each
// split mode, the two ranks whose numbers differ only in that mode's bit swap half their slabs so
// that each holds both indices of the mode for half the rest, mix them, and swap back (2k
// exchanges of half a slab a run, none a sweep).
#include "codegen/lowered_rule.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/distributed/device_communicator.hpp"
#include "runtime/distributed/distributed_result.hpp"

namespace tensordiag::runtime {

// Throws user_error unless `ranks` is a power of two below 2^order (said before the tensor is
// read). The run itself also refuses more ranks than its reductions have rows (2^(D - low_bits),
// qubit_sweep.cu: at least 2^10 at every order the qubit kernels take).
void check_qubit_ranks(int order, int ranks);

// `slab` (host memory) holds this rank's part (check_qubit_ranks, Slab::row_parts). Throws
// user_error for a count of ranks check_qubit_ranks refuses, a pivot check that could reject a
// rotation (eta >= 1.5: algorithm/qubit_pivot_check.hpp; below, it accepts every one and the run
// is the run without it), an order the qubit kernels refuse, or a slab over the device memory.
template <class T>
DistributedResult<T> run_gpu_qubit_ranks(Slab<T> slab, const codegen::LoweredRule& rule, const RunSettings& settings,
                                         DeviceCommunicator& comm);

extern template DistributedResult<float> run_gpu_qubit_ranks(Slab<float>, const codegen::LoweredRule&,
                                                             const RunSettings&, DeviceCommunicator&);
extern template DistributedResult<double> run_gpu_qubit_ranks(Slab<double>, const codegen::LoweredRule&,
                                                              const RunSettings&, DeviceCommunicator&);

}  // namespace tensordiag::runtime
