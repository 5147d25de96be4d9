// pivot_check_gather: Lambda of mode n for the pivot check (DESIGN.md section 2;
// runtime/algorithm/pivot_check.cpp, pivot_lambda with a group):
//   Lambda = G - G^T,   G[j, l] = C_{l..l} * C_{l->j,n},   so
//   Lambda_ij = C_{j..j} C_{j->i,n} - C_{i..i} C_{i->j,n}   (skew: Lambda_ji = -Lambda_ij, Lambda_ii = 0),
// C the core after this group's rotations in modes < n. The tensor still holds the core from
// before the group (group_pass runs after all modes), so each entry of C it needs is rebuilt from
// 2^n entries: in mode m < n, index l of pair (p, q) is c_m A_l + s_m A_partner (l = p) or
// c_m A_l - s_m A_partner (l = q). Computed in double.
// Complex scalars (DESIGN.md section 7; runtime/algorithm/complex_pivot_check.cpp): G[j, l] =
// conj(C_{l..l}) C_{l->j,n}, Lambda = G - G^H is skew-Hermitian,
//   Lambda_ij = conj(C_{j..j}) C_{j->i,n} - C_{i..i} conj(C_{i->j,n}),   Lambda_ji = -conj(Lambda_ij),
// and the rotated entries weigh the partner's term by conj(s) (l = p) or -s (l = q), the unitary
// rotation's x_p <- c x_p + conj(s) x_q, x_q <- c x_q - s x_p. `lambda` (and `lines`) then hold
// the real 2N x 2N embedding of lambda_layout.cuh, so lambda_norm's Lanczos and cuSOLVER's dgesvd
// take its norm unchanged. The same text serves both: conj is the identity on a
// real.
//
// A team of min(TEAM, 4 * 2^n) lanes per entry i < j of the upper triangle: its lanes take the
// 4 * 2^n terms of the four rotated entries in turn, and a fixed tree sums each (team_sum: a
// shuffle butterfly in each warp, then the team's warps in order): deterministic, equal to the
// CPU's sums up to their order. TEAM (codegen's plan) is a warp where the entries are many and up
// to a block where they are few: at N = 8, D = 9 mode 8 a team of 256 lanes takes 4 terms a lane,
// where a warp took 32 in a row (40 us against 6 us at mode 0 on an H100); at mode 0 eight entries
// share a warp. The team writes Lambda_ij and Lambda_ji; block 0 writes the zero diagonal.
// The team of a pair (p, q) of the group also writes its four sums to `lines` (below): they are the
// pair's pivot entries after the rotations of modes < n, which checked_angles rotates by. The
// engine computes ||Lambda||_2 from the result before checked_angles runs for mode n.
//
// Arguments:
//   tensor     N^D entries: the core before this group's rotations
//   pairs      the pivot group
//   rotations  (c, s) of modes < mode, written by the earlier checked_angles launches
//   mode       n, 0-based
//   lambda     out: Lambda, N x N row-major (Lambda_ij = lambda[i * N + j]); complex: the 2N x 2N embedding
//   lines      out: for each pair (p, q) of the group, V[p, p], V[p, q], V[q, q] and V[q, p] of
//              pivot_check_lines below (the same sums, the same bits), in its layout; the other
//              entries are left as they are
// Launch: grid = ceil(N (N - 1) / 2 * min(TEAM, 4 * 2^(D-1)) / THREADS) (the largest team, at
// least a warp), block = THREADS; at lower modes the teams are smaller and the last blocks idle.
//
// On a slab of a tensor spread over ranks (runtime/distributed/), a rank cannot form Lambda: its
// two factors may lie on two ranks. pivot_check_lines then writes, for every (l, j), the line entry
//   V[l, j] = C_{l->j,n}   (V[l, l] = C_{l..l}), computed by the rank that holds all its terms
// (the row of index j of the sliced mode when n is that mode, else the row of l, which holds l's
// partner too: the group is local) and 0 on the others, so that the sum of V over the ranks is
// exact; lambda_from_lines then forms Lambda_ij = V[j, j] V[j, i] - V[i, i] V[i, j] on every rank.
// Each V entry sums its 2^n terms with a team of min(TEAM, 2^n) lanes as pivot_check_gather sums
// each of its four (the same lanes' terms, the same tree: the larger teams there only add exact
// zeros), so Lambda is the same either way.
//
// pivot_check_lines takes tensor, pairs, rotations and mode as above, and
//   lines      out: V, N x N row-major (V[l, j] = lines[l * N + j])
//   rows       the slab's row of each index of the slowest memory mode, -1 where another rank holds it
// Launch: grid = ceil(N^2 * min(TEAM, 2^(D-1)) / THREADS) (the largest team, at least a warp),
// block = THREADS.
// lambda_from_lines(lines, lambda): grid = ceil(N^2 / THREADS), block = THREADS.

