#pragma once
// What GPU ranks ask of the transport beyond Communicator (issue 14): collectives on device memory,
// enqueued in order on the rank's stream, and a wait that cannot hang on a lost rank. NCCL is the
// transport (nccl_communicator.hpp); the host collectives of Communicator go through it too.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "runtime/distributed/communicator.hpp"

namespace tensordiag::runtime {

class DeviceCommunicator : public Communicator {
public:
  // The CUDA device this rank runs on, and the stream its kernels and collectives go to.
  virtual int device() const = 0;
  virtual cudaStream_t stream() const = 0;
  // Sums `count` device values over the ranks, in place, on stream(). Exact where each value is
  // nonzero on one rank at most (a group's rotations: each pair's from the rank holding it).
  virtual void sum_on_device(float* values, std::size_t count) = 0;
  virtual void sum_on_device(double* values, std::size_t count) = 0;
  // Communicator::swap_rows for rows in device memory, enqueued on stream().
  virtual void swap_device_rows(const std::vector<void*>& rows, std::size_t row_bytes, int partner) = 0;
  // The same swap overlapped with the kernels beside it (overlapped_change.hpp): row j leaves once
  // ready[j], an event recorded on stream(), has happened. The trades run on a stream of their own
  // beside stream()'s kernels, in the order of the calls. `landed` null: what is enqueued on
  // stream() after the call waits for them. Else the call records `landed` once every row has
  // arrived in its place, and stream() does not wait: its kernels that read those rows wait for
  // `landed` (a pipelined change).
  virtual void swap_device_rows(const std::vector<void*>& rows, const std::vector<cudaEvent_t>& ready,
                                std::size_t row_bytes, int partner, cudaEvent_t landed) = 0;
  // sum_on_device on the overlapped swaps' stream, after the swaps called before it and before
  // those called after: it starts once `ready` (recorded on stream()) has happened, and records
  // `summed` when done.
  virtual void sum_beside_swaps(float* values, std::size_t count, cudaEvent_t ready, cudaEvent_t summed) = 0;
  virtual void sum_beside_swaps(double* values, std::size_t count, cudaEvent_t ready, cudaEvent_t summed) = 0;
  // The bytes of each staging buffer a row swap moves its rows through from now on (the engines
  // set row_swap_staging_bytes' choice once they know the room their slab leaves).
  virtual void set_staging_bytes(std::size_t bytes) = 0;
  // One step of row_moves.hpp, enqueued on stream(): the row at `send` goes to rank `to` (-1: none)
  // while a row from rank `from` (-1: none) arrives at `receive`, which may be `send` (the row
  // arrives after the one it replaces has left). Ranks call it with matching steps.
  virtual void move_device_row(const void* send, int to, void* receive, int from, std::size_t row_bytes) = 0;
  // Waits for stream(). Throws user_error when the transport failed, or when the stream has not
  // finished within the collective time-out (a rank lost or stopped: its partners would wait forever).
  virtual void wait() = 0;
};

}  // namespace tensordiag::runtime
