// register_blocks: the register form of a group step on a tensor in shared memory (small_tensor,
// subspace_angles; shared_group_step.cuh), after pivot_subtensor.cuh and mode_rotations.cuh. Where
// a pair's pivot subtensor fits a thread's registers, a thread runs the pair's D micro-iterations
// there (pair_rotations' arithmetic, value for value), and a thread rotates a whole block of the
// group's partition in every memory mode at once (rotate_memory_mode's, entry for entry): the
// group's barriers drop from D + 2 to 2, and the shared-memory traffic to one read and one write
// an entry.

// Whether a thread of a block of THREADS_ threads holds a pivot subtensor in registers: where its
// entries fit 128 bytes (D <= 5 in float32, 4 in float64 and complex64, 3 in complex128) and, with
// their offsets and 48 registers to spare, the share of the register file each thread of the block
// may take (65536 / THREADS_ 32-bit registers; spills cost more than the shared-memory form).
template <int THREADS_>
constexpr bool subtensor_in_registers() {
  constexpr int words = SUBTENSOR * static_cast<int>(sizeof(Scalar) / 4) + SUBTENSOR;
  return SUBTENSOR * sizeof(Scalar) <= 128 && words + 48 <= 65536 / THREADS_;
}

// The D micro-iterations of a pivot subtensor held in one thread's registers (pair_rotations'
// arithmetic, value for value); the rotation of mode n goes to out[n * PAIRS] where `write`.
__device__ __forceinline__ void subtensor_rotations_in_registers(Scalar (&sub)[SUBTENSOR], Rotation* out,
                                                                bool write = true) {
  constexpr int all = SUBTENSOR - 1;
#pragma unroll
  for (int mode = 0; mode < D; ++mode) {
    const int bit = 1 << mode;
    const Rotation g = rule_rotation(sub[0], sub[bit], sub[all], sub[all ^ bit]);
#pragma unroll
    for (int half = 0; half < SUBTENSOR / 2; ++half) rotate_entry_pair(sub, half, bit, g);
    if (write) out[mode * PAIRS] = g;
  }
}

// pair_rotations in one thread: the same micro-iterations on the same values, in registers.
__device__ inline void pair_rotations_in_registers(const Scalar* tensor, int p, int q, Rotation* out) {
  Scalar sub[SUBTENSOR];
#pragma unroll
  for (int bits = 0; bits < SUBTENSOR; ++bits) {
    long long offset = 0;
#pragma unroll
    for (int n = 0; n < D; ++n) offset += ((bits >> n) & 1 ? q : p) * STRIDE[n];
    sub[bits] = tensor[offset];
  }
  subtensor_rotations_in_registers(sub, out);
}

// Every memory mode's rotations at once, where subtensor_in_registers (pivot_subtensor.cuh). The
// group's pairs, and for odd N the one index no pair takes, partition each mode's indices into
// PARTS parts; as every mode rotates by the same pairs, each block part_1 x .. x part_D (2^D
// entries, fewer with the idle index) is closed under all of the group's rotations. A thread takes
// a block into registers, rotates memory mode 0, 1, .. on it (rotate_memory_mode's order and
// arithmetic, entry for entry, identities skipped) and writes it back: one barrier a group in
// place of one a mode.
inline constexpr int PARTS = (N + 1) / 2;

// The block part[0] x .. x part[D - 1] of the group's partition (part PAIRS: the index `idle`) read
// from `tensor` into x (offset: where each entry lies) and rotated in memory mode 0, 1, ..
// (rotate_memory_mode's order and arithmetic, entry for entry, identities skipped). Bit k of an
// entry's number picks q (else p) in memory mode k.
__device__ __forceinline__ void rotated_block(const Scalar* tensor, const int (&part)[D], int idle,
                                              const Rotation (*table)[PAIRS], const int* pairs,
                                              int (&offset)[SUBTENSOR], Scalar (&x)[SUBTENSOR]) {
#pragma unroll
  for (int bits = 0; bits < SUBTENSOR; ++bits) {
    offset[bits] = 0;  // a tensor in shared memory has fewer than 2^31 entries
    int stride = 1;  // memory mode k's, N^(D-1-k): a constant once unrolled (power() here was not folded)
#pragma unroll
    for (int k = D - 1; k >= 0; --k) {
      const int index = part[k] == PAIRS ? idle : pairs[2 * part[k] + ((bits >> k) & 1)];
      offset[bits] += index * stride;
      stride *= N;
    }
    x[bits] = tensor[offset[bits]];
  }
#pragma unroll
  for (int k = 0; k < D; ++k) {
    if (part[k] == PAIRS) continue;  // the idle index: no rotation in this mode
    const Rotation g = table[MODE_OF_MEMORY_MODE[k]][part[k]];
    if (is_identity(g)) continue;
    const int bit = 1 << k;
#pragma unroll
    for (int half = 0; half < SUBTENSOR / 2; ++half) rotate_entry_pair(x, half, bit, g);
  }
}

// The index a group of PAIRS pairs leaves out at odd N (none at even N: then unused).
__device__ __forceinline__ int idle_index(const int* pairs) {
  int idle = N * (N - 1) / 2;
  if constexpr (N % 2 == 1)
    for (int k = 0; k < PAIRS; ++k) idle -= pairs[2 * k] + pairs[2 * k + 1];
  return idle;
}

// Every block of the group's partition rotated from `source` into `target` (the same buffer, or
// another of the same layout), block t, t + stride, .. from `first`. The callers synchronize.
__device__ inline void rotate_blocks_in_registers(const Scalar* source, Scalar* target, const Rotation (*table)[PAIRS],
                                                  const int* pairs, int first, int stride) {
  const int idle = idle_index(pairs);
  constexpr int blocks = static_cast<int>(power(PARTS, D));
  for (int t = first; t < blocks; t += stride) {
    int part[D];
    int rest = t;
#pragma unroll
    for (int k = D - 1; k >= 0; --k) {
      part[k] = rest % PARTS;
      rest /= PARTS;
    }
    int offset[SUBTENSOR];
    Scalar x[SUBTENSOR];
    rotated_block(source, part, idle, table, pairs, offset, x);
#pragma unroll
    for (int bits = 0; bits < SUBTENSOR; ++bits) target[offset[bits]] = x[bits];
  }
}
