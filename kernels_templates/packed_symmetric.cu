// packed_symmetric: structure symmetric in packed storage on the GPU (issue 11, item 1; the GPU form
// of runtime/engines/cpu_packed_engine.cpp, the same arithmetic in the same order). The tensor is
// its COUNT = binom(N + D - 1, D) distinct entries A[i_1 <= .. <= i_D] in lexicographic order
// (runtime/core/packed_symmetric.hpp); an entry's position is its rank, sum_k of
// FULL_PREFIX[D - 1 - k][i_k] - FULL_PREFIX[D - 1 - k][i_(k-1)] (runtime/core/multiset_index.hpp,
// the tables written out below for this N and D).
//
// A group's pairs are rotated one after the other: rotations in disjoint planes commute, and pair
// (p, q)'s pivot entries A[p^(D-j) q^j] are touched by no other pair of the group, so all of the
// group's angles come from the core before it.
//
//   packed_angles(tensor, pairs, rotations, powers): a warp per pair k: its D + 1 pivot values t_j
//       (j indices q), the angle of dsl/symmetric_angle.hpp (symmetric_warp_angle.cuh), rounded to
//       Scalar as the factor gets it, into rotations[k]; and from that rounded (c, s) in double, the
//       rotation's symmetric powers K_m, m = 0..D, into powers[k * POWERS + POWER_OFFSET[m]]:
//       K_m[b][x] = [y^x] (c + s y)^(m-b) (-s + c y)^b, (m + 1) x (m + 1) row-major, the rotation of
//       a class E_b = A[R, p^(m-b), q^b] (b = 0..m) whose R holds neither p nor q.
//       Grid = ceil(PAIRS / ANGLE_WARPS).
//   packed_group(tensor, symbols, powers): the whole group in one launch, a thread an orbit: the
//       entries that differ only in how many of each pair's slots hold q instead of p. Such an orbit
//       is one reduced multiset U of D symbols over the ALPHABET indices that are no pair's q
//       (`symbols`: each one's index, its pair's q or -1, and that pair's place in the group), and
//       holds prod_u (m_u + 1) entries (m_u: how often pair u's p is in U), MAX_ORBIT at most. Its
//       pairs' rotations are applied along their axes in the group's order, the values rounded to
//       Scalar after each as rotate_packed stores them: the CPU's arithmetic in the CPU's order.
//       Orbits partition the entries, so no two threads touch the same one. Where MAX_ORBIT is
//       small (PACKED_GROUP_ORBITS); grid = GROUP_BLOCKS, grid-stride.
//   packed_rotate(tensor, pairs, powers, pair): pair `pair`'s classes: for m = 1..D slots in {p, q}
//       every multiset R of D - m other indices, E <- K_m E in double. A thread takes CHUNK classes
//       of one m, consecutive in R's order. One launch a pair (the pairs of a group touch shared
//       entries: those holding indices of both): where orbits are larger (!PACKED_GROUP_ORBITS).
//       Grid = ROTATE_BLOCKS, grid-stride.
//   packed_factor(factor, pairs, rotations): Q <- Q G for every pair of the group, Q N x N
//       row-major (apply_group_to_factors). Grid = ceil(N * PAIRS / THREADS).
//   packed_figures(tensor, partials): off(A)^2 = sum over the entries off the diagonal of
//       multiplicity * A^2 (D! / prod m_v! full entries share each value; packed_figures.cpp),
//       block b's share into partials[b]. Grid = FIGURE_BLOCKS exactly.
//   packed_figures_final(tensor, partials, figures): figures = (off(A)^2, ||diag A||^2, trace), the
//       partials summed in a fixed order (no atomics: a run repeats bit for bit). Grid = 1.

inline constexpr int THREADS = ${threads};
inline constexpr int ANGLE_WARPS = ${angle_warps};
inline constexpr int ANGLE_THREADS = 32 * ANGLE_WARPS;
inline constexpr int CHUNK = ${chunk};
inline constexpr long long COUNT = ${count};
inline constexpr int REST_SYMBOLS = ${rest_symbols};  // max(N - 2, 1): R's alphabet, the indices but p and q
inline constexpr long long ROTATE_BLOCKS = ${rotate_blocks};
inline constexpr int FIGURE_BLOCKS = ${figure_blocks};
inline constexpr int POWERS = ${powers};  // doubles a pair: sum over m = 0..D of (m + 1)^2
#define PACKED_GROUP_ORBITS ${group_orbits}
inline constexpr int ALPHABET = ${alphabet};       // N - PAIRS: the indices that are no pair's q
inline constexpr long long ORBITS = ${orbits};     // binom(ALPHABET + D - 1, D)
inline constexpr int MAX_ORBIT = ${max_orbit};     // entries of the largest orbit
inline constexpr long long GROUP_BLOCKS = ${group_blocks};

