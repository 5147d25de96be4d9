// qubit_sweep: the sweeps of an N = 2 tensor with large D (a qubit-like state, issue 12) without
// rewriting the tensor. At N = 2 a sweep is one pivot group, one rotation per mode, so the core
// after any number of sweeps is C = T x_1 U_1 .. x_D U_D, where U_n, the product of mode n's
// rotations so far, is again of one form: U(u, v) = [[u, conj(v)], [-v, conj(u)]], |u|^2 + |v|^2 = 1.
// A step's rotation (prelude.cu: x_p <- c x_p + conj(s) x_q, x_q <- c x_q - s x_p, c real) is
// U(c, s), and U(c, s) U(u, v) = U(c u - conj(s) v, s u + c v). Real tensors: u = c, v = s, the
// rotation R(c, s) = [[c, s], [-s, c]] by the summed angle. Complex tensors (issue 11): u and v
// complex, U in SU(2). The tensor T stays as it came; only the D accumulated (u, v) change, in
// double (Wide, wide_scalar.cuh). A sweep needs of C only what its angles read (DESIGN.md section 2:
// the entries a = C[p..p], d = C[q..q], b_n, e_n of mode n after the rotations of modes < n),
// and those are contractions of T with one row of R(Q_m) in each mode m, taken in two reads:
//
// The memory bits of an entry's offset (bit k from the least significant; mode of bit k in
// MODE_OF_BIT) are split into LOW_BITS low bits and HIGH_BITS high bits, a row being 2^LOW_BITS
// consecutive entries. The modes of one half are consecutive in the logical order: the early half
// (modes 0..) is the high bits in C order and the low bits in F order.
//   1. reduce the late half (with its accumulated rotations' rows p and q): a small array
//      x[i][r] over the early half's index i, r = p or q: C with the late modes all at r;
//   2. settle: apply the early modes' accumulated rotations to x (x[i][r] becomes an entry of C);
//   3. angles: the early modes one after the other from x, as pivot_head does; each new rotation
//      joins its mode's Q;
//   4. reduce the early half with the updated rotations: x'[j][r] over the late index j, C after
//      this sweep's early rotations with the early modes all at r;
//   5. settle x' by the late modes' accumulated rotations (summing the reduction's partials);
//   6. angles of the late modes from x'; after the last, a = C[p..p] and d = C[q..q] of the new core.
// Steps 1 and 4 read the tensor once each (one a row, reduce_low; one a column tile, reduce_high);
// the rest works on 2^LOW_BITS or 2^HIGH_BITS doubles. The convergence figure is then
// off(C)^2 = ||T||^2 - a^2 - d^2 (exact: C is T rotated, never rounded), which resolves off(C) to
// about 1e-7 of ||T|| in double (the engine reports no less): float32's rounding of the core, so
// the engine takes this kind for float32 only. The core is written once, at the end, by chunk_pass with the rotations Q.
//
//   qubit_reduce_low(tensor, accumulated, small, first_row, row_count)
//       small[i][r] = sum_j w_r(j) T[i * ROW + j], w_r(j) = prod over the low bits k of
//       U_{MODE_OF_BIT[k]}[r][bit k of j], for the rows i the tensor holds; a block a row
//       (grid-stride), REDUCE_LOW_BLOCKS blocks, block = THREADS
//   qubit_reduce_high(tensor, accumulated, partials, first_row, row_count)
//       partials[s][j][r] = the same sum over the high bits, rows of share s only (and of those,
//       the rows the tensor holds; none: zeros); TILES * SHARES blocks (tile = blockIdx % TILES),
//       block = THREADS
//   The tensor holds rows first_row .. first_row + row_count - 1 (`tensor` points at the first):
//   all ROWS of them, or for a slab of a run over GPU ranks (runtime/distributed/gpu_qubit_ranks.hpp)
//   its share, whose other rows' sums the ranks add. Each sum is over the same terms in the same
//   order as for the whole tensor, so where the ranks' rows are whole shares the sums are exact.
//   qubit_settle(partials, shares, small, accumulated, half, first, count): small = the sum of
//       `shares` partials (shares = 0: small as it is), then for the bits first..first+count-1 of the half's index
//       (half 0: the low bits, 1: the high bits) each bit's mode rotation U; count <= CELL_BITS;
//       SETTLE_BLOCKS blocks (grid-stride over cells), block = THREADS
//   qubit_angles(small, accumulated, half, figures): the half's modes in logical order from its
//       settled small array, U_n <- U(g_n) U_n for each; figures[0..1] = (a, d) after its last
//       mode; grid = 1, block = ANGLE_THREADS
// accumulated: D (u, v) pairs of Wide by logical mode; small: 2^bits x 2 Wide of a half (a WidePair an
// index: side p, side q); partials: SHARES x 2^LOW_BITS WidePairs; figures: (a, d) as two Wide.

