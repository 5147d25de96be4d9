// qubit_sweep: the sweeps of an N = 2 tensor with large D (a qubit-like state, issue 12) without
// rewriting the tensor. At N = 2 a sweep is one pivot group, one rotation per mode, so the core
// after any number of sweeps is C = T x_1 R(Q_1) .. x_D R(Q_D), where R(c, s) = [[c, s], [-s, c]]
// and Q_n, the product of mode n's rotations so far, is again such a rotation (R(a) R(b) is the
// rotation by the summed angle). The tensor T stays as it came; only the D accumulated rotations
// (c, s) change, in double. A sweep needs of C only what its angles read (DESIGN.md section 2:
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
//       R(Q_{MODE_OF_BIT[k]})[r][bit k of j], for the rows i the tensor holds; a block a row
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
//       (half 0: the low bits, 1: the high bits) each bit's mode rotation R(Q); count <= CELL_BITS;
//       SETTLE_BLOCKS blocks (grid-stride over cells), block = THREADS
//   qubit_angles(small, accumulated, half, figures): the half's modes in logical order from its
//       settled small array, Q_n <- R(g_n) Q_n for each; figures[0..1] = (a, d) after its last
//       mode; grid = 1, block = ANGLE_THREADS
// accumulated: D (c, s) pairs of doubles by logical mode; small: 2^bits x 2 doubles of a half;
// partials: SHARES x 2^LOW_BITS x 2 doubles.

inline constexpr int THREADS = ${threads};
inline constexpr int ANGLE_THREADS = ${angle_threads};
inline constexpr int LOW_BITS = ${low_bits};
inline constexpr int HIGH_BITS = D - LOW_BITS;
inline constexpr long long ROW = 1LL << LOW_BITS;
inline constexpr long long ROWS = 1LL << HIGH_BITS;
inline constexpr int CELL_BITS = ${cell_bits};
inline constexpr int SHARES = ${shares};
inline constexpr int SETTLE_BLOCKS = ${settle_blocks};
// 16-byte loads: 4 float32 or 2 float64 entries a thread; a tile of columns is THREADS * VEC.
inline constexpr int VEC = 16 / static_cast<int>(sizeof(Scalar));
inline constexpr long long TILE = static_cast<long long>(THREADS) * VEC;
inline constexpr long long TILES = ROW / TILE;
// The low half's weights as a product of two tables: bits 0..7 and the rest (a thread's columns
// j, j + TILE, .. share bits 0..7: TILE is a multiple of 256).
inline constexpr int LOW_TABLE_BITS = 8;
// The high half's weights: its lower and upper bits.
inline constexpr int HIGH_TABLE_BITS = (HIGH_BITS + 1) / 2;

struct alignas(16) Vector { Scalar v[VEC]; };

// The memory bit of logical mode n: at N = 2 its stride is 2^bit.
__device__ inline int bit_of_mode(int n) { return __ffsll(STRIDE[n]) - 1; }
__device__ inline int mode_of_bit(int k) { return MODE_OF_MEMORY_MODE[D - 1 - k]; }

// Row r (0: p, 1: q) of R(c, s) at index bit b: R[p] = (c, s), R[q] = (-s, c).
__device__ inline double row_entry(const double* accumulated, int mode, int r, int b) {
  const double c = accumulated[2 * mode], s = accumulated[2 * mode + 1];
  return r == 0 ? (b ? s : c) : (b ? c : -s);
}

