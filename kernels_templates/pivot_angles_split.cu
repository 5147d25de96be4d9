// pivot_angles_split: the angles of one pivot group when a pair's subtensor S = A[{p,q}^D] (2^D
// entries, bit n of an entry's index picking q in mode n) does not fit one block's shared memory
// (issue 12; pivot_angles serves the shapes where it does). The rule needs four entries of S after
// the rotations of modes < n (DESIGN.md section 2): a_n (all p), b_n (q in mode n only), d_n (all
// q), e_n (p in mode n only). Rotating mode m maps the value at p to c x_p + conj(s) x_q and the
// value at q to c x_q - s x_p (prelude's rotated_at_p, rotated_at_q; conj(s) = s on a real tensor,
// and on a complex one (c, s) = (al, be) of the unitary rotation, al real: DESIGN.md section 7), so
//   a_{n+1} = c_n a_n + conj(s_n) b_n,   d_{n+1} = c_n d_n - s_n e_n,
//   b_n = sum_i U_n(i) S[i, q, p..p],   e_n = sum_i V_n(i) S[i, p, q..q]   (i: the modes < n),
//   U_n(i) = prod_{m<n} (i_m ? conj(s_m) : c_m),   V_n(i) = prod_{m<n} (i_m ? c_m : -s_m):
// contractions of 2^n entries each, summed in Wide (wide_scalar.cuh: double, or Complex<double>).
// The modes split into a head 0..HEAD-1 and a tail of TAIL modes:
//   pivot_head      per pair, the head modes one after the other from those small corners of S
//                   (2^(HEAD+1) entries in all); grid = PAIRS, block = THREADS
//   pivot_contract  the one read of every S: P[j] = sum_i U_HEAD(i) S[i, j], Q[j] = sum_i V_HEAD(i) S[i, j]
//                   over the head index i, for every tail index j, in Wide; CONTRACT_BLOCKS
//                   blocks per pair each sum a share of the i and write their partial P and Q;
//                   grid = PAIRS * CONTRACT_BLOCKS, block = THREADS
//   pivot_tail      per pair, P and Q summed (in a fixed order) into shared memory, then the tail
//                   modes as pivot_angles runs them on S: a, b from P, d, e from Q, each tail mode's
//                   rotation applied to both; grid = PAIRS, block = THREADS
// Tail index j: bit b picks q in mode D - 1 - b, so that for C order consecutive j are neighbours
// in memory where p and q are (N = 2: the whole tensor).
//
// Arguments:
//   tensor     N^D entries: the core before this group's rotations (read only)
//   pairs, rotations: as every group kernel (prelude); the head's rotations are written by
//              pivot_head and read by pivot_contract, the tail's written by pivot_tail
//   partials   PAIRS * CONTRACT_BLOCKS * 2 * TAIL_ENTRIES Wide values (two doubles each for a
//              complex tensor): block b of pair k writes P at ((k * CONTRACT_BLOCKS + b) * 2) *
//              TAIL_ENTRIES and Q after it
//   rows       null, or for a slab of a distributed run (pivot_subtensor.cuh) the row of each
//              index of the slowest memory mode, -1 where another rank holds it: that rank's
//              pairs get (0, 0) in every mode, so that the sum across ranks is each pair's owner's
//              (c, s) (a slab holds both rows of a pair of its stage's groups, or neither)

inline constexpr int THREADS = ${threads};
inline constexpr int HEAD = ${head_modes};
inline constexpr int TAIL = D - HEAD;
inline constexpr int TAIL_ENTRIES = 1 << TAIL;
inline constexpr long long HEAD_ENTRIES = 1LL << HEAD;
inline constexpr int CONTRACT_BLOCKS = ${contract_blocks};
inline constexpr int PER_THREAD = (TAIL_ENTRIES + THREADS - 1) / THREADS;

// Where index i of logical mode m lies along it: i, or in a slab the row of i when m is the
// sliced (slowest memory) mode.
__device__ inline long long place(int m, int i, const int* rows) {
  return rows != nullptr && m == MODE_OF_MEMORY_MODE[0] ? rows[i] : i;
}