inline constexpr int THREADS = ${threads};
inline constexpr int ANGLE_THREADS = ${angle_threads};
inline constexpr int LOW_BITS = ${low_bits};
inline constexpr int HIGH_BITS = D - LOW_BITS;
inline constexpr long long ROW = 1LL << LOW_BITS;
inline constexpr long long ROWS = 1LL << HIGH_BITS;
inline constexpr int CELL_BITS = ${cell_bits};
inline constexpr int SHARES = ${shares};
inline constexpr int SETTLE_BLOCKS = ${settle_blocks};
// 16-byte loads: 4 float32, 2 float64 or complex64, 1 complex128 entries a thread; a tile of
// columns is THREADS * VEC.
inline constexpr int VEC = 16 / static_cast<int>(sizeof(Scalar));
inline constexpr long long TILE = static_cast<long long>(THREADS) * VEC;
inline constexpr long long TILES = ROW / TILE;
// The low half's weights as a product of two tables: bits 0..7 and the rest (a thread's columns
// j, j + TILE, .. share bits 0..7: TILE is a multiple of 256).
inline constexpr int LOW_TABLE_BITS = 8;
// The high half's weights: its lower and upper bits.
inline constexpr int HIGH_TABLE_BITS = (HIGH_BITS + 1) / 2;

struct alignas(16) Vector { Scalar v[VEC]; };

// A value on the sides p and q (the rows p and q of the accumulated rotations): a weight pair, a
// reduction's sum, an entry of a small array.
struct alignas(2 * sizeof(Wide)) WidePair {
  Wide p, q;
};
__device__ inline WidePair operator+(WidePair x, WidePair y) { return {x.p + y.p, x.q + y.q}; }

// The sum over the block of every thread's pair, returned to all threads (figures.cuh).
__device__ inline WidePair block_sum(WidePair v) {
  block_sum_both(v.p, v.q);
  return v;
}

// Mode n's accumulated U(u, v): `accumulated` holds (u, v) as two Wide a mode.
struct Accumulated {
  Wide u, v;
};
__device__ inline Accumulated accumulated_of(const double* accumulated, int mode) {
  const Wide* at = reinterpret_cast<const Wide*>(accumulated) + 2 * mode;
  return {at[0], at[1]};
}

// Row r (0: p, 1: q) of U(u, v) at index bit b: row p = (u, conj(v)), row q = (-v, conj(u)).
__device__ inline Wide row_entry(const double* accumulated, int mode, int r, int b) {
  const Accumulated a = accumulated_of(accumulated, mode);
  return r == 0 ? (b ? conj(a.v) : a.u) : (b ? conj(a.u) : -a.v);
}

// The memory bit of logical mode n: at N = 2 its stride is 2^bit.
__device__ inline int bit_of_mode(int n) { return __ffsll(STRIDE[n]) - 1; }
__device__ inline int mode_of_bit(int k) { return MODE_OF_MEMORY_MODE[D - 1 - k]; }

