// group_pass: all D modes' rotations of one pivot group applied to the tensor in one read+write
// pass (DESIGN.md section 3; the GPU form of runtime/group_pass.cpp):
//   tensor <- tensor x_1 R_1^T ... x_D R_D^T,  R_n block-diagonal with the group's (c, s) in mode n.
// Entries that mix form orbits under the pair swaps in every mode. A thread block takes one orbit
// tile at a time: the INNER innermost memory modes whole (a block of BLOCK = N^INNER contiguous
// entries, read and written coalesced) and, in each of the OUTER outer memory modes, one
// representative index and its partner: 2^OUTER blocks, "slots", slot bit k choosing the partner
// in outer mode k. The tile is staged in shared memory, the modes are applied in memory order
// k = 0..D-1 (outer modes mix whole slots, inner modes mix runs inside each slot), each entry as
// x <- c x + s y, y <- c y - s x with identities skipped: the CPU engine's order and formulas.
//
// Arguments:
//   tensor     N^D entries, rotated in place
//   pairs      the pivot group
//   rotations  (c, s) of every pair in every mode (pivot_angles)
// Launch: grid = any number of blocks up to TILES (blocks stride over the tiles), block = THREADS.

inline constexpr int THREADS = ${threads};
inline constexpr int INNER = ${inner_modes};
inline constexpr int OUTER = D - INNER;
inline constexpr int BLOCK = static_cast<int>(power(N, INNER));
inline constexpr int SLOTS = 1 << OUTER;
inline constexpr int TILE = SLOTS * BLOCK;
// Representatives per outer mode: the p of each pair, then the unpaired index of an odd N.
inline constexpr int REPRESENTATIVES = (N + 1) / 2;
inline constexpr long long TILES = power(REPRESENTATIVES, OUTER);

extern "C" __global__ void __launch_bounds__(THREADS)
group_pass(Scalar* __restrict__ tensor, const int* __restrict__ pairs, const Rotation* __restrict__ rotations) {
  __shared__ Scalar tile[TILE];
  __shared__ Rotation table[D][PAIRS];        // table[n][k] = (c, s) of pair k in logical mode n
  __shared__ int group[2 * REPRESENTATIVES];  // the pairs, then (unpaired index, -1) for an odd N
  __shared__ long long slot_offset[SLOTS];    // where each slot's block starts in the tensor

  for (int i = threadIdx.x; i < D * PAIRS; i += THREADS) table[i / PAIRS][i % PAIRS] = rotations[i];
  for (int i = threadIdx.x; i < 2 * PAIRS; i += THREADS) group[i] = pairs[i];
  if (N % 2 == 1 && threadIdx.x == 0) {
    // The unpaired index: the sum of all indices less those of the pairs.
    int unpaired = N * (N - 1) / 2;
    for (int i = 0; i < 2 * PAIRS; ++i) unpaired -= pairs[i];
    group[2 * PAIRS] = unpaired;
    group[2 * PAIRS + 1] = -1;
  }

  for (long long t = blockIdx.x; t < TILES; t += gridDim.x) {
    // The tile's representative in each outer memory mode (outer mode OUTER - 1 varies fastest),
    // and the outer modes whose representative has no partner: slots choosing one are skipped.
    int representative[OUTER > 0 ? OUTER : 1];
    unsigned unpaired_modes = 0;
    long long rest = t;
#pragma unroll
    for (int k = OUTER - 1; k >= 0; --k) {
      representative[k] = static_cast<int>(rest % REPRESENTATIVES);
      rest /= REPRESENTATIVES;
      if (representative[k] == PAIRS) unpaired_modes |= 1u << k;
    }
    __syncthreads();  // the tables are filled; the previous tile is written back
    for (int slot = threadIdx.x; slot < SLOTS; slot += THREADS) {
      long long offset = 0;
#pragma unroll
      for (int k = 0; k < OUTER; ++k)
        offset += group[2 * representative[k] + ((slot >> k) & 1)] * power(N, D - 1 - k);
      slot_offset[slot] = offset;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < TILE; i += THREADS)
      if (!((i / BLOCK) & unpaired_modes)) tile[i] = tensor[slot_offset[i / BLOCK] + i % BLOCK];
    __syncthreads();

#pragma unroll
    for (int k = 0; k < D; ++k) {
      const int mode = MODE_OF_MEMORY_MODE[k];
      if (k < OUTER) {
        // Outer memory mode k: slot s (bit k clear) and slot s | 2^k mix entry by entry.
        const int r = representative[k];
        if (r < PAIRS && !is_identity(table[mode][r])) {
          const Rotation g = table[mode][r];
          for (int i = threadIdx.x; i < TILE / 2; i += THREADS) {
            const int half = i / BLOCK;
            const int low = half & ((1 << k) - 1);
            const int slot = ((half - low) << 1) | low;
            if (slot & unpaired_modes) continue;
            Scalar* xp = tile + slot * BLOCK + i % BLOCK;
            Scalar* yq = xp + (1 << k) * BLOCK;
            const Scalar xi = *xp;
            const Scalar yi = *yq;
            *xp = g.c * xi + g.s * yi;
            *yq = g.c * yi - g.s * xi;
          }
        }
      } else {
        rotate_memory_mode(tile, BLOCK, SLOTS, unpaired_modes, k, table[mode], group);
      }
      __syncthreads();
    }

    for (int i = threadIdx.x; i < TILE; i += THREADS)
      if (!((i / BLOCK) & unpaired_modes)) tensor[slot_offset[i / BLOCK] + i % BLOCK] = tile[i];
  }
}