// Whether this rank computes pair k: always for a whole tensor; in a slab, where it holds the rows.
__device__ inline bool pair_held(const int* pairs, int k, const int* rows) {
  return rows == nullptr || rows[pairs[2 * k]] >= 0;
}

// The offset of the entry of S whose modes m < count take q where bit m of `bits` is set, p elsewhere.
__device__ inline long long head_offset(int p, int q, int count, long long bits, const int* rows) {
  long long offset = 0;
  for (int m = 0; m < count; ++m) offset += place(m, (bits >> m) & 1 ? q : p, rows) * STRIDE[m];
  return offset;
}

// The offset of tail index j (modes HEAD..D-1; bit b picks q in mode D - 1 - b).
__device__ inline long long tail_offset(int p, int q, int j, const int* rows) {
  long long offset = 0;
  for (int b = 0; b < TAIL; ++b) offset += place(D - 1 - b, (j >> b) & 1 ? q : p, rows) * STRIDE[D - 1 - b];
  return offset;
}

// U(i) and V(i) over the modes m < count (the rows p and q of their rotations `head`).
struct HeadWeights {
  Wide u, v;
};
__device__ inline HeadWeights head_weights(const Rotation* head, int count, long long i) {
  Wide u(1.0), v(1.0);
  for (int m = 0; m < count; ++m) {
    const bool at_q = (i >> m) & 1;
    u = u * (at_q ? widen(conj(head[m].s)) : widen(head[m].c));
    v = v * (at_q ? widen(head[m].c) : widen(-head[m].s));
  }
  return {u, v};
}

