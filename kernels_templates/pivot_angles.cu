// pivot_angles: the angles of one pivot group without the pivot check (DESIGN.md sections 2-3; with
// it, pivot_check_gather.cu's checked_angles, one mode a launch). Each warp owns one pair,
// copies its subtensor A[{p,q}^D] into shared memory and runs the D micro-iterations there, mode
// n = 0..D-1 in order, exactly as the CPU engine's group step (runtime/engines/cpu_engine.hpp). The tensor
// is only read: group_pass applies the rotations afterwards, all modes in one pass.
//
// It takes
//   tensor     N^D entries: the core before this group's rotations
//   pairs      the pivot group (see above)
//   rotations  out: (c, s) of every pair in every mode
//   rows       null, or for a slab of a distributed run (pivot_subtensor.cuh) the row of each
//              index of the slowest memory mode, -1 where another rank holds it: that rank's
//              pairs get (0, 0), so that the sum across ranks is each pair's owner's (c, s)
// and launch as grid = PAIR_BLOCKS, block = THREADS: pair k = blockIdx.x * WARPS + warp.
// A sweep of one GPU launches it to overlap the group pass before it (runtime/engines/gpu_engine.cpp,
// GpuSweep): it waits for that pass's end before it reads the tensor, then lets its own group pass
// begin (that pass loads its tiles at once, and waits for this grid's end before it reads the
// rotations).

inline constexpr int WARPS = ${warps};
inline constexpr int THREADS = 32 * WARPS;
inline constexpr int PAIR_BLOCKS = (PAIRS + WARPS - 1) / WARPS;

// All D modes of the group in one launch.
extern "C" __global__ void __launch_bounds__(THREADS)
pivot_angles(${pivot_angles_parameters}) {
  __shared__ Scalar subtensors[WARPS][SUBTENSOR];
  const unsigned token = wait_for_previous_kernel();
  let_next_kernel_begin();
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int k = blockIdx.x * WARPS + warp;
  if (k >= PAIRS) return;
  const int p = pairs[2 * k];
  if (rows != nullptr && rows[p] < 0) {
    if (lane == 0)
      for (int mode = 0; mode < D; ++mode) rotations[mode * PAIRS + k] = Rotation{Scalar(0), Scalar(0)};
    return;
  }
  pair_rotations<true>(tensor, p, pairs[2 * k + 1], subtensors[warp], lane, rotations + k, rows, token);
}

// The first group after a change of layout that overlaps its passes (runtime/distributed/
// gpu_slab_engine.cpp, pipelined changes): its pairs' rows are still arriving, so its angles come
// from subtensors gathered during the pass before the change, where each pair's rows may lie on
// two ranks.
//
// pivot_subtensors: the entries of pair k's subtensor A[{p,q}^D] that `rows` takes, into
// subtensors[k * SUBTENSOR + bits] (the others left as they are): rows[i] is the slot of index i of
// the slowest memory mode, -1 where not taken, and rows[N + i] is nonzero where the entries at
// index i of the second memory mode are taken. Launched after each launch of the pass before the
// change, each taking what that launch wrote (and before its rows leave: the rows arriving in their
// slots overwrite them), on a zeroed buffer: summed over the ranks, every pair's whole subtensor.
// Launch as pivot_angles.
extern "C" __global__ void __launch_bounds__(THREADS)
pivot_subtensors(${pivot_subtensors_parameters}) {
  const unsigned token = wait_for_previous_kernel();
  const int lane = threadIdx.x % 32;
  const int k = blockIdx.x * WARPS + threadIdx.x / 32;
  if (k >= PAIRS) return;
  const int p = pairs[2 * k], q = pairs[2 * k + 1];
  const int sliced = MODE_OF_MEMORY_MODE[0], second = MODE_OF_MEMORY_MODE[1];
  for (int bits = lane; bits < SUBTENSOR; bits += 32) {
    const long long row = rows[(bits >> sliced) & 1 ? q : p];
    if (row >= 0 && rows[N + ((bits >> second) & 1 ? q : p)] != 0)
      subtensors[k * SUBTENSOR + bits] = read_after_wait(tensor + subtensor_offset(bits, p, q, row, row), token);
  }
}

// gathered_angles: every pair's rotations in every mode from its whole subtensor (pivot_subtensors,
// summed): the same micro-iterations on the same values as pivot_angles on the slab that holds the
// pair, so the same (c, s) to the last bit. Launch as pivot_angles.
extern "C" __global__ void __launch_bounds__(THREADS)
gathered_angles(${gathered_angles_parameters}) {
  __shared__ Scalar sub[WARPS][SUBTENSOR];
  const unsigned token = wait_for_previous_kernel();
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int k = blockIdx.x * WARPS + warp;
  if (k >= PAIRS) return;
  for (int bits = lane; bits < SUBTENSOR; bits += 32)
    sub[warp][bits] = read_after_wait(subtensors + k * SUBTENSOR + bits, token);
  __syncwarp();
  subtensor_rotations(sub[warp], lane, rotations + k);
}