// FULL_PREFIX[t][x] = sum_{v < x} binom(N - 1 - v + t, t) (t = 0..D-1, x = 0..N): the ranks of the
// distinct entries; REST_PREFIX the same over R's alphabet of REST_SYMBOLS symbols.
__device__ constexpr long long FULL_PREFIX[D][N + 1] = {${full_prefix}};
[[maybe_unused]] __device__ constexpr long long REST_PREFIX[D][REST_SYMBOLS + 1] = {${rest_prefix}};
// The same over the ALPHABET symbols of a group's orbits.
[[maybe_unused]] __device__ constexpr long long ORBIT_PREFIX[D][ALPHABET + 1] = {${orbit_prefix}};
// CLASSES[m]: how many R of D - m symbols (0 for m = 0, and for m < D when N = 2);
// CHUNK_END[m]: the chunks of m' = 1..m, ceil(CLASSES[m'] / CHUNK) each.
[[maybe_unused]] __device__ constexpr long long CLASSES[D + 1] = {${classes}};
[[maybe_unused]] __device__ constexpr long long CHUNK_END[D + 1] = {${chunk_end}};
__device__ constexpr int POWER_OFFSET[D + 1] = {${power_offset}};

// What `value` at position k of a sorted tuple of length D, after `previous`, adds to its rank.
__device__ __forceinline__ long long full_term(int k, int value, int previous) {
  return FULL_PREFIX[D - 1 - k][value] - FULL_PREFIX[D - 1 - k][previous];
}

// The tuple of length r at `position` of MultisetIndex(n, r) with table `prefix` (rows of width
// n + 1): each entry the largest v >= the one before whose block of tuples starts at or before the
// position left, by bisection (the block starts rise with v).
template <int WIDTH>
__device__ inline void unrank(const long long (*prefix)[WIDTH], int n, int r, long long position, int* tuple) {
  int previous = 0;
  for (int k = 0; k < r; ++k) {
    const long long* row = prefix[r - 1 - k];
    int low = previous, high = n - 1;
    while (low < high) {
      const int middle = (low + high + 1) / 2;
      if (row[middle] - row[previous] <= position) low = middle;
      else high = middle - 1;
    }
    position -= row[low] - row[previous];
    tuple[k] = low;
    previous = low;
  }
}

// The next tuple of length r over n symbols in the order (MultisetIndex::next); false after the last.
__device__ inline bool next_tuple(int n, int r, int* tuple) {
  int k = r - 1;
  while (k >= 0 && tuple[k] == n - 1) --k;
  if (k < 0) return false;
  const int value = tuple[k] + 1;
  for (int j = k; j < r; ++j) tuple[j] = value;
  return true;
}

