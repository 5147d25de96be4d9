// The pivot subtensor A[{p,q}^D] of one pair (DESIGN.md section 3): entry `bits` takes index q in
// logical mode n where bit n of `bits` is set, p elsewhere. Within a group it changes only under
// its own pair's rotations, so a warp runs the pair's D micro-iterations on a copy in shared memory
// (runtime/engines/pivot_subtensor.hpp). Lane i handles entries i, i + 32, ...

// Entries of a pivot subtensor. Only the kinds that hold one in shared memory include this, and
// their plans refuse the orders where it would not fit (well below D = 31, where 1 << D overflows).
inline constexpr int SUBTENSOR = 1 << D;

// The offset of entry `bits` of pair (p, q)'s subtensor, with index p of the slowest memory mode
// in row row_p and q in row_q (p and q themselves in a whole tensor; rows[p] and rows[q] in a slab
// of a distributed run, runtime/distributed/slab.hpp).
__device__ __forceinline__ long long subtensor_offset(int bits, int p, int q, long long row_p, long long row_q) {
  const int sliced = MODE_OF_MEMORY_MODE[0];
  long long offset = 0;
#pragma unroll
  for (int n = 0; n < D; ++n) {
    const bool at_q = (bits >> n) & 1;
    offset += (n == sliced ? (at_q ? row_q : row_p) : (at_q ? q : p)) * STRIDE[n];
  }
  return offset;
}

// Copies pair (p, q)'s subtensor of `tensor` (global or shared memory) into `sub`. `rows` null:
// `tensor` is the whole tensor. Else it is a slab of a distributed run (runtime/distributed/slab.hpp):
// index i of the slowest memory mode lives in row rows[i], and the slab holds rows p and q.
// AFTER_WAIT: `tensor` is in global memory, written by the kernel before this one, which may still
// have run when this one began: read after the wait that returned `token` (prelude.cu's
// read_after_wait).
// (Its offsets are subtensor_offset's, written out: through the helper NVRTC schedules
// pivot_angles' sm_90 code otherwise, and pivot_angles keeps the code measured and tested.)
template <bool AFTER_WAIT = false>
__device__ inline void gather_subtensor(const Scalar* tensor, int p, int q, Scalar* sub, int lane,
                                        const int* rows = nullptr, unsigned token = 0) {
  const int sliced = MODE_OF_MEMORY_MODE[0];
  const long long row_p = rows ? rows[p] : p, row_q = rows ? rows[q] : q;
  for (int bits = lane; bits < SUBTENSOR; bits += 32) {
    long long offset = 0;
#pragma unroll
    for (int n = 0; n < D; ++n) {
      const bool at_q = (bits >> n) & 1;
      offset += (n == sliced ? (at_q ? row_q : row_p) : (at_q ? q : p)) * STRIDE[n];
    }
    if constexpr (AFTER_WAIT) sub[bits] = read_after_wait(tensor + offset, token);
    else sub[bits] = tensor[offset];
  }
  __syncwarp();
}

// Rotation g on entries `bits` and `bits | bit` of a subtensor x (in shared memory, or a thread's
// registers once inlined and unrolled), where `half` numbers the entries with `bit` clear: a zero
// bit inserted into `half` at that position gives `bits`.
__device__ __forceinline__ void rotate_entry_pair(Scalar* x, int half, int bit, Rotation g) {
  const int low = half & (bit - 1);
  const int bits = ((half - low) << 1) | low;
  const Scalar p = x[bits];
  const Scalar q = x[bits | bit];
  x[bits] = rotated_at_p(g, p, q);
  x[bits | bit] = rotated_at_q(g, q, p);
}

// One micro-iteration in mode n (DESIGN.md section 2). The rule's angle from the pivot entries
//   a = A_{p..p}, b = A_{p->q,n} (index q in mode n only), d = A_{q..q}, e = A_{q->p,n};
// every lane evaluates the rule on the same four values, so all lanes hold the same (c, s). Then
// the rotation of mode n on the subtensor: A_p <- c A_p + s A_q, A_q <- c A_q - s A_p (the
// prelude's rotated_at_p, rotated_at_q; a complex rule's (c, s) = (al, be), its conjugates on row p).
__device__ inline Rotation micro_iteration(Scalar* sub, int mode, int lane) {
  const int bit = 1 << mode;
  const int all = SUBTENSOR - 1;
  const Rotation g = rule_rotation(sub[0], sub[bit], sub[all], sub[all ^ bit]);
  __syncwarp();  // every lane has read the pivot entries before any is overwritten
  for (int half = lane; half < SUBTENSOR / 2; half += 32) rotate_entry_pair(sub, half, bit, g);
  __syncwarp();
  return g;
}

// The D micro-iterations on a pair's subtensor in `sub` (a warp's, in shared memory) without the
// pivot check: the rotation of mode n goes to out[n * PAIRS] (the layout of `rotations`, offset to
// the pair).
__device__ inline void subtensor_rotations(Scalar* sub, int lane, Rotation* out) {
  for (int mode = 0; mode < D; ++mode) {
    const Rotation g = micro_iteration(sub, mode, lane);
    if (lane == 0) out[mode * PAIRS] = g;
  }
}

// The D micro-iterations of pair (p, q) without the pivot check, on its subtensor of `tensor`
// (subtensor_rotations). AFTER_WAIT: as gather_subtensor.
template <bool AFTER_WAIT = false>
__device__ inline void pair_rotations(const Scalar* tensor, int p, int q, Scalar* sub, int lane, Rotation* out,
                                      const int* rows = nullptr, unsigned token = 0) {
  gather_subtensor<AFTER_WAIT>(tensor, p, q, sub, lane, rows, token);
  subtensor_rotations(sub, lane, out);
}