inline constexpr int THREADS = ${threads};
inline constexpr int TEAM = ${team_lanes};  // the most lanes a team takes: a power of two dividing THREADS
inline constexpr int WARPS = THREADS / 32;
static_assert(TEAM >= 32 && THREADS % TEAM == 0 && (TEAM & (TEAM - 1)) == 0, "pivot_check_gather: TEAM divides the block");

// Wide (wide_scalar.cuh): Scalar in double, the check's precision.

// Entry (i, j) of an N x N matrix of Wide values kept as doubles in lambda_layout.cuh's layout: a
// complex one as its real 2N x 2N embedding.
__device__ inline void store(double* array, int i, int j, double x) {
  array[static_cast<long long>(i) * LAMBDA_SIZE + j] = x;
}
__device__ inline void store(double* array, int i, int j, tensordiag::dsl::Complex<double> z) {
  constexpr long long row = LAMBDA_SIZE;
  array[i * row + j] = z.re;
  array[i * row + N + j] = -z.im;
  array[(N + i) * row + j] = z.im;
  array[(N + i) * row + N + j] = z.re;
}
// (load: checked_rotation.cuh.)

// Term `bits` of C_{l..l with index j in `mode`} after the group's rotations in modes < mode: the
// entry with index partner(l) in the modes m < mode where bit m of `bits` is set, l in the others,
// j in `mode` and l after it, weighted by those modes' c or +-s. An unpaired l (odd N) does not
// mix: its only term is bits = 0, weight 1. `rows`: null, or a slab's rows (see the top).
__device__ inline Wide rotated_term(const Scalar* tensor, const Rotation* rotations, const GroupMembership& member,
                                    int mode, int l, int j, unsigned bits, const int* rows = nullptr) {
  const int partner = member.partner[l];
  if (partner < 0 && bits != 0) return Wide(0.0);
  // Where index i of logical mode m lies: i, or in a slab the row of i when m is the sliced mode.
  const auto at = [rows](int m, int i) -> long long {
    return rows != nullptr && m == MODE_OF_MEMORY_MODE[0] ? rows[i] : i;
  };
  // The mode loops stay rolled (#pragma unroll 1): unrolled for every possible mode and inlined at
  // four call sites they made the source compile 2.5 times slower, for no measurable speed.
  long long offset = at(mode, j) * STRIDE[mode];
#pragma unroll 1
  for (int m = mode + 1; m < D; ++m) offset += at(m, l) * STRIDE[m];
  if (partner < 0) {
#pragma unroll 1
    for (int m = 0; m < mode; ++m) offset += at(m, l) * STRIDE[m];
    return widen(tensor[offset]);
  }
  const int k = member.pair_of[l];
  const bool at_p = l < partner;
  Wide weight(1.0);
#pragma unroll 1
  for (int m = 0; m < mode; ++m) {
    const Rotation g = rotations[m * PAIRS + k];
    if ((bits >> m) & 1) {
      offset += at(m, partner) * STRIDE[m];
      weight = weight * (at_p ? conj(widen(g.s)) : -widen(g.s));
    } else {
      offset += at(m, l) * STRIDE[m];
      weight = weight * static_cast<double>(real_cosine(g.c));
    }
  }
  return weight * widen(tensor[offset]);
}

