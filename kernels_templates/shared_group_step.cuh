// M_n <- M_n R_n for every mode by the group's table: row i % N of pair i / N % PAIRS's columns in
// mode i / (N * PAIRS), for i = first, first + stride, ...
__device__ __forceinline__ void rotate_factor_rows(Scalar (*factor)[N * N], const Rotation (*table)[PAIRS],
                                                   const int* group, int first, int stride) {
  for (int i = first; i < D * PAIRS * N; i += stride) {
    const int row = i % N;
    const int k = i / N % PAIRS;
    const int mode = i / (N * PAIRS);
    rotate_factor_row(factor[mode] + row * N, group[2 * k], group[2 * k + 1], table[mode][k]);
  }
}

// One group step on a tensor the whole block holds in shared memory (DESIGN.md sections 2-3), as
// the CPU engine's group step: the warps run the D micro-iterations of the group's pairs (a warp a
// pair, its pivot subtensor in `subtensors[warp]`; a thread a pair with the subtensor in registers
// where subtensor_in_registers; under structure symmetric the pair's one rotation for every mode
// instead), the rotations go to table[n][k]; then the block applies every mode's rotations in
// memory order to `core` (mode by mode, or every mode on a register block at once:
// rotate_blocks_in_registers) and updates the factors M_n <- M_n R_n beside (they share no
// memory). Ends after a barrier: table and group are free.
// Shared by small_tensor (a whole run) and subspace_angles (an XOR pass on a diagonal cell).
// Under structure skew (small_tensor's variant) a thread a pair takes the first `live` pairs'
// rotations from their block entries (skew_blocks.cuh), the same in every mode; the others pad the
// group and carry the identity.
template <int WARPS_>
__device__ inline void shared_group_step(Scalar* core, Scalar (*factor)[N * N], Rotation (*table)[PAIRS],
                                         const int* group, Scalar (*subtensors)[SUBTENSOR], int live = PAIRS) {
  constexpr bool registers = subtensor_in_registers<32 * WARPS_>();
#ifdef TENSORDIAG_SKEW
  for (int k = threadIdx.x; k < PAIRS; k += 32 * WARPS_) {
    const Rotation g = k < live ? skew_rotation(core, group[2 * k], group[2 * k + 1]) : Rotation{Scalar(1), Scalar(0)};
    for (int n = 0; n < D; ++n) table[n][k] = g;
  }
#else
#ifdef TENSORDIAG_SYMMETRIC
  constexpr bool thread_a_pair = false;
#else
  constexpr bool thread_a_pair = registers;
#endif
  if constexpr (thread_a_pair) {
    for (int k = threadIdx.x; k < PAIRS; k += 32 * WARPS_)
      pair_rotations_in_registers(core, group[2 * k], group[2 * k + 1], &table[0][k]);
  } else {
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    for (int k = warp; k < PAIRS; k += WARPS_) {
#ifdef TENSORDIAG_SYMMETRIC
      symmetric_pair_rotations(core, group[2 * k], group[2 * k + 1], subtensors[warp], lane, &table[0][k]);
#else
      pair_rotations(core, group[2 * k], group[2 * k + 1], subtensors[warp], lane, &table[0][k]);
#endif
    }
  }
#endif
  __syncthreads();
  // The factors from the block's last thread down, the core's blocks from its first up: where the
  // block has threads for both, different warps run them side by side.
  rotate_factor_rows(factor, table, group, 32 * WARPS_ - 1 - static_cast<int>(threadIdx.x), 32 * WARPS_);
  if constexpr (registers) {
    rotate_blocks_in_registers(core, core, table, group, threadIdx.x, blockDim.x);
    __syncthreads();
  } else {
#pragma unroll
    for (int k = 0; k < D; ++k) {
      rotate_memory_mode(core, k, table[MODE_OF_MEMORY_MODE[k]], group);
      __syncthreads();
    }
  }
}
