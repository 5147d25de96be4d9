// skew_angles: structure skew's group angles and convergence figures (DESIGN.md section 7; the
// GPU form of runtime/engines/cpu_skew_engine.cpp). A skew-symmetric tensor's "diagonal" is its
// block form: the entries C[B_k], B_k = (kD, .., kD + D - 1), k < N / D (the N mod D last indices
// lie in no block), and their D! signed copies.
//
//   skew_angles(tensor, pairs, rotations, live): the rotation of each of the first `live` pairs,
//       the same in every mode. Rotating every mode by G in the plane (p, q), p in block A, q in
//       block B != A, moves two block entries only:
//         C[B_A] <- c a + s b,  a = C[B_A], b = C[B_A with p -> q],
//         C[B_B] <- c d - s e,  d = C[B_B], e = C[B_B with q -> p]
//       (a, b = 0 when p is in no block; d, e = 0 when q is in none): the max-diag objective of
//       these four entries, whose maximizer rule_rotation is. The live pairs of a group touch
//       disjoint blocks (runtime/algorithm/skew_schedule.hpp), so none moves another's entries:
//       their angles come from the same core. Pairs k >= live pad the group to a perfect matching
//       for group_pass and carry the identity. Grid = ceil(PAIRS / THREADS), a thread per pair.
//   skew_figures_partial(tensor, partials): off_norm_partial's grid and output, with the skew
//       core's figures: partials[2b] = the squares of block b's entries with distinct indices off
//       the blocks, partials[2b + 1] = those on the blocks (every signed copy); off_norm_final sums
//       them. An entry with a repeated index is 0 by the structure (rounding at most, which no
//       rotation moves): it counts in neither, as runtime::skew_figures counts it.

inline constexpr int THREADS = ${threads};
inline constexpr int FIGURE_THREADS = ${figure_threads};
inline constexpr int PARTIAL_BLOCKS = ${partial_blocks};
inline constexpr int BLOCKS = N / D;
inline constexpr int IN_BLOCKS = BLOCKS * D;  // indices below this lie in a block

// The block of index i, or -1.
__device__ __forceinline__ int block_of(int i) { return i < IN_BLOCKS ? i / D : -1; }

// The offset of C[B_k]: index kD + n in logical mode n.
__device__ inline long long block_offset(int k) {
  long long offset = 0;
#pragma unroll
  for (int n = 0; n < D; ++n) offset += static_cast<long long>(k * D + n) * STRIDE[n];
  return offset;
}

extern "C" __global__ void __launch_bounds__(THREADS)
skew_angles(${skew_angles_parameters}) {
  const int k = blockIdx.x * THREADS + threadIdx.x;
  if (k >= PAIRS) return;
  Rotation g{Scalar(1), Scalar(0)};
  const int p = pairs[2 * k], q = pairs[2 * k + 1];
  const int block_p = block_of(p), block_q = block_of(q);
  if (k < live && block_p != block_q) {
    Scalar a(0), b(0), d(0), e(0);
    if (block_p >= 0) {
      // Logical mode p - AD holds p in B_A: replacing it by q moves the offset by (q - p) strides.
      const long long at = block_offset(block_p);
      a = tensor[at];
      b = tensor[at + (q - p) * STRIDE[p - block_p * D]];
    }
    if (block_q >= 0) {
      const long long at = block_offset(block_q);
      d = tensor[at];
      e = tensor[at + (p - q) * STRIDE[q - block_q * D]];
    }
    g = rule_rotation(a, b, d, e);
  }
#pragma unroll
  for (int n = 0; n < D; ++n) rotations[n * PAIRS + k] = g;
}

// Whether the indices of entry `i` are distinct, and whether they then all lie in one block. The
// test reads the set of indices only, so the layout does not matter: digits in base N.
__device__ inline void classify(long long i, bool& distinct, bool& on_block) {
  int digits[D];
#pragma unroll
  for (int n = 0; n < D; ++n) {
    digits[n] = static_cast<int>(i % N);
    i /= N;
  }
  distinct = true;
  const int block = block_of(digits[0]);
  on_block = block >= 0;
#pragma unroll
  for (int n = 0; n < D; ++n) {
    on_block = on_block && block_of(digits[n]) == block;
#pragma unroll
    for (int m = n + 1; m < D; ++m) distinct = distinct && digits[n] != digits[m];
  }
}

extern "C" __global__ void __launch_bounds__(FIGURE_THREADS)
skew_figures_partial(${skew_figures_partial_parameters}) {
  double off = 0.0, blocks = 0.0;
  for (long long i = static_cast<long long>(blockIdx.x) * FIGURE_THREADS + threadIdx.x; i < ENTRIES;
       i += static_cast<long long>(PARTIAL_BLOCKS) * FIGURE_THREADS) {
    bool distinct, on_block;
    classify(i, distinct, on_block);
    if (!distinct) continue;
    const double x2 = squared(tensor[i]);
    if (on_block) blocks += x2;
    else off += x2;
  }
  const double2 sum = block_sum(make_double2(off, blocks));
  if (threadIdx.x == 0) {
    partials[2 * blockIdx.x] = sum.x;
    partials[2 * blockIdx.x + 1] = sum.y;
  }
}