// The sum of v over `lanes` lanes (a power of two <= 32) of the caller's warp, in each of them: a
// fixed butterfly, the same bits every run.
__device__ inline double warp_sum(double v, int lanes) {
  for (int offset = lanes / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}
__device__ inline tensordiag::dsl::Complex<double> warp_sum(tensordiag::dsl::Complex<double> v, int lanes) {
  return {warp_sum(v.re, lanes), warp_sum(v.im, lanes)};
}

// The sum of v over the caller's team of `team` lanes (a power of two dividing THREADS), in each of
// them: warp_sum, then past a warp the team's warp sums in order from 0 (so a team whose other
// warps hold exact zeros gives the smaller team's sum). Every thread of the block calls it with
// the same team; `warp_sums` (WARPS slots) is this call's own: past a warp it holds a barrier.
__device__ inline Wide team_sum(Wide v, int team, Wide* warp_sums) {
  v = warp_sum(v, min(team, 32));
  if (team <= 32) return v;
  const int warp = threadIdx.x / 32;
  if (threadIdx.x % 32 == 0) warp_sums[warp] = v;
  __syncthreads();
  Wide total(0.0);
  const int first = warp - warp % (team / 32);
  for (int w = first; w < first + team / 32; ++w) total += warp_sums[w];
  return total;
}

extern "C" __global__ void __launch_bounds__(THREADS)
pivot_check_gather(${pivot_check_gather_parameters}) {
  __shared__ GroupMembership member;
  build_membership(pairs, member);
  // Launched to overlap the kernel before it (the group pass or lambda_norm: runtime/engines/
  // gpu_engine.cpp, GpuSweep): the tensor and the rotations it wrote are read, and Lambda and the
  // lines it reads are written, after the wait; the next lambda_norm may then begin.
  const unsigned token = wait_for_previous_kernel();
  let_next_kernel_begin();
  const Scalar* const core = coherent_after_wait(tensor, token);
  const Rotation* const before = coherent_after_wait(rotations, token);
  if (blockIdx.x == 0)
    for (int i = threadIdx.x; i < N; i += THREADS) store(lambda, i, i, Wide(0.0));
  // A team of min(TEAM, 4 * 2^mode) lanes per entry i < j: lane r takes terms r, r + team, .. of
  // the four rotated entries; term t >> mode picks C_{j..j}, C_{j->i,n}, C_{i..i}, C_{i->j,n}.
  const unsigned terms = 1u << mode;
  const unsigned long long all_terms = 4ull * terms;  // 2^(mode + 2): past 32 bits from mode 30
  const int team = static_cast<int>(min(static_cast<unsigned long long>(TEAM), all_terms));
  const int member_lane = threadIdx.x % team;
  const long long entry = (static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x) / team;
  constexpr long long UPPER = static_cast<long long>(N) * (N - 1) / 2;
  // Every lane of a warp runs the shuffles; lanes past the triangle add zeros.
  const bool active = entry < UPPER;
  int i = 0, j = 1;
  if (active) {
    // entry = i (2N - i - 1) / 2 + (j - i - 1): row i of the strict upper triangle.
    i = static_cast<int>((2.0 * N - 1.0 - sqrt((2.0 * N - 1.0) * (2.0 * N - 1.0) - 8.0 * static_cast<double>(entry))) / 2.0);
    while (i > 0 && static_cast<long long>(i) * (2 * N - i - 1) / 2 > entry) --i;
    while (static_cast<long long>(i + 1) * (2 * N - i - 2) / 2 <= entry) ++i;
    j = static_cast<int>(entry - static_cast<long long>(i) * (2 * N - i - 1) / 2) + i + 1;
  }
  Wide diagonal_j(0.0), fiber_j(0.0), diagonal_i(0.0), fiber_i(0.0);
  if (active) {
#pragma unroll 4
    for (unsigned long long t = member_lane; t < all_terms; t += team) {
      const unsigned which = static_cast<unsigned>(t >> mode), bits = static_cast<unsigned>(t) & (terms - 1);
      const int l = which < 2 ? j : i;
      const int index = which == 0 || which == 3 ? j : i;
      const Wide term = rotated_term(core, before, member, mode, l, index, bits);
      if (which == 0) diagonal_j += term;
      else if (which == 1) fiber_j += term;
      else if (which == 2) diagonal_i += term;
      else fiber_i += term;
    }
  }
  __shared__ Wide warp_sums[4][WARPS];
  diagonal_j = team_sum(diagonal_j, team, warp_sums[0]);
  fiber_j = team_sum(fiber_j, team, warp_sums[1]);
  diagonal_i = team_sum(diagonal_i, team, warp_sums[2]);
  fiber_i = team_sum(fiber_i, team, warp_sums[3]);
  const Wide value = conj(diagonal_j) * fiber_j - diagonal_i * conj(fiber_i);
  if (active && member_lane == 0) {
    store(lambda, i, j, value);
    store(lambda, j, i, -conj(value));
    if (member.partner[i] == j) {  // a pair of the group, (p, q) = (i, j)
      store(lines, i, i, diagonal_i);
      store(lines, i, j, fiber_i);
      store(lines, j, j, diagonal_j);
      store(lines, j, i, fiber_j);
    }
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
pivot_check_lines(${pivot_check_lines_parameters}) {
  __shared__ GroupMembership member;
  build_membership(pairs, member);
  // A team of min(TEAM, 2^mode) lanes per entry (l, j); lane r takes terms r, r + team, ..
  const unsigned terms = 1u << mode;
  const int team = static_cast<int>(min(static_cast<unsigned>(TEAM), terms));
  const int member_lane = threadIdx.x % team;
  const long long entry = (static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x) / team;
  const bool active = entry < static_cast<long long>(N) * N;
  const int l = active ? static_cast<int>(entry / N) : 0;
  const int j = active ? static_cast<int>(entry % N) : 0;
  // The rank that holds every term: the row of j where `mode` is the sliced mode, else of l.
  const bool held = active && rows[mode == MODE_OF_MEMORY_MODE[0] ? j : l] >= 0;
  Wide line(0.0);
  if (held)
    for (unsigned bits = member_lane; bits < terms; bits += team)
      line += rotated_term(tensor, rotations, member, mode, l, j, bits, rows);
  __shared__ Wide warp_sums[WARPS];
  line = team_sum(line, team, warp_sums);
  if (active && member_lane == 0) store(lines, l, j, held ? line : Wide(0.0));
}

extern "C" __global__ void __launch_bounds__(THREADS)
lambda_from_lines(${lambda_from_lines_parameters}) {
  const long long entry = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x;
  if (entry >= static_cast<long long>(N) * N) return;
  const int i = static_cast<int>(entry / N), j = static_cast<int>(entry % N);
  // Lambda_ij for i < j, its negative below the diagonal, 0 on it.
  const int a = i < j ? i : j, b = i < j ? j : i;
  const Wide value = conj(load(lines, b, b)) * load(lines, b, a) - load(lines, a, a) * conj(load(lines, a, b));
  store(lambda, i, j, i == j ? Wide(0.0) : (i < j ? value : -conj(value)));
}

// checked_angles: the rotations of mode n of the group under the pivot check (DESIGN.md section 2),
// a thread a pair (checked_rotation.cuh), after a norm that lambda_norm did not take with them:
// cuSOLVER's, or on a slab, where every rank holds the summed lines and computes every pair. A
// pivot subtensor is never held, so every order takes it.
//   pairs, lines, lambda: as above; lambda_norm: ||Lambda||_2 (one double); eta; mode: n
//   rotations  out: (c, s) of mode n at rotations[n * PAIRS + k]
// Launch: grid = ceil(PAIRS / threads), block = threads (codegen's plan: a thread a pair, at most
// THREADS, since the gather's plan gives THREADS at least a lane an entry of Lambda's triangle).
extern "C" __global__ void __launch_bounds__(THREADS)
checked_angles(${checked_angles_parameters}) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < PAIRS) rotations[mode * PAIRS + k] = checked_rotation(pairs, lines, lambda, *lambda_norm, eta, k);
}