// table[t] = (w_p, w_q) over `bits` memory bits from `first_bit`: the product of each bit's row entries.
__device__ inline void fill_weights(WidePair* table, const double* accumulated, int first_bit, int bits) {
  for (int t = threadIdx.x; t < (1 << bits); t += blockDim.x) {
    Wide wp = Wide(1), wq = Wide(1);
    for (int k = 0; k < bits; ++k) {
      const int mode = mode_of_bit(first_bit + k), b = (t >> k) & 1;
      wp = wp * row_entry(accumulated, mode, 0, b);
      wq = wq * row_entry(accumulated, mode, 1, b);
    }
    table[t] = {wp, wq};
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
qubit_reduce_low(${qubit_reduce_low_parameters}) {
  __shared__ WidePair low_table[1 << LOW_TABLE_BITS];
  __shared__ WidePair high_table[1 << (LOW_BITS - LOW_TABLE_BITS)];
  fill_weights(low_table, accumulated, 0, LOW_TABLE_BITS);
  fill_weights(high_table, accumulated, LOW_TABLE_BITS, LOW_BITS - LOW_TABLE_BITS);
  __syncthreads();
  const long long first_column = static_cast<long long>(threadIdx.x) * VEC;
  WidePair inner[VEC];
#pragma unroll
  for (int k = 0; k < VEC; ++k) inner[k] = low_table[(first_column + k) & ((1 << LOW_TABLE_BITS) - 1)];
  WidePair* const out = reinterpret_cast<WidePair*>(small);
  for (long long row = first_row + blockIdx.x; row < first_row + row_count; row += gridDim.x) {
    const Vector* entries = reinterpret_cast<const Vector*>(tensor + (row - first_row) * ROW);
    WidePair sum{Wide(0), Wide(0)};
#pragma unroll 4
    for (long long column = first_column; column < ROW; column += TILE) {
      const Vector x = entries[column / VEC];
      Wide p = Wide(0), q = Wide(0);
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        p = p + inner[k].p * widen(x.v[k]);
        q = q + inner[k].q * widen(x.v[k]);
      }
      const WidePair outer = high_table[column >> LOW_TABLE_BITS];
      sum.p = sum.p + outer.p * p;
      sum.q = sum.q + outer.q * q;
    }
    sum = block_sum(sum);
    if (threadIdx.x == 0) out[row] = sum;
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
qubit_reduce_high(${qubit_reduce_high_parameters}) {
  __shared__ WidePair lower_table[1 << HIGH_TABLE_BITS];
  __shared__ WidePair upper_table[1 << (HIGH_BITS - HIGH_TABLE_BITS)];
  fill_weights(lower_table, accumulated, LOW_BITS, HIGH_TABLE_BITS);
  fill_weights(upper_table, accumulated, LOW_BITS + HIGH_TABLE_BITS, HIGH_BITS - HIGH_TABLE_BITS);
  __syncthreads();
  const long long tile = blockIdx.x % TILES, share = blockIdx.x / TILES;
  const long long column = tile * TILE + static_cast<long long>(threadIdx.x) * VEC;
  constexpr long long rows_per_share = ROWS / SHARES;
  WidePair sum[VEC];
#pragma unroll
  for (int k = 0; k < VEC; ++k) sum[k] = {Wide(0), Wide(0)};
  const long long begin = max(share * rows_per_share, static_cast<long long>(first_row));
  const long long end = min((share + 1) * rows_per_share, static_cast<long long>(first_row) + row_count);
#pragma unroll 4
  for (long long row = begin; row < end; ++row) {
    const WidePair lower = lower_table[row & ((1 << HIGH_TABLE_BITS) - 1)];
    const WidePair upper = upper_table[row >> HIGH_TABLE_BITS];
    const Wide wp = lower.p * upper.p, wq = lower.q * upper.q;
    const Vector x = reinterpret_cast<const Vector*>(tensor + (row - first_row) * ROW)[column / VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      sum[k].p = sum[k].p + wp * widen(x.v[k]);
      sum[k].q = sum[k].q + wq * widen(x.v[k]);
    }
  }
  WidePair* out = reinterpret_cast<WidePair*>(partials) + share * ROW + column;
#pragma unroll
  for (int k = 0; k < VEC; ++k) out[k] = sum[k];
}

extern "C" __global__ void __launch_bounds__(THREADS)
qubit_settle(${qubit_settle_parameters}) {
  __shared__ WidePair cell[1 << CELL_BITS];
  const int bits = half ? HIGH_BITS : LOW_BITS;
  const int base = half ? LOW_BITS : 0;  // the memory bit of the small index's bit 0
  const long long entries = 1LL << bits, cell_size = 1LL << count;
  const long long below = 1LL << first;  // index values of the bits under the cell's
  const long long cells = entries >> count;
  WidePair* values = reinterpret_cast<WidePair*>(small);
  const WidePair* summands = reinterpret_cast<const WidePair*>(partials);
  for (long long c = blockIdx.x; c < cells; c += gridDim.x) {
    // Cell c: the bits under `first` from c's low part, the bits above first + count from the rest.
    const long long origin = (c % below) + ((c / below) << (first + count));
    for (long long t = threadIdx.x; t < cell_size; t += THREADS) {
      const long long i = origin + (t << first);
      WidePair v{Wide(0), Wide(0)};
      if (shares == 0) {
        v = values[i];
      } else {
        for (int s = 0; s < shares; ++s) v = v + summands[s * entries + i];
      }
      cell[t] = v;
    }
    __syncthreads();
    for (int k = 0; k < count; ++k) {
      // Bit k of the cell is index bit `mode`'s: (x_0, x_1) <- U (x_0, x_1) on both sides.
      const Accumulated a = accumulated_of(accumulated, mode_of_bit(base + first + k));
      const Wide v_bar = conj(a.v), u_bar = conj(a.u);
      const long long bit = 1LL << k;
      for (long long h = threadIdx.x; h < cell_size / 2; h += THREADS) {
        const long long low = h & (bit - 1);
        const long long t = ((h - low) << 1) | low;  // bit k clear
        const WidePair x = cell[t], y = cell[t | bit];
        cell[t] = {a.u * x.p + v_bar * y.p, a.u * x.q + v_bar * y.q};
        cell[t | bit] = {-a.v * x.p + u_bar * y.p, -a.v * x.q + u_bar * y.q};
      }
      __syncthreads();
    }
    for (long long t = threadIdx.x; t < cell_size; t += THREADS) values[origin + (t << first)] = cell[t];
    __syncthreads();  // the cell is free for the next one
  }
}

extern "C" __global__ void __launch_bounds__(ANGLE_THREADS)
qubit_angles(${qubit_angles_parameters}) {
  constexpr int most_bits = LOW_BITS > HIGH_BITS ? LOW_BITS : HIGH_BITS;
  __shared__ Wide sweep_c[most_bits], sweep_s[most_bits];  // this sweep's rotations of the half's modes so far
  __shared__ int position[most_bits];    // the small index bit of the half's t-th mode
  const int bits = half ? HIGH_BITS : LOW_BITS;
  const int base = half ? LOW_BITS : 0;
  // The half's modes are consecutive: the early half starts at mode 0, the late one ends at D - 1.
  const bool early = bit_of_mode(0) >= base && bit_of_mode(0) < base + bits;
  const int first_mode = early ? 0 : D - bits;
  for (int t = threadIdx.x; t < bits; t += ANGLE_THREADS) position[t] = bit_of_mode(first_mode + t) - base;
  __syncthreads();
  const WidePair* x = reinterpret_cast<const WidePair*>(small);
  const long long all = (1LL << bits) - 1;
  Wide a = x[0].p, d = x[all].q;  // C[p..p] and C[q..q]: the small index all p (all q), side p (q)
  for (int t = 0; t < bits; ++t) {
    // b: q at this mode, p at the later ones, side p; e: p at this mode, q at the later ones, side q;
    // the earlier modes of the half summed with the rows p (for b) and q (for e) of their
    // rotations: row p = (c, conj(s)), row q = (-s, c).
    long long later = 0;
    for (int u = t + 1; u < bits; ++u) later |= 1LL << position[u];
    const long long b_fixed = 1LL << position[t], e_fixed = later;
    WidePair be{Wide(0), Wide(0)};
    for (long long i = threadIdx.x; i < (1LL << t); i += ANGLE_THREADS) {
      long long offset = 0;
      Wide u = Wide(1), v = Wide(1);
      for (int m = 0; m < t; ++m) {
        const bool at_q = (i >> m) & 1;
        offset |= static_cast<long long>(at_q) << position[m];
        const Wide c = sweep_c[m], s = sweep_s[m];
        u = u * (at_q ? conj(s) : c);
        v = v * (at_q ? c : -s);
      }
      be.p = be.p + u * x[b_fixed | offset].p;
      be.q = be.q + v * x[e_fixed | offset].q;
    }
    be = block_sum(be);
    const Rotation g = rule_rotation(narrow(a), narrow(be.p), narrow(d), narrow(be.q));
    // (c, s) in Scalar is unitary to Scalar's rounding only (|c|^2 + |s|^2 = 1 + O(eps)): taken
    // as it is, U_n would drift from unitary by that much a sweep, ||C|| from ||T|| with it, and the
    // figure ||T||^2 - ||diag C||^2 would stop resolving off(C) (complex64: stuck at off_rel 2.3e-4
    // on a planted D = 20 tensor that converges to 1e-7). Normalized in double, U_n stays unitary to
    // double's rounding, and every later use (a, d, the weights, U_n) takes the normalized pair.
    Wide gc = widen(g.c), gs = widen(g.s);
    const double length = sqrt(squared(gc) + squared(gs));
    gc = gc * (1.0 / length);
    gs = gs * (1.0 / length);
    a = gc * a + conj(gs) * be.p;
    d = gc * d - gs * be.q;
    if (threadIdx.x == 0) {
      sweep_c[t] = gc;
      sweep_s[t] = gs;
      // U <- U(g) U: U(c, s) U(u, v) = U(c u - conj(s) v, s u + c v).
      Wide* const at = reinterpret_cast<Wide*>(accumulated) + 2 * (first_mode + t);
      const Wide u = at[0], v = at[1];
      at[0] = gc * u - conj(gs) * v;
      at[1] = gc * v + gs * u;
    }
    __syncthreads();  // sweep_c[t], sweep_s[t] are seen by every thread before mode t + 1
  }
  if (threadIdx.x == 0) {
    Wide* const corners = reinterpret_cast<Wide*>(figures);
    corners[0] = a;
    corners[1] = d;
  }
}
