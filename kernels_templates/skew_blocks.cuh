// The block form of a skew-symmetric tensor (structure skew, DESIGN.md section 7;
// runtime/algorithm/skew_blocks.hpp): blocks B_k = (kD, .., kD + D - 1), k < N / D, the N mod D
// last indices in none. Shared by skew_angles (the general engine) and small_tensor's skew variant.

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

// The rotation of pair (p, q), the same in every mode. Rotating every mode by G in the plane (p, q),
// p in block A, q in block B != A, moves two block entries only:
//   C[B_A] <- c a + s b,  a = C[B_A], b = C[B_A with p -> q],
//   C[B_B] <- c d - s e,  d = C[B_B], e = C[B_B with q -> p]
// (a, b = 0 when p is in no block; d, e = 0 when q is in none): the max-diag objective of these
// four entries, whose maximizer rule_rotation is. The identity for p, q in one block or in none.
__device__ inline Rotation skew_rotation(const Scalar* tensor, int p, int q) {
  const int block_p = block_of(p), block_q = block_of(q);
  if (block_p == block_q) return Rotation{Scalar(1), Scalar(0)};
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
  return rule_rotation(a, b, d, e);
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

// The skew core's figures of entries first, first + step, ...: (the squares of the entries with
// distinct indices off the blocks, those on the blocks, every signed copy), in double. An entry
// with a repeated index is 0 by the structure (rounding at most, which no rotation moves): it
// counts in neither, as runtime::skew_figures counts it.
__device__ inline double2 skew_figures_of(const Scalar* x, long long first, long long step) {
  double off = 0.0, blocks = 0.0;
  for (long long i = first; i < ENTRIES; i += step) {
    bool distinct, on_block;
    classify(i, distinct, on_block);
    if (!distinct) continue;
    const double x2 = squared(x[i]);
    if (on_block) blocks += x2;
    else off += x2;
  }
  return make_double2(off, blocks);
}

// (sum_k C[B_k]^2, sum_k C[B_k]) over the N / D block entries, once each: a record's ||diag C||^2
// and trace for structure skew (runtime::core_figures). Every thread reads them all.
__device__ inline double2 block_entries_figures(const Scalar* core) {
  double norm2 = 0.0, sum = 0.0;
  for (int k = 0; k < BLOCKS; ++k) {
    const double x = static_cast<double>(core[block_offset(k)]);
    norm2 += x * x;
    sum += x;
  }
  return make_double2(norm2, sum);
}
