// A run of group steps on a tensor the whole block holds in shared memory (small_tensor's sweep,
// subspace_angles' pass), with each group's rotations applied while the next group's angles are
// computed. shared_group_step (shared_group_step.cuh) computes a group's angles in PAIRS threads
// while the rest of the block waits at a barrier, then rotates the tensor and the factors while the
// angle threads wait: per group the latency of both, two barriers. Here group g + 1's angles need
// its pairs' pivot subtensors after group g's rotations, which the angle warps rotate themselves,
// one entry a lane, from the tensor before group g and group g's table: the entry lies in one block
// of group g's partition (register_blocks.cuh), which the lane rotates exactly as
// rotate_blocks_in_registers does and of which it keeps that entry. So the angle warps compute group
// g + 1's angles while the other warps rotate the tensor (out of place, into the other buffer) and
// the factors by group g's: one barrier a group, and the tensor's values, the rotations and the
// factors are those of shared_group_step bit for bit.
// Where: the pivot subtensor in registers (subtensor_in_registers), 2^D lanes a pair (D <= 5), a
// real or complex Scalar, structure general, and warps beyond the angle warps
// (runtime: the plans' `pipelined`).

// The lanes of a pair and the threads that compute a group's angles (whole warps).
inline constexpr int LANES_A_PAIR = SUBTENSOR;
inline constexpr int ANGLE_THREADS = (PAIRS * LANES_A_PAIR + 31) / 32 * 32;

// Whether a block of THREADS_ threads can run the pipelined steps.
template <int THREADS_>
constexpr bool group_steps_pipeline() {
  return LANES_A_PAIR <= 32 && subtensor_in_registers<THREADS_>() && THREADS_ > ANGLE_THREADS;
}

// Where index i sits in each group of a run: 2 * pair + (1 for the pair's q), 2 * PAIRS for the
// index a group leaves out at odd N. Written by the whole block; the caller synchronizes.
__device__ inline void group_positions(const int (*groups)[2 * PAIRS], int count, int (*position)[N]) {
  for (int i = threadIdx.x; i < count * N; i += blockDim.x) {
    const int g = i / N, index = i % N;
    int at = 2 * PAIRS;
    for (int k = 0; k < 2 * PAIRS; ++k)
      if (groups[g][k] == index) at = k;
    position[g][index] = at;
  }
}

// x from lane `from` of the warp, as 32-bit words (a complex Scalar too). Every lane calls it.
__device__ __forceinline__ Scalar shuffled(Scalar x, int from) {
  static_assert(sizeof(Scalar) % 4 == 0, "shuffled: whole 32-bit words");
  unsigned* word = reinterpret_cast<unsigned*>(&x);
#pragma unroll
  for (int i = 0; i < static_cast<int>(sizeof(Scalar) / 4); ++i) word[i] = __shfl_sync(0xffffffffu, word[i], from);
  return x;
}

// Group `next`'s angles from `tensor` before group `now`'s rotations (its table and pairs), into
// next_table: lane b of a pair's LANES_A_PAIR lanes takes entry b of the pair's pivot subtensor
// after group `now` (index q in logical mode n where bit n of b is set, else p), the pair's lanes
// gather the subtensor, and each runs the pair's micro-iterations on it; its first lane writes them.
// Every thread below ANGLE_THREADS calls it (lanes past the last pair repeat it and write nothing).
__device__ inline void next_group_angles(const Scalar* tensor, const Rotation (*table)[PAIRS], const int* now,
                                         const int* now_position, const int* next, Rotation (*next_table)[PAIRS]) {
  const int pair = threadIdx.x / LANES_A_PAIR;
  const int k = pair < PAIRS ? pair : PAIRS - 1;
  const int b = threadIdx.x % LANES_A_PAIR;
  const int p = next[2 * k], q = next[2 * k + 1];
  int part[D];
  int side = 0;  // the entry's place in its block: bit k set where it is its pair's q in memory mode k
#pragma unroll
  for (int m = 0; m < D; ++m) {
    const int at = now_position[(b >> MODE_OF_MEMORY_MODE[m]) & 1 ? q : p];
    part[m] = at / 2;
    side |= (at % 2) << m;
  }
  int offset[SUBTENSOR];
  Scalar x[SUBTENSOR];
  rotated_block(tensor, part, idle_index(now), table, now, offset, x);
  Scalar mine = x[0];
#pragma unroll
  for (int bits = 1; bits < SUBTENSOR; ++bits)
    if (bits == side) mine = x[bits];  // no run-time index into the registers
  const int first_lane = threadIdx.x % 32 / LANES_A_PAIR * LANES_A_PAIR;
  Scalar sub[SUBTENSOR];
#pragma unroll
  for (int bits = 0; bits < SUBTENSOR; ++bits) sub[bits] = shuffled(mine, first_lane + bits);
  subtensor_rotations_in_registers(sub, &next_table[0][k], pair < PAIRS && b == 0);
}

// The `count` groups in order on `core` (the tensor, in the block's shared memory) and `spare`
// (a buffer of the same size), with the factors: the same results as shared_group_step on each
// group. `tables` holds two rotation tables, `position` group_positions' of `groups`. Returns the
// buffer that holds the rotated tensor (core or spare). Every thread of the block calls it; it ends
// after a barrier.
template <int WARPS_>
__device__ inline Scalar* pipelined_group_steps(Scalar* core, Scalar* spare, Scalar (*factor)[N * N],
                                                Rotation (*tables)[D][PAIRS], const int (*groups)[2 * PAIRS],
                                                const int (*position)[N], int count) {
  constexpr int THREADS_ = 32 * WARPS_;
  constexpr int rotating = THREADS_ - ANGLE_THREADS;
  for (int k = threadIdx.x; k < PAIRS; k += THREADS_)
    pair_rotations_in_registers(core, groups[0][2 * k], groups[0][2 * k + 1], &tables[0][0][k]);
  __syncthreads();
  for (int g = 0; g < count; ++g) {
    const Rotation (*table)[PAIRS] = tables[g % 2];
    if (threadIdx.x < ANGLE_THREADS) {
      if (g + 1 < count) next_group_angles(core, table, groups[g], position[g], groups[g + 1], tables[(g + 1) % 2]);
    } else {
      // The factors from the block's last thread down, the tensor's blocks from the first rotating
      // thread up (shared_group_step's split over the rotating threads).
      rotate_factor_rows(factor, table, groups[g], THREADS_ - 1 - static_cast<int>(threadIdx.x), rotating);
      rotate_blocks_in_registers(core, spare, table, groups[g], static_cast<int>(threadIdx.x) - ANGLE_THREADS, rotating);
    }
    __syncthreads();
    Scalar* const rotated = spare;
    spare = core;
    core = rotated;
  }
  return core;
}