// table[t] = (w_p, w_q) over `bits` memory bits from `first_bit`: the product of each bit's row entries.
__device__ inline void fill_weights(double2* table, const double* accumulated, int first_bit, int bits) {
  for (int t = threadIdx.x; t < (1 << bits); t += blockDim.x) {
    double wp = 1.0, wq = 1.0;
    for (int k = 0; k < bits; ++k) {
      const int mode = mode_of_bit(first_bit + k), b = (t >> k) & 1;
      wp *= row_entry(accumulated, mode, 0, b);
      wq *= row_entry(accumulated, mode, 1, b);
    }
    table[t] = make_double2(wp, wq);
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
qubit_reduce_low(${qubit_reduce_low_parameters}) {
  __shared__ double2 low_table[1 << LOW_TABLE_BITS];
  __shared__ double2 high_table[1 << (LOW_BITS - LOW_TABLE_BITS)];
  fill_weights(low_table, accumulated, 0, LOW_TABLE_BITS);
  fill_weights(high_table, accumulated, LOW_TABLE_BITS, LOW_BITS - LOW_TABLE_BITS);
  __syncthreads();
  const long long first_column = static_cast<long long>(threadIdx.x) * VEC;
  double2 inner[VEC];
#pragma unroll
  for (int k = 0; k < VEC; ++k) inner[k] = low_table[(first_column + k) & ((1 << LOW_TABLE_BITS) - 1)];
  for (long long row = first_row + blockIdx.x; row < first_row + row_count; row += gridDim.x) {
    const Vector* entries = reinterpret_cast<const Vector*>(tensor + (row - first_row) * ROW);
    double2 sum = make_double2(0.0, 0.0);
#pragma unroll 4
    for (long long column = first_column; column < ROW; column += TILE) {
      const Vector x = entries[column / VEC];
      double p = 0.0, q = 0.0;
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        p += inner[k].x * static_cast<double>(x.v[k]);
        q += inner[k].y * static_cast<double>(x.v[k]);
      }
      const double2 outer = high_table[column >> LOW_TABLE_BITS];
      sum.x += outer.x * p;
      sum.y += outer.y * q;
    }
    sum = block_sum(sum);
    if (threadIdx.x == 0) {
      small[2 * row] = sum.x;
      small[2 * row + 1] = sum.y;
    }
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
qubit_reduce_high(${qubit_reduce_high_parameters}) {
  __shared__ double2 lower_table[1 << HIGH_TABLE_BITS];
  __shared__ double2 upper_table[1 << (HIGH_BITS - HIGH_TABLE_BITS)];
  fill_weights(lower_table, accumulated, LOW_BITS, HIGH_TABLE_BITS);
  fill_weights(upper_table, accumulated, LOW_BITS + HIGH_TABLE_BITS, HIGH_BITS - HIGH_TABLE_BITS);
  __syncthreads();
  const long long tile = blockIdx.x % TILES, share = blockIdx.x / TILES;
  const long long column = tile * TILE + static_cast<long long>(threadIdx.x) * VEC;
  constexpr long long rows_per_share = ROWS / SHARES;
  double2 sum[VEC];
#pragma unroll
  for (int k = 0; k < VEC; ++k) sum[k] = make_double2(0.0, 0.0);
  const long long begin = max(share * rows_per_share, static_cast<long long>(first_row));
  const long long end = min((share + 1) * rows_per_share, static_cast<long long>(first_row) + row_count);
#pragma unroll 4
  for (long long row = begin; row < end; ++row) {
    const double2 lower = lower_table[row & ((1 << HIGH_TABLE_BITS) - 1)];
    const double2 upper = upper_table[row >> HIGH_TABLE_BITS];
    const double wp = lower.x * upper.x, wq = lower.y * upper.y;
    const Vector x = reinterpret_cast<const Vector*>(tensor + (row - first_row) * ROW)[column / VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      sum[k].x += wp * static_cast<double>(x.v[k]);
      sum[k].y += wq * static_cast<double>(x.v[k]);
    }
  }
  double2* out = reinterpret_cast<double2*>(partials) + share * ROW + column;
#pragma unroll
  for (int k = 0; k < VEC; ++k) out[k] = sum[k];
}

extern "C" __global__ void __launch_bounds__(THREADS)
qubit_settle(${qubit_settle_parameters}) {
  __shared__ double2 cell[1 << CELL_BITS];
  const int bits = half ? HIGH_BITS : LOW_BITS;
  const int base = half ? LOW_BITS : 0;  // the memory bit of the small index's bit 0
  const long long entries = 1LL << bits, cell_size = 1LL << count;
  const long long below = 1LL << first;  // index values of the bits under the cell's
  const long long cells = entries >> count;
  double2* values = reinterpret_cast<double2*>(small);
  const double2* summands = reinterpret_cast<const double2*>(partials);
  for (long long c = blockIdx.x; c < cells; c += gridDim.x) {
    // Cell c: the bits under `first` from c's low part, the bits above first + count from the rest.
    const long long origin = (c % below) + ((c / below) << (first + count));
    for (long long t = threadIdx.x; t < cell_size; t += THREADS) {
      const long long i = origin + (t << first);
      double2 v = make_double2(0.0, 0.0);
      if (shares == 0) {
        v = values[i];
      } else {
        for (int s = 0; s < shares; ++s) {
          const double2 x = summands[s * entries + i];
          v.x += x.x;
          v.y += x.y;
        }
      }
      cell[t] = v;
    }
    __syncthreads();
    for (int k = 0; k < count; ++k) {
      const int mode = mode_of_bit(base + first + k);
      const double cq = accumulated[2 * mode], sq = accumulated[2 * mode + 1];
      const long long bit = 1LL << k;
      for (long long h = threadIdx.x; h < cell_size / 2; h += THREADS) {
        const long long low = h & (bit - 1);
        const long long t = ((h - low) << 1) | low;  // bit k clear
        const double2 x = cell[t], y = cell[t | bit];
        cell[t] = make_double2(cq * x.x + sq * y.x, cq * x.y + sq * y.y);
        cell[t | bit] = make_double2(-sq * x.x + cq * y.x, -sq * x.y + cq * y.y);
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
  __shared__ Rotation sweep[most_bits];  // this sweep's rotations of the half's modes so far
  __shared__ int position[most_bits];    // the small index bit of the half's t-th mode
  const int bits = half ? HIGH_BITS : LOW_BITS;
  const int base = half ? LOW_BITS : 0;
  // The half's modes are consecutive: the early half starts at mode 0, the late one ends at D - 1.
  const bool early = bit_of_mode(0) >= base && bit_of_mode(0) < base + bits;
  const int first_mode = early ? 0 : D - bits;
  for (int t = threadIdx.x; t < bits; t += ANGLE_THREADS) position[t] = bit_of_mode(first_mode + t) - base;
  __syncthreads();
  const double2* x = reinterpret_cast<const double2*>(small);
  const long long all = (1LL << bits) - 1;
  double a = x[0].x, d = x[all].y;  // C[p..p] and C[q..q]: the small index all p (all q), side p (q)
  for (int t = 0; t < bits; ++t) {
    // b: q at this mode, p at the later ones, side p; e: p at this mode, q at the later ones, side q;
    // the earlier modes of the half summed with the rows p (for b) and q (for e) of their rotations.
    long long later = 0;
    for (int u = t + 1; u < bits; ++u) later |= 1LL << position[u];
    const long long b_fixed = 1LL << position[t], e_fixed = later;
    double2 be = make_double2(0.0, 0.0);
    for (long long i = threadIdx.x; i < (1LL << t); i += ANGLE_THREADS) {
      long long offset = 0;
      double u = 1.0, v = 1.0;
      for (int m = 0; m < t; ++m) {
        const bool at_q = (i >> m) & 1;
        offset |= static_cast<long long>(at_q) << position[m];
        u *= static_cast<double>(at_q ? sweep[m].s : sweep[m].c);
        v *= static_cast<double>(at_q ? sweep[m].c : -sweep[m].s);
      }
      be.x += u * x[b_fixed | offset].x;
      be.y += v * x[e_fixed | offset].y;
    }
    be = block_sum(be);
    const Rotation g = rule_rotation(static_cast<Scalar>(a), static_cast<Scalar>(be.x), static_cast<Scalar>(d),
                                     static_cast<Scalar>(be.y));
    const double gc = static_cast<double>(g.c), gs = static_cast<double>(g.s);
    a = gc * a + gs * be.x;
    d = gc * d - gs * be.y;
    if (threadIdx.x == 0) {
      sweep[t] = g;
      // Q <- R(g) Q: the angles add.
      const int mode = first_mode + t;
      const double cq = accumulated[2 * mode], sq = accumulated[2 * mode + 1];
      accumulated[2 * mode] = gc * cq - gs * sq;
      accumulated[2 * mode + 1] = gc * sq + gs * cq;
    }
    __syncthreads();  // sweep[t] is seen by every thread before mode t + 1
  }
  if (threadIdx.x == 0) {
    figures[0] = a;
    figures[1] = d;
  }
}