extern "C" __global__ void __launch_bounds__(ANGLE_THREADS)
packed_angles(${packed_angles_parameters}) {
  const int lane = threadIdx.x % 32;
  const int k = blockIdx.x * ANGLE_WARPS + threadIdx.x / 32;
  if (k >= PAIRS) return;
  const int p = pairs[2 * k], q = pairs[2 * k + 1];
  // Lane j <= D reads t_j = A[p^(D-j) q^j]; every lane gets all of them.
  double mine = 0.0;
  if (lane <= D) {
    long long rank = 0;
    int previous = 0;
    for (int i = 0; i < D; ++i) {
      const int value = i < D - lane ? p : q;
      rank += full_term(i, value, previous);
      previous = value;
    }
    mine = static_cast<double>(tensor[rank]);
  }
  double t[D + 1];
#pragma unroll
  for (int j = 0; j <= D; ++j) t[j] = __shfl_sync(0xffffffffu, mine, j);
  const tensordiag::dsl::Givens<double> g = warp_symmetric_angle(t, lane);
  const Rotation rounded{static_cast<Scalar>(g.c), static_cast<Scalar>(g.s)};
  if (lane == 0) rotations[k] = rounded;
  const double c = static_cast<double>(rounded.c), s = static_cast<double>(rounded.s);

  // The coefficients of (c + s y)^j and (-s + c y)^j, j = 0..D (triangular, j (j + 1) / 2 + i),
  // built as runtime/algorithm/packed_rotation.cpp (symmetric_powers) builds them: each lane all.
  double at_p[(D + 1) * (D + 2) / 2], at_q[(D + 1) * (D + 2) / 2];
  at_p[0] = 1.0;
  at_q[0] = 1.0;
#pragma unroll
  for (int j = 1; j <= D; ++j) {
    const double* a = at_p + (j - 1) * j / 2;
    const double* b = at_q + (j - 1) * j / 2;
    double* x = at_p + j * (j + 1) / 2;
    double* y = at_q + j * (j + 1) / 2;
    x[0] = c * a[0];
    y[0] = -s * b[0];
    for (int i = 1; i < j; ++i) {
      x[i] = s * a[i - 1] + c * a[i];
      y[i] = c * b[i - 1] + -s * b[i];
    }
    x[j] = s * a[j - 1];
    y[j] = c * b[j - 1];
  }
  // Row (m, b) of K_m, rows numbered m (m + 1) / 2 + b, a lane each.
  double* out = powers + static_cast<long long>(k) * POWERS;
  for (int row = lane; row < (D + 1) * (D + 2) / 2; row += 32) {
    int m = 0;
    while ((m + 1) * (m + 2) / 2 <= row) ++m;
    const int b = row - m * (m + 1) / 2;
    const double* a = at_p + (m - b) * (m - b + 1) / 2;  // m - b + 1 coefficients
    const double* y = at_q + b * (b + 1) / 2;            // b + 1
    double* r = out + POWER_OFFSET[m] + b * (m + 1);
    for (int x = 0; x <= m; ++x) r[x] = 0.0;
    for (int i = 0; i <= m - b; ++i)
      for (int j = 0; j <= b; ++j) r[i + j] += a[i] * y[j];
  }
}

#if PACKED_GROUP_ORBITS
// One orbit, U = `u` (D symbols, sorted): its distinct symbols with their counts, every entry of
// it by rank, the group's rotations along its pairs' axes, the entries stored back.
__device__ void rotate_orbit(Scalar* __restrict__ tensor, const int* __restrict__ symbols,
                             const double* __restrict__ powers, const int* u) {
  // Distinct symbols j: index lo[j] (a pair's p, or unpaired), its pair's q hi[j] (-1: none), that
  // pair's place in the group, how often it is in U; axis stride over the orbit's entries.
  // (int arithmetic: an orbit holds at most MAX_ORBIT <= 4096 entries, and a 64-bit division is a
  // long instruction sequence on the GPU.)
  int lo[D], hi[D], place[D], count[D], stride[D];
  int t = 0;
  for (int k = 0; k < D; ++k) {
    if (k > 0 && u[k] == u[k - 1]) {
      ++count[t - 1];
      continue;
    }
    lo[t] = symbols[3 * u[k]];
    hi[t] = symbols[3 * u[k] + 1];
    place[t] = symbols[3 * u[k] + 2];
    count[t] = 1;
    ++t;
  }
  int members = 1;
  for (int j = 0; j < t; ++j) {
    stride[j] = members;
    if (hi[j] >= 0) members *= count[j] + 1;
  }
  // The 2t candidate indices in increasing order (lo[j] and hi[j]; an unpaired hi is skipped): each
  // entry's sorted index is these with its multiplicities, so its rank walks them in this order.
  int order[2 * D], n_candidates = 0;
  for (int j = 0; j < t; ++j)
    for (int side = 0; side < 2; ++side) {
      if (side == 1 && hi[j] < 0) continue;
      const int value = side == 0 ? lo[j] : hi[j];
      int at = n_candidates++;
      while (at > 0) {
        const int other = order[at - 1];
        if ((other % 2 == 0 ? lo[other / 2] : hi[other / 2]) < value) break;
        order[at] = other;
        --at;
      }
      order[at] = 2 * j + side;
    }
  long long at[MAX_ORBIT];
  double value[MAX_ORBIT];
  for (int member = 0; member < members; ++member) {
    long long rank = 0;
    int k = 0, previous = 0;
    for (int c = 0; c < n_candidates; ++c) {
      const int j = order[c] / 2;
      const int q_slots = hi[j] >= 0 ? member / stride[j] % (count[j] + 1) : 0;
      const int copies = order[c] % 2 == 0 ? count[j] - q_slots : q_slots;
      if (copies == 0) continue;
      const int index = order[c] % 2 == 0 ? lo[j] : hi[j];
      rank += full_term(k, index, previous);
      previous = index;
      k += copies;
    }
    at[member] = rank;
    value[member] = static_cast<double>(tensor[rank]);
  }
  // The pairs' axes in the group's order (rotate_packed one pair after the other).
  bool done[D];
  for (int j = 0; j < t; ++j) done[j] = hi[j] < 0;
  for (;;) {
    int j = -1;
    for (int i = 0; i < t; ++i)
      if (!done[i] && (j < 0 || place[i] < place[j])) j = i;
    if (j < 0) break;
    done[j] = true;
    const int m = count[j];
    const double* k_m = powers + static_cast<long long>(place[j]) * POWERS + POWER_OFFSET[m];
    const int step = stride[j];
    for (int member = 0; member < members; ++member) {
      if (member / step % (m + 1) != 0) continue;  // one fiber: its entry with no q at this axis
      double e[D + 1];
      for (int b = 0; b <= m; ++b) e[b] = value[member + b * step];
      for (int b = 0; b <= m; ++b) {
        double sum = 0.0;
        for (int i = 0; i <= m; ++i) sum += k_m[b * (m + 1) + i] * e[i];
        value[member + b * step] = static_cast<double>(static_cast<Scalar>(sum));
      }
    }
  }
  for (int member = 0; member < members; ++member) tensor[at[member]] = static_cast<Scalar>(value[member]);
}

