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
