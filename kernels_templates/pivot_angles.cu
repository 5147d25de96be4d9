// pivot_angles: the angles of one pivot group (DESIGN.md sections 2-3). Each warp owns one pair,
// copies its subtensor A[{p,q}^D] into shared memory and runs the D micro-iterations there, mode
// n = 0..D-1 in order, exactly as the CPU engine's group step (runtime/engines/cpu_engine.hpp). The tensor
// is only read: group_pass applies the rotations afterwards, all modes in one pass.
//
// Both kernels take
//   tensor     N^D entries: the core before this group's rotations
//   pairs      the pivot group (see above)
//   rotations  out: (c, s) of every pair in every mode
//   rows       null, or for a slab of a distributed run (pivot_subtensor.cuh) the row of each
//              index of the slowest memory mode, -1 where another rank holds it: that rank's
//              pairs get (0, 0), so that the sum across ranks is each pair's owner's (c, s)
// and launch as grid = PAIR_BLOCKS, block = THREADS: pair k = blockIdx.x * WARPS + warp.

inline constexpr int WARPS = ${warps};
inline constexpr int THREADS = 32 * WARPS;
inline constexpr int PAIR_BLOCKS = (PAIRS + WARPS - 1) / WARPS;

// Without the pivot check (eta = 0): all D modes of the group in one launch.
extern "C" __global__ void __launch_bounds__(THREADS)
pivot_angles(${pivot_angles_parameters}) {
  __shared__ Scalar subtensors[WARPS][SUBTENSOR];
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
  pair_rotations(tensor, p, pairs[2 * k + 1], subtensors[warp], lane, rotations + k, rows);
}

// With the pivot check (eta > 0, DESIGN.md section 2): one launch per mode n = 0..D-1, in order.
// The check of mode n needs Lambda after the rotations of modes < n of all pairs, so before the
// launch for mode n the engine runs pivot_check_gather (Lambda of mode n, N x N doubles) and puts
// ||Lambda||_2 in *lambda_norm. Pair (p, q) is rotated iff 2 |Lambda_pq| >= eta ||Lambda||_2
// (runtime/algorithm/pivot_check.hpp); a rejected pair gets the identity and its subtensor stays as it is.
// `workspace` (PAIRS * SUBTENSOR entries) carries each pair's subtensor from one mode's launch to
// the next; the launch for mode 0 gathers it from the tensor.
extern "C" __global__ void __launch_bounds__(THREADS)
pivot_angles_mode(${pivot_angles_mode_parameters}) {
  __shared__ Scalar subtensors[WARPS][SUBTENSOR];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int k = blockIdx.x * WARPS + warp;
  if (k >= PAIRS) return;
  const int p = pairs[2 * k];
  const int q = pairs[2 * k + 1];
  if (rows != nullptr && rows[p] < 0) {
    if (lane == 0) rotations[mode * PAIRS + k] = Rotation{Scalar(0), Scalar(0)};
    return;
  }
  Scalar* sub = subtensors[warp];
  Scalar* saved = workspace + static_cast<long long>(k) * SUBTENSOR;
  if (mode == 0) {
    gather_subtensor(tensor, p, q, sub, lane, rows);
  } else {
    for (int bits = lane; bits < SUBTENSOR; bits += 32) sub[bits] = saved[bits];
    __syncwarp();
  }
  const bool accepted = 2.0 * lambda_magnitude(lambda, p, q) >= eta * *lambda_norm;
  const Rotation g = accepted ? micro_iteration(sub, mode, lane) : Rotation{Scalar(1), Scalar(0)};
  if (lane == 0) rotations[mode * PAIRS + k] = g;
  if (mode + 1 < D)
    for (int bits = lane; bits < SUBTENSOR; bits += 32) saved[bits] = sub[bits];
}