extern "C" __global__ void __launch_bounds__(THREADS)
packed_group(${packed_group_parameters}) {
  constexpr long long threads = GROUP_BLOCKS * THREADS;
  constexpr long long run = (ORBITS + threads - 1) / threads;
  const long long first = (static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x) * run;
  const long long end = min(first + run, ORBITS);
  if (first >= end) return;
  int u[D];
  unrank(ORBIT_PREFIX, ALPHABET, D, first, u);
  for (long long orbit = first; orbit < end; ++orbit) {
    rotate_orbit(tensor, symbols, powers, u);
    next_tuple(ALPHABET, D, u);
  }
}
#else

// The classes of chunk `chunk` of m slots: R from rank chunk * CHUNK on, in order (R's entries are
// symbols 0..N-3, the indices skipping p and q). Ranks and arithmetic as rotate_packed's.
template <int M>
__device__ void rotate_chunk(Scalar* __restrict__ tensor, const double* __restrict__ k_m, int p, int q, long long chunk) {
  constexpr int R = D - M;
  long long position = chunk * CHUNK;
  const long long end = min(position + CHUNK, CLASSES[M]);
  int symbols[R > 0 ? R : 1];
  unrank(REST_PREFIX, REST_SYMBOLS, R, position, symbols);
  for (; position < end; ++position) {
    int rest[R > 0 ? R : 1];
    int below = 0, between_end = 0;
#pragma unroll
    for (int j = 0; j < R; ++j) {
      const int above_p = symbols[j] + (symbols[j] >= p);
      rest[j] = above_p + (above_p >= q);
      below += rest[j] < p;
      between_end += rest[j] < q;
    }
    long long below_rank = 0;
    int below_last = 0;
    for (int k = 0; k < below; ++k) {
      below_rank += full_term(k, rest[k], below_last);
      below_last = rest[k];
    }
    const int above_start = below + M + (between_end - below);
    long long above_tail = 0;
    for (int j = between_end + 1; j < R; ++j) above_tail += full_term(above_start + j - between_end, rest[j], rest[j - 1]);
    long long at[M + 1];
    double e[M + 1];
#pragma unroll
    for (int b = 0; b <= M; ++b) {
      long long rank = below_rank;
      int previous = below_last, k = below;
      if (M - b > 0) {
        rank += full_term(k, p, previous);
        previous = p;
        k += M - b;
      }
      for (int j = below; j < between_end; ++j, ++k) {
        rank += full_term(k, rest[j], previous);
        previous = rest[j];
      }
      if (b > 0) {
        rank += full_term(k, q, previous);
        previous = q;
        k += b;
      }
      if (between_end < R) rank += full_term(k, rest[between_end], previous) + above_tail;
      at[b] = rank;
      e[b] = static_cast<double>(tensor[rank]);
    }
#pragma unroll
    for (int b = 0; b <= M; ++b) {
      double sum = 0.0;
#pragma unroll
      for (int j = 0; j <= M; ++j) sum += k_m[b * (M + 1) + j] * e[j];
      tensor[at[b]] = static_cast<Scalar>(sum);
    }
    if (!next_tuple(REST_SYMBOLS, R, symbols)) break;
  }
}