extern "C" __global__ void __launch_bounds__(THREADS)
pivot_head(${pivot_head_parameters}) {
  __shared__ Rotation head[HEAD];
  const int k = blockIdx.x;
  if (!pair_held(pairs, k, rows)) {  // another rank's pair: (0, 0), the whole block returns
    for (int n = threadIdx.x; n < HEAD; n += THREADS) rotations[n * PAIRS + k] = Rotation{Scalar(0), Scalar(0)};
    return;
  }
  const int p = pairs[2 * k], q = pairs[2 * k + 1];
  long long all_p = 0, all_q = 0;
  for (int m = 0; m < D; ++m) {
    all_p += place(m, p, rows) * STRIDE[m];
    all_q += place(m, q, rows) * STRIDE[m];
  }
  Scalar a = tensor[all_p], d = tensor[all_q];
  for (int n = 0; n < HEAD; ++n) {
    // b_n's entries: q in mode n, p above; e_n's: p in mode n, q above (bits below: the sum's i).
    long long b_fixed = place(n, q, rows) * STRIDE[n], e_fixed = place(n, p, rows) * STRIDE[n];
    for (int m = n + 1; m < D; ++m) {
      b_fixed += place(m, p, rows) * STRIDE[m];
      e_fixed += place(m, q, rows) * STRIDE[m];
    }
    Wide b_sum(0.0), e_sum(0.0);
    for (long long i = threadIdx.x; i < (1LL << n); i += THREADS) {
      const HeadWeights w = head_weights(head, n, i);
      const long long offset = head_offset(p, q, n, i, rows);
      b_sum += w.u * widen(tensor[b_fixed + offset]);
      e_sum += w.v * widen(tensor[e_fixed + offset]);
    }
    block_sum_both(b_sum, e_sum);
    const Scalar b = narrow(b_sum), e = narrow(e_sum);
    const Rotation g = rule_rotation(a, b, d, e);
    if (threadIdx.x == 0) {
      head[n] = g;
      rotations[n * PAIRS + k] = g;
    }
    a = rotated_at_p(g, a, b);
    d = rotated_at_q(g, d, e);
    __syncthreads();  // head[n] is seen by every thread before mode n + 1
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
pivot_contract(${pivot_contract_parameters}) {
  __shared__ Rotation head[HEAD];
  const int k = blockIdx.x / CONTRACT_BLOCKS;
  const int share = blockIdx.x % CONTRACT_BLOCKS;
  if (!pair_held(pairs, k, rows)) return;  // another rank's pair: pivot_tail writes its (0, 0)
  const int p = pairs[2 * k], q = pairs[2 * k + 1];
  for (int m = threadIdx.x; m < HEAD; m += THREADS) head[m] = rotations[m * PAIRS + k];
  __syncthreads();
  long long tail[PER_THREAD];
  Wide sum_p[PER_THREAD], sum_q[PER_THREAD];
#pragma unroll
  for (int r = 0; r < PER_THREAD; ++r) {
    const int j = threadIdx.x + r * THREADS;
    tail[r] = j < TAIL_ENTRIES ? tail_offset(p, q, j, rows) : 0;
    sum_p[r] = Wide(0.0);
    sum_q[r] = Wide(0.0);
  }
  for (long long i = share; i < HEAD_ENTRIES; i += CONTRACT_BLOCKS) {
    const HeadWeights w = head_weights(head, HEAD, i);
    const long long row = head_offset(p, q, HEAD, i, rows);
#pragma unroll
    for (int r = 0; r < PER_THREAD; ++r) {
      if (threadIdx.x + r * THREADS >= TAIL_ENTRIES) continue;
      const Wide x = widen(tensor[row + tail[r]]);
      sum_p[r] += w.u * x;
      sum_q[r] += w.v * x;
    }
  }
  Wide* out = reinterpret_cast<Wide*>(partials) + static_cast<long long>(blockIdx.x) * 2 * TAIL_ENTRIES;
#pragma unroll
  for (int r = 0; r < PER_THREAD; ++r) {
    const int j = threadIdx.x + r * THREADS;
    if (j >= TAIL_ENTRIES) continue;
    out[j] = sum_p[r];
    out[TAIL_ENTRIES + j] = sum_q[r];
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
pivot_tail(${pivot_tail_parameters}) {
  __shared__ Scalar contracted_p[TAIL_ENTRIES], contracted_q[TAIL_ENTRIES];
  const int k = blockIdx.x;
  if (!pair_held(pairs, k, rows)) {  // another rank's pair: (0, 0), the whole block returns
    for (int n = HEAD + threadIdx.x; n < D; n += THREADS) rotations[n * PAIRS + k] = Rotation{Scalar(0), Scalar(0)};
    return;
  }
  const Wide* in = reinterpret_cast<const Wide*>(partials) + static_cast<long long>(k) * CONTRACT_BLOCKS * 2 * TAIL_ENTRIES;
  for (int j = threadIdx.x; j < TAIL_ENTRIES; j += THREADS) {
    Wide sum_p(0.0), sum_q(0.0);
    for (int b = 0; b < CONTRACT_BLOCKS; ++b) {
      sum_p += in[static_cast<long long>(b) * 2 * TAIL_ENTRIES + j];
      sum_q += in[static_cast<long long>(b) * 2 * TAIL_ENTRIES + TAIL_ENTRIES + j];
    }
    contracted_p[j] = narrow(sum_p);
    contracted_q[j] = narrow(sum_q);
  }
  __syncthreads();
  constexpr int all = TAIL_ENTRIES - 1;
  for (int n = HEAD; n < D; ++n) {
    const int bit = 1 << (D - 1 - n);
    const Rotation g = rule_rotation(contracted_p[0], contracted_p[bit], contracted_q[all], contracted_q[all ^ bit]);
    __syncthreads();  // every thread has read the pivot entries before any is overwritten
    for (int half = threadIdx.x; half < TAIL_ENTRIES / 2; half += THREADS) {
      // The entries with `bit` clear: insert a zero bit at its position into `half`.
      const int low = half & (bit - 1);
      const int j = ((half - low) << 1) | low;
      const Scalar xp = contracted_p[j], yp = contracted_p[j | bit];
      contracted_p[j] = rotated_at_p(g, xp, yp);
      contracted_p[j | bit] = rotated_at_q(g, yp, xp);
      const Scalar xq = contracted_q[j], yq = contracted_q[j | bit];
      contracted_q[j] = rotated_at_p(g, xq, yq);
      contracted_q[j | bit] = rotated_at_q(g, yq, xq);
    }
    if (threadIdx.x == 0) rotations[n * PAIRS + k] = g;
    __syncthreads();
  }
}
