#pragma once
// GPU ranks joined by NCCL (issue 14), one rank a device: several in one process (`--devices 0,1`:
// ncclCommInitAll, a thread a rank), or one a process under an MPI launcher, which only hands out
// NCCL's unique id (`mpirun ... --distributed --backend cuda`). Every collective, the host ones of
// Communicator included, goes through NCCL on the rank's stream; waits time out after
// TENSORDIAG_COLLECTIVE_TIMEOUT seconds (default 300), then abort the communicator.
#include <cstddef>
#include <memory>
#include <vector>

#include "runtime/cuda/cuda_device.hpp"
#include "runtime/distributed/device_communicator.hpp"

namespace tensordiag::runtime {

// One rank a device of `devices` (CUDA indices, distinct), all in this process: rank r runs on
// devices[r] and must be driven by a thread of its own. Throws user_error for a device that does
// not exist, or when NCCL cannot be loaded or joined.
std::vector<std::unique_ptr<DeviceCommunicator>> nccl_ranks_in_process(const std::vector<int>& devices);

// The bytes of each of the two staging buffers a row swap moves its rows through; a rank's device
// memory holds both beside its slab. TENSORDIAG_EXCHANGE_STAGING MiB where set; else 512 MiB where
// `spare_bytes` (the device's free memory beyond the slab and the rest) holds both, and 128 MiB
// where it does not (measured on two H200s, 10 sweeps of N = 8, D = 11 float32: 1.75-1.76 s with
// 128 MiB, 1.62 s with 512; 256 and 512 no faster than 128 at D = 10;
// bench/results/exchange_staging_h200x2_2026-11-28.md).
std::size_t row_swap_staging_bytes(double spare_bytes);
// The bytes each staging buffer takes at least, which a rank's fit check counts twice:
// TENSORDIAG_EXCHANGE_STAGING MiB where set, else 128 MiB.
std::size_t least_row_swap_staging_bytes();

// A GPU rank's fit check: throws user_error ("GPU rank r: the slab does not fit: ...") unless
// `device` (the rank's, as it was before the slab) has room for `held_bytes` (the slab and the
// engine's own arrays) and the least staging buffers; then sets comm's staging buffers to
// row_swap_staging_bytes' choice for the room left.
void fit_slab_and_staging(DeviceCommunicator& comm, const CudaDeviceInfo& device, double held_bytes);

// This process's rank of `launcher` (MPI), on device (its place on its host) modulo the host's
// devices; the launcher stays for the host's rank count. Every rank must call it.
std::unique_ptr<DeviceCommunicator> nccl_rank_over(std::unique_ptr<Communicator> launcher);

}  // namespace tensordiag::runtime