// Chunk `chunk` of the launch is of the first M with chunk < CHUNK_END[M].
template <int M>
__device__ __forceinline__ void rotate_chunk_of(Scalar* __restrict__ tensor, const double* __restrict__ k_powers, int p,
                                                int q, long long chunk) {
  if constexpr (M <= D) {
    if (chunk < CHUNK_END[M])
      rotate_chunk<M>(tensor, k_powers + POWER_OFFSET[M], p, q, chunk - CHUNK_END[M - 1]);
    else
      rotate_chunk_of<M + 1>(tensor, k_powers, p, q, chunk);
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
packed_rotate(${packed_rotate_parameters}) {
  __shared__ double k_powers[POWERS];
  const double* from = powers + static_cast<long long>(pair) * POWERS;
  for (int i = threadIdx.x; i < POWERS; i += THREADS) k_powers[i] = from[i];
  __syncthreads();
  const int p = pairs[2 * pair], q = pairs[2 * pair + 1];
  for (long long chunk = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x; chunk < CHUNK_END[D];
       chunk += ROTATE_BLOCKS * THREADS)
    rotate_chunk_of<1>(tensor, k_powers, p, q, chunk);
}

#endif

extern "C" __global__ void __launch_bounds__(THREADS)
packed_factor(${packed_factor_parameters}) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i >= N * PAIRS) return;
  const int row = i / PAIRS, k = i % PAIRS;
  rotate_factor_row(factor + static_cast<long long>(row) * N, pairs[2 * k], pairs[2 * k + 1], rotations[k]);
}

// sum over this thread's entries off the diagonal of multiplicity * A^2, the entries
// first, first + step, ... walked in runs: a thread unranks its first and steps by next().
extern "C" __global__ void __launch_bounds__(THREADS)
packed_figures(${packed_figures_parameters}) {
  constexpr long long threads = static_cast<long long>(FIGURE_BLOCKS) * THREADS;
  constexpr long long run = (COUNT + threads - 1) / threads;
  const long long first = (static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x) * run;
  const long long end = min(first + run, COUNT);
  double off = 0.0;
  if (first < end) {
    int tuple[D];
    unrank(FULL_PREFIX, N, D, first, tuple);
    for (long long position = first;;) {
      if (tuple[0] != tuple[D - 1]) {  // sorted: a diagonal entry has all equal
        double m = 1.0;
        int same = 0;
        for (int k = 0; k < D; ++k) {
          same = k > 0 && tuple[k] == tuple[k - 1] ? same + 1 : 1;
          m = m * static_cast<double>(k + 1) / static_cast<double>(same);
        }
        const double x = static_cast<double>(tensor[position]);
        off += m * x * x;
      }
      if (++position == end) break;
      next_tuple(N, D, tuple);
    }
  }
  const double2 sum = block_sum(make_double2(off, 0.0));
  if (threadIdx.x == 0) partials[blockIdx.x] = sum.x;
}

extern "C" __global__ void __launch_bounds__(THREADS)
packed_figures_final(${packed_figures_final_parameters}) {
  double2 v = make_double2(0.0, 0.0);
  for (int b = threadIdx.x; b < FIGURE_BLOCKS; b += THREADS) v.x += partials[b];
  const double2 off = block_sum(v);
  if (threadIdx.x != 0) return;
  double diag = 0.0, trace = 0.0;
  for (int i = 0; i < N; ++i) {  // A[i, .., i]: rank sum_k of the term of i at k, only k = 0 adding
    const double x = static_cast<double>(tensor[full_term(0, i, 0)]);
    diag += x * x;
    trace += x;
  }
  figures[0] = off.x;
  figures[1] = diag;
  figures[2] = trace;
}
