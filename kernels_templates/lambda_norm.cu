// lambda_norm: ||Lambda||_2 of the pivot check (DESIGN.md section 2) on the device, in one block,
// so the checked sweep needs no library call and no host round trip.
//
// Lambda is skew-symmetric, so S = Lambda^T Lambda = -Lambda^2 is symmetric positive semi-definite
// and ||Lambda||_2^2 is its largest eigenvalue. Lambda is first scaled by a power of two (exact) so
// that its largest entry lies in [1, 2): S neither overflows nor underflows for any finite Lambda.
// The Lanczos process on S, started from a fixed vector, builds the tridiagonal T_m (alpha on the
// diagonal, beta beside it) whose largest eigenvalue (the Ritz value) grows to S's. Each step:
//   w = S q_j - beta_j q_{j-1}, then one classical Gram-Schmidt pass against q_0..q_j (its
//   coefficient on q_j is alpha_j), and a second pass only when the first removed more than half
//   of w's square norm (the DGKS criterion: "twice is enough"); full reorthogonalization.
// Matrix-vector product: for N <= 128 (ROWS > 0) Lambda lives in registers, a tile of ROWS rows x
// COLS columns per thread (warp w holds rows w*ROWS.., lane l columns l, l+32, ..); u = Lambda q is
// summed across the lanes (a transposing shuffle reduction), S q = Lambda^T u across the warps
// (shared memory). For larger N, Lambda stays in global memory (L2) and a warp takes a row.
// Vectors: thread t < N owns entry t of w and q; the Lanczos vectors stay in shared memory when
// they fit in BASIS_SHARED_BYTES (small N: a warp or two would otherwise wait on global latency at
// every dot product), else they go to `basis` (global, read
// back through L1).
//
// The Ritz value: every CHECK_EVERY steps, and when beta vanishes (the Krylov space is invariant,
// at most floor(N/2) + 1 steps for a skew Lambda: S's eigenvalues come in pairs) or after STEPS
// steps, every thread counts T_m's eigenvalues below its own point (Sturm, division-free and
// rescaled) and __syncthreads_count brackets the largest one: the first round's points are spaced
// geometrically above the previous Ritz value (a lower bound: it only grows with m), later rounds
// uniformly in the bracket; THREADS points per round. The process stops when the bracket's top is
// within TOLERANCE (relative) of the previous Ritz value; the result is the bracket's middle.
// Everything runs in double; every reduction sums in a fixed order (deterministic).
//
// Bounds first (issue 15; runtime/algorithm/pivot_norm_bounds.hpp, whose stages this repeats):
// a pair passes whatever the exact norm when 2 |Lambda_pq| >= eta upper (1 + MARGIN), fails when
// < eta lower (1 - MARGIN). Stage 1: lower = the largest column 2-norm <= ||Lambda||_2 <= upper =
// min(||Lambda||_F / sqrt(2), the largest column 1-norm). Stage 2 (a pair still open): power steps
// from e_j, j the largest column, on the scaled Lambda: each apply_s gives u = Lambda q and
// S q = Lambda^T u, and ||Lambda^T u|| / ||u|| <= ||Lambda||_2 (lowered for rounding: gamma_{N+6}
// relative and gamma_N ||Lambda||_F absolute, see skew_power_bound.hpp). Stage 3 (S and its factor
// in registers, in the tile's layout; the scaled Lambda copied to dynamic shared memory): stages 2
// and 3 run where GRAM (the plan's, for M up to Tuning::pivot_gram_size, at most 128); tau = the smallest open
// 2 |Lambda_pq| / (eta (1 + 2 MARGIN)); a Cholesky factorization of (tau^2 - shift) I - S that
// completes proves ||Lambda||_2 < tau, and every open pair passes (the shift covers the rounding
// of S and of the factorization: gram_norm_test.hpp); when it does not, more power steps may fail
// that pair and the next is tried (GRAM_ATTEMPTS). When every pair of the group is decided, the
// kernel writes `lower` as the norm, which gives every pair the same verdict the exact norm would
// (passing pairs are >= eta upper > eta lower), and skips the Lanczos process.
//
// Arguments:
//   lambda       M x M, row-major (pivot_check_gather), skew-symmetric
//   basis        workspace: STEPS + 1 vectors of N doubles (the Lanczos vectors; unused when they
//                fit in shared memory)
//   norm         out: ||Lambda||_2, or the lower bound when the bounds decide every pair (0 for Lambda = 0)
//   pairs        the group whose verdicts the norm serves, or null: always the exact norm
//   eta          the check's threshold
//   exact_norms  null, or a counter raised by one each time the exact norm was needed
//   lines, mode, rotations
//                with `pairs`: pivot_check_gather's lines of mode n = mode, and the group's
//                rotations, whose mode n this kernel writes (checked_rotation.cuh); rotations null:
//                the norm only
// Launch: grid = 1, block = THREADS (THREADS >= M).

// Lambda's size M (lambda_layout.cuh): N, or 2N for a complex tensor's real embedding, which is
// skew-symmetric with Lambda's singular values, each twice, so everything below holds for it as it
// is. Only the bounds' pair verdicts read |Lambda_pq| through lambda_magnitude.
inline constexpr int M = LAMBDA_SIZE;
inline constexpr int THREADS = ${threads};
inline constexpr int WARPS = THREADS / 32;
inline constexpr int STEPS = ${steps};
inline constexpr int ROWS = ${tile_rows};          // rows per warp in registers; 0: Lambda stays in global memory
inline constexpr bool IN_REGISTERS = ROWS > 0;
inline constexpr int COLS = (M + 31) / 32;         // columns per lane of the register tile
inline constexpr int TILE_ROWS = IN_REGISTERS ? ROWS : 1;
inline constexpr int TILE_COLS = IN_REGISTERS ? COLS : 1;
inline constexpr int CHECK_EVERY = 2;  // measured against 3, 4, 8: bench/results/lanczos_check_every_h200_2026-11-29.md
inline constexpr int BASIS_SHARED_BYTES = 16 * 1024;
inline constexpr bool BASIS_SHARED = (STEPS + 1) * M * 8 <= BASIS_SHARED_BYTES;
inline constexpr double TOLERANCE = 1e-13;          // on the Ritz value, relative
inline constexpr double INVARIANT = 1e-12;          // beta below this times ||T||: the space is invariant
inline constexpr double MARGIN = 1e-12;             // runtime::bounds_margin
inline constexpr double ROUNDOFF = 0x1p-53;         // double's unit roundoff u
inline constexpr int POWER_STEPS = 3;               // apply_s calls of stage 2 (runtime::power_products / 2)
inline constexpr int RETRY_POWER_STEPS = 8;         // after a gram test that does not complete
inline constexpr bool GRAM = ${gram};               // stages 2 and 3 (Tuning::pivot_gram_size; M <= 128, Lambda in registers)
inline constexpr int GRAM_ATTEMPTS = 2;             // runtime::gram_attempts
inline constexpr double NONE_OPEN = 0x1.fffffffffffffp+1023;  // the largest double: no open pair (scaled 2 |Lambda_pq| <= 4)
static_assert(THREADS >= M, "lambda_norm: a thread per vector entry");
static_assert(!GRAM || (IN_REGISTERS && ROWS % 2 == 0), "lambda_norm: stage 3 factors in the register tile");
static_assert(!IN_REGISTERS || (ROWS <= 32 && (ROWS & (ROWS - 1)) == 0 && WARPS * ROWS >= M),
              "lambda_norm: ROWS is a power of two <= 32 and the warps cover the rows");

inline constexpr int log2_of(int x) { return x <= 1 ? 0 : 1 + log2_of(x / 2); }

__device__ inline double warp_total(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// The sum over the block of every thread's v, the same in all threads. `scratch` (WARPS doubles)
// must not be in use by another reduction until a later barrier.
__device__ inline double block_total(double v, double* scratch) {
  v = warp_total(v);
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  double total = 0.0;
  for (int w = 0; w < WARPS; ++w) total += scratch[w];
  return total;
}

// The number of eigenvalues of T_m below x: the sign changes of p_0 = 1, p_1, .., p_m with
// p_i = det(T_i - x I) scale^i (the negative pivots of T - x I = L D L^T). beta2[i] = beta_i^2 couples
// rows i-1 and i. A zero p_i takes p_{i-1}'s sign (a zero pivot counts as positive, as in LAPACK's
// dstebz); p is rescaled by powers of two, which keeps the signs. `scale` = 2^-e with the bracket's
// top hi in [2^e, 2^(e+1)): 0 <= alpha_i, x <= hi and beta_i <= T_m's largest eigenvalue <= hi (the
// 2 x 2 block of rows i-1, i, alpha >= 0), so |alpha_i - x| scale < 2, beta2_i scale^2 < 4 and |p|
// grows at most 6x a step; a zero fix-up starts at 2^-600: the range is checked every fourth step
// (2^+-500 with room for four).
__device__ inline int eigenvalues_below(const double* alpha, const double* beta2, int m, double x, double scale) {
  const double scale2 = scale * scale;
  double older = 1.0;
  double p = (alpha[0] - x) * scale;
  if (p == 0.0) p = 0x1p-600;
  int below = p < 0.0;
  for (int i = 1; i < m; ++i) {
    double next = fma((alpha[i] - x) * scale, p, -(beta2[i] * scale2) * older);
    if (next == 0.0) next = p < 0.0 ? -0x1p-600 : 0x1p-600;
    below += (next < 0.0) != (p < 0.0);
    older = p;
    p = next;
    if (i % 4 == 0) {
      const double size = fabs(p);
      if (size < 0x1p-500 || size > 0x1p500) {
        const double factor = size < 0x1p-500 ? 0x1p500 : 0x1p-500;
        p *= factor;
        older *= factor;
      }
    }
  }
  return below;
}

// Brackets T_m's largest eigenvalue in [lo, hi] (lo a lower bound, hi an upper bound, on entry and
// on exit), each round THREADS points, until hi - lo <= TOLERANCE * hi or `rounds` rounds.
__device__ inline void bracket_ritz_value(const double* alpha, const double* beta2, int m, double& lo, double& hi,
                                          int rounds) {
  const int t = threadIdx.x;
  for (int round = 0; round < rounds && hi - lo > TOLERANCE * hi; ++round) {
    // Round 0: offsets from lo spaced geometrically from `finest` up to hi - lo (quick when the
    // value moved little since the last check). Later rounds: uniformly inside the bracket.
    const double width = hi - lo;
    const double finest = 0.5 * TOLERANCE * (lo > 0.0 ? lo : hi);
    // The geometric spacing needs order, not precision: single-precision exp2 and log2 (hardware
    // instructions; the double library functions were a fifth of the compile time).
    const float ratio = log2f(static_cast<float>(fmin(finest / width, 1.0)));
    constexpr double SPACING = 1.0 / (THREADS + 1);
    const auto point = [&](int k) {
      return round == 0 ? lo + width * static_cast<double>(exp2f(ratio * static_cast<float>(THREADS - 1 - k) /
                                                                 static_cast<float>(THREADS - 1)))
                        : lo + width * (static_cast<double>(k + 1) * SPACING);
    };
    const double x = point(t);
    // Points at or below the largest eigenvalue: a prefix of the (increasing) points. The Sturm
    // products scale by 2^-e, hi in [2^e, 2^(e+1)): exact, and no division.
    const double scale = ldexp(1.0, -ilogb(hi));
    const int k = __syncthreads_count(eigenvalues_below(alpha, beta2, m, x, scale) < m);
    const double next_lo = k > 0 ? point(k - 1) : lo;
    const double next_hi = k < THREADS ? point(k) : hi;
    lo = fmax(lo, next_lo);
    hi = fmin(hi, next_hi);
  }
}

// The largest of every thread's v, the same in all threads. As block_total for `scratch`.
__device__ inline double block_max(double v, double* scratch) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmax(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  double largest = 0.0;
  for (int w = 0; w < WARPS; ++w) largest = fmax(largest, scratch[w]);
  return largest;
}

// Higham's gamma_n = n u / (1 - n u): the relative error bound of a sum of n terms in any order.
__device__ inline double rounding_gamma(double n) { return n * ROUNDOFF / (1.0 - n * ROUNDOFF); }

// The smallest of every thread's v, the same in all threads. As block_total for `scratch`.
__device__ inline double block_min(double v, double* scratch) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmin(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  double smallest = scratch[0];
  for (int w = 1; w < WARPS; ++w) smallest = fmin(smallest, scratch[w]);
  return smallest;
}

// The verdicts under [lower, upper] (see the top), all three in units of the scaled Lambda (`scale`
// times Lambda): true when they decide every pair of `pairs`; `smallest_open` gets the smallest
// 2 |Lambda_pq| scale of the open pairs (NONE_OPEN when none).
__device__ inline bool bounds_decide(const double* lambda, double scale, const int* pairs, double eta, double lower,
                                     double upper, double& smallest_open) {
  __shared__ double scratch[32];
  double twice_open = NONE_OPEN;
  if (threadIdx.x < PAIRS) {
    const double twice = 2.0 * lambda_magnitude(lambda, pairs[2 * threadIdx.x], pairs[2 * threadIdx.x + 1]) * scale;
    if (!(twice >= eta * upper * (1 + MARGIN) || twice < eta * lower * (1 - MARGIN))) twice_open = twice;
  }
  smallest_open = block_min(twice_open, scratch);
  return !(smallest_open < NONE_OPEN);
}

// Stage 3 in this thread's tile of the register layout (warp w rows w ROWS + i, lane l columns
// l + 32 k; tiles wholly above the diagonal, 32 k > the warp's last row, are never formed or used).
inline constexpr int LD = 32 * COLS;  // lambda_copy's row stride (>= M; past M zeros)
__device__ inline int last_row_of_warp(int warp) { return warp * ROWS + ROWS - 1; }
__device__ inline bool tile_on_or_below_diagonal(int warp, int k) { return 32 * k <= last_row_of_warp(warp); }

// Whether a factorization of A = (tau^2 - shift) I - S completes with positive pivots
// (gram_norm_test.hpp): then ||Lambda||_2 < tau for the scaled Lambda in `lambda_copy` (M x LD,
// shared memory), whose S = Lambda^T Lambda (rounded) the function forms; frobenius2 >=
// ||Lambda||_F^2. The same value in every thread.
// S: each thread sums its tile's S_ij = sum_r Lambda_ri Lambda_rj over r in order (N^3 / 2
// multiply-adds over the lower tiles; row r's entries at the warp's rows are one broadcast, at the
// lane's columns one coalesced load; fused multiply-adds, written out as the kernels are compiled
// with --fmad=false: each rounds once, within the same gamma bounds, at half the instructions and
// latency of a multiply and an add).
// The factorization is A = L D L^T, right-looking in registers, GRAM_BLOCK columns a step: with
// r_c = 1 / d_c rounded up (so d'_c = 1 / r_c <= d_c, d_c the computed pivot), column c updates
// every entry below and right of it by a_ij -= fl(a_ic r_c) a_jc (one fused multiply-add), i >= j.
// In exact terms that is the LDL^T of A with each pivot lowered from d_c to d'_c: the computed
// L D' L^T = A + E - diag(d_c - d'_c) <= A + E, |E| <= gamma_(N+2) |L| D' |L|^T (Higham, Accuracy
// and Stability, section 10.4; one rounding for l_ic, one a fused update), so positive pivots
// prove A + E positive definite, with ||E||_2 <= gamma_(N+2) tr(L D' L^T) as for Cholesky (theorem
// 10.3); the shift below covers it. A step: the owners of its columns published them (the panel:
// A^(c0), every row); every thread factors the panel's GRAM_BLOCK x GRAM_BLOCK pivot block itself
// (the same values everywhere, so a pivot <= 0 is a uniform exit), thread t carries row t through
// the block's columns into l_tc and a_tc; a barrier; every thread updates its tile by the block's
// columns, the next block's chunk first, whose owners then publish it; a barrier. Two barriers a
// block of columns instead of one a column, and no root: the step's chain is GRAM_BLOCK upward
// reciprocals. The result of each entry is that of the one-column-a-step order (the same
// operations in the same order).
inline constexpr int GRAM_BLOCK = 4;
static_assert(32 % GRAM_BLOCK == 0, "lambda_norm: a block of columns lies in one lane chunk");
__device__ inline bool gram_certifies_below(const double* lambda_copy, double tau, double frobenius2) {
  constexpr int B = GRAM_BLOCK;
  __shared__ double panel[B][LD];     // columns c0 + j of A^(c0), by row
  __shared__ double scaled[B][LD];    // l_ic = fl(a_ic^(c) r_c), c = c0 + j, by row i
  __shared__ double unscaled[B][LD];  // a_ic^(c), by row i
  const int t = threadIdx.x;
  const int warp = t / 32, lane = t % 32;
  const double tau2 = tau * tau;
  const double g = rounding_gamma(M + 2.0);
  const double shift = 1.01 * (g / (1.0 - g) * M * tau2 + rounding_gamma(M) * frobenius2 +
                               5.0 * ROUNDOFF * (tau2 + frobenius2));
  double a[TILE_ROWS][TILE_COLS];
#pragma unroll
  for (int i = 0; i < ROWS; ++i)
#pragma unroll
    for (int k = 0; k < COLS; ++k) a[i][k] = 0.0;
  for (int r = 0; r < M; ++r) {
    const double* row = lambda_copy + r * LD;
    double x[TILE_ROWS];
#pragma unroll
    for (int i = 0; i < ROWS; i += 2) {
      const double2 two = *reinterpret_cast<const double2*>(row + warp * ROWS + i);
      x[i] = two.x;
      x[i + 1] = two.y;
    }
#pragma unroll
    for (int k = 0; k < COLS; ++k) {
      if (!tile_on_or_below_diagonal(warp, k)) continue;
      const double y = row[lane + 32 * k];
#pragma unroll
      for (int i = 0; i < ROWS; ++i) a[i][k] = fma(x[i], y, a[i][k]);
    }
  }
  // A = (tau^2 - shift) I - S.
#pragma unroll
  for (int i = 0; i < ROWS; ++i)
#pragma unroll
    for (int k = 0; k < COLS; ++k) a[i][k] = (warp * ROWS + i == lane + 32 * k ? tau2 - shift : 0.0) - a[i][k];
  // The columns c0 .. c0 + B - 1 (< M) into the panel, from the warps whose rows are not all above c0.
  const auto publish = [&](int c0) {
    const int j = lane - c0 % 32;
    if (j < 0 || j >= B || c0 + j >= M || last_row_of_warp(warp) < c0) return;
    const int chunk = c0 / 32;
#pragma unroll
    for (int i = 0; i < ROWS; ++i) {
      double v = a[i][0];
#pragma unroll
      for (int k = 1; k < COLS; ++k)
        if (k == chunk) v = a[i][k];
      panel[j][warp * ROWS + i] = v;
    }
  };
  for (int e = t; e < B * LD; e += THREADS) {
    (&scaled[0][0])[e] = 0.0;
    (&unscaled[0][0])[e] = 0.0;
  }
  publish(0);
  for (int c0 = 0; c0 < M; c0 += B) {
    const int columns = M - c0 < B ? M - c0 : B;
    __syncthreads();  // the panel is published; the last step's updates have read scaled, unscaled
    // The pivot block's factorization (lower triangle), the same in every thread.
    double p[B][B], reciprocal[B];
#pragma unroll
    for (int i = 0; i < B; ++i)
#pragma unroll
      for (int j = 0; j <= i; ++j) p[i][j] = i < columns ? panel[j][c0 + i] : (i == j ? 1.0 : 0.0);
#pragma unroll
    for (int j = 0; j < B; ++j) {
      // A pivot that is not a positive finite number (NaN too) ends the test: not certified.
      if (!(p[j][j] > 0x1p-900 && p[j][j] < 0x1p900)) return false;
      reciprocal[j] = __drcp_ru(p[j][j]);
#pragma unroll
      for (int i = j + 1; i < B; ++i) {
        const double l = p[i][j] * reciprocal[j];
#pragma unroll
        for (int k = j + 1; k <= i; ++k) p[i][k] = fma(-l, p[k][j], p[i][k]);
      }
    }
    if (c0 + columns == M) break;  // every pivot is positive
    // Row t through the block's columns: its l and a at each (the pivot rows repeat p's values).
    if (t >= c0 && t < M) {
      double x[B];
#pragma unroll
      for (int j = 0; j < B; ++j) x[j] = panel[j][t];
#pragma unroll
      for (int j = 0; j < B; ++j) {
        const double l = x[j] * reciprocal[j];
        scaled[j][t] = l;
        unscaled[j][t] = x[j];
#pragma unroll
        for (int k = j + 1; k < B; ++k) x[k] = fma(-l, p[k][j], x[k]);
      }
    }
    __syncthreads();
    const int next = c0 + B;
    if (last_row_of_warp(warp) < next) continue;  // this warp's rows are factored
    const int next_chunk = next / 32;
    // The next block's chunk first and its publication, so that the next step's pivot block does
    // not wait for the rest of the update.
    const auto update = [&](bool next_only) {
#pragma unroll 1  // a column at a time: its l_row in registers beside the tile
      for (int j = 0; j < B; ++j) {
        double l_row[TILE_ROWS];
#pragma unroll
        for (int i = 0; i < ROWS; i += 2) {
          const double2 two = *reinterpret_cast<const double2*>(&scaled[j][warp * ROWS + i]);
          l_row[i] = two.x;
          l_row[i + 1] = two.y;
        }
#pragma unroll
        for (int k = 0; k < COLS; ++k)
          if ((k == next_chunk) == next_only && tile_on_or_below_diagonal(warp, k) && 32 * k + 31 >= next) {
            const double column = unscaled[j][lane + 32 * k];
#pragma unroll
            for (int i = 0; i < ROWS; ++i) a[i][k] = fma(-l_row[i], column, a[i][k]);
          }
      }
    };
    update(true);
    publish(next);
    update(false);
  }
  return true;
}

// ||Lambda||_2, the same value in every thread of the block; with `pairs`, the lower bound instead
// when the bounds decide all of them (`exact` says which).
__device__ inline double spectral_norm(const double* __restrict__ lambda, double* __restrict__ basis_global,
                                       const int* pairs, double eta, bool& exact) {
  __shared__ double basis_shared[BASIS_SHARED ? (STEPS + 1) * M : 1];
  double* const basis = BASIS_SHARED ? basis_shared : basis_global;
  __shared__ double q[32 * COLS];                     // q_j (zero past N)
  __shared__ double u[IN_REGISTERS ? WARPS * ROWS : M];  // Lambda q
  __shared__ double partial[IN_REGISTERS ? WARPS : 1][32 * COLS];  // column sums of each warp's rows
  __shared__ double w_shared[M];                      // S q on the global path; w for the dot products
  __shared__ double alpha[STEPS];
  __shared__ double beta2[STEPS + 1];                 // beta_i^2
  __shared__ double coefficients[STEPS + 2];
  __shared__ double scratch[3][32];

  const int t = threadIdx.x;
  const int warp = t / 32;
  const int lane = t % 32;
  const bool owner = t < M;

  // Lambda's tile (register path) and the largest |Lambda_ij|, for the scale.
  double tile[TILE_ROWS][TILE_COLS];
  double largest = 0.0;
  if constexpr (IN_REGISTERS) {
#pragma unroll
    for (int i = 0; i < ROWS; ++i)
#pragma unroll
      for (int k = 0; k < COLS; ++k) {
        const int row = warp * ROWS + i, col = lane + 32 * k;
        tile[i][k] = row < M && col < M ? lambda[row * M + col] : 0.0;
        largest = fmax(largest, fabs(tile[i][k]));
      }
  } else {
    for (int e = t; e < M * M; e += THREADS) largest = fmax(largest, fabs(lambda[e]));
  }
  for (int offset = 16; offset > 0; offset /= 2) largest = fmax(largest, __shfl_xor_sync(0xffffffffu, largest, offset));
  if (lane == 0) scratch[0][warp] = largest;
  __syncthreads();
  largest = 0.0;
  for (int w = 0; w < WARPS; ++w) largest = fmax(largest, scratch[0][w]);
  __syncthreads();  // scratch[0] is read
  exact = true;
  if (largest == 0.0 || !isfinite(largest)) {  // Lambda = 0: every pair passes, as with norm 0; or Inf/NaN passed on
    exact = !(pairs && largest == 0.0);
    return largest;
  }
  // Everything below works on Lambda times this power of two (exact): S's entries neither overflow
  // nor underflow to matter, the norm is >= 1, and the bounds are returned divided by it.
  const double scale = ldexp(1.0, -ilogb(largest));  // scale * largest in [1, 2)
  if constexpr (IN_REGISTERS) {
#pragma unroll
    for (int i = 0; i < ROWS; ++i)
#pragma unroll
      for (int k = 0; k < COLS; ++k) tile[i][k] *= scale;
  }
  double lower = 0.0, upper = 0.0, frobenius2 = 0.0, smallest_open = 0.0;
  int start_column = 0;
  if (pairs) {
    // This thread's column norms: summed over the warps' register rows, or read down the column.
    double column2 = 0.0, column1 = 0.0;
    if constexpr (IN_REGISTERS) {
#pragma unroll
      for (int k = 0; k < COLS; ++k) {
        double sum2 = 0.0;
#pragma unroll
        for (int i = 0; i < ROWS; ++i) sum2 += tile[i][k] * tile[i][k];
        partial[warp][lane + 32 * k] = sum2;
      }
      __syncthreads();
      if (owner)
        for (int w = 0; w < WARPS; ++w) column2 += partial[w][t];
      __syncthreads();
#pragma unroll
      for (int k = 0; k < COLS; ++k) {
        double sum1 = 0.0;
#pragma unroll
        for (int i = 0; i < ROWS; ++i) sum1 += fabs(tile[i][k]);
        partial[warp][lane + 32 * k] = sum1;
      }
      __syncthreads();
      if (owner)
        for (int w = 0; w < WARPS; ++w) column1 += partial[w][t];
      __syncthreads();
    } else {
      if (owner)
        for (int r = 0; r < M; ++r) {
          const double x = lambda[r * M + t] * scale;
          column2 += x * x;
          column1 += fabs(x);
        }
    }
    // Stage 1 (scaled units, as every bound below).
    const double largest2 = block_max(column2, scratch[0]);
    frobenius2 = block_total(column2, scratch[1]);
    lower = sqrt(largest2);
    upper = fmin(sqrt(0.5 * frobenius2), block_max(column1, scratch[2]));
    // The first column of largest 2-norm: stage 2's start.
    start_column = static_cast<int>(block_min(owner && column2 == largest2 ? t : M, scratch[0]));
    if (bounds_decide(lambda, scale, pairs, eta, lower, upper, smallest_open)) {
      exact = false;
      return lower / scale;
    }
  }

  // S q_j for the scaled Lambda, entry t (owners only).
  const auto apply_s = [&]() -> double {
    if constexpr (IN_REGISTERS) {
      double x[TILE_COLS];
#pragma unroll
      for (int k = 0; k < COLS; ++k) x[k] = q[lane + 32 * k];
      double v[TILE_ROWS];
#pragma unroll
      for (int i = 0; i < ROWS; ++i) {
        v[i] = 0.0;
#pragma unroll
        for (int k = 0; k < COLS; ++k) v[i] += tile[i][k] * x[k];
      }
      // Transposing reduction over the lanes: each level halves the rows a lane carries (lanes with
      // the level's bit set keep the upper half), then plain halving; lane l ends with row l >> (5 - R).
      constexpr int R = log2_of(TILE_ROWS);
#pragma unroll
      for (int level = 0; level < R; ++level) {
        const int offset = 16 >> level;
        const int half = TILE_ROWS >> (level + 1);
        const bool upper = (lane & offset) != 0;
#pragma unroll
        for (int i = 0; i < half; ++i) {
          const double send = upper ? v[i] : v[i + half];
          const double keep = upper ? v[i + half] : v[i];
          v[i] = keep + __shfl_xor_sync(0xffffffffu, send, offset);
        }
      }
#pragma unroll
      for (int offset = 16 >> R; offset > 0; offset /= 2) v[0] += __shfl_xor_sync(0xffffffffu, v[0], offset);
      if ((lane & ((32 >> R) - 1)) == 0) u[warp * ROWS + (lane >> (5 - R))] = v[0];
      __syncthreads();
      double y[TILE_ROWS];
#pragma unroll
      for (int i = 0; i < ROWS; ++i) y[i] = u[warp * ROWS + i];
#pragma unroll
      for (int k = 0; k < COLS; ++k) {
        double sum = 0.0;
#pragma unroll
        for (int i = 0; i < ROWS; ++i) sum += tile[i][k] * y[i];
        partial[warp][lane + 32 * k] = sum;  // (Lambda^T u)_col over this warp's rows
      }
      __syncthreads();
      double s = 0.0;
      if (owner)
        for (int w = 0; w < WARPS; ++w) s += partial[w][t];
      return s;
    } else {
      // u = Lambda q, then S q = -Lambda u: a warp per row, its lanes along the row (coalesced).
      for (int row = warp; row < M; row += WARPS) {
        double sum = 0.0;
        for (int k = lane; k < M; k += 32) sum += lambda[row * M + k] * q[k];
        sum = warp_total(sum);
        if (lane == 0) u[row] = scale * sum;
      }
      __syncthreads();
      for (int row = warp; row < M; row += WARPS) {
        double sum = 0.0;
        for (int k = lane; k < M; k += 32) sum += lambda[row * M + k] * u[k];
        sum = warp_total(sum);
        if (lane == 0) w_shared[row] = -scale * sum;
      }
      __syncthreads();
      return owner ? w_shared[t] : 0.0;
    }
  };

  // One classical Gram-Schmidt pass of w (entry t) against q_0..q_j: coefficients[i] = q_i . w, and
  // coefficients[j + 1] = w . w when `with_norm`; returns the new entry t.
  const auto orthogonalize = [&](double w, int j, bool with_norm) -> double {
    if (owner) w_shared[t] = w;
    __syncthreads();
    for (int i = warp; i <= j + (with_norm ? 1 : 0); i += WARPS) {
      const double* v = i <= j ? basis + static_cast<long long>(i) * M : w_shared;
      double dot = 0.0;
      for (int r = lane; r < M; r += 32) dot += v[r] * w_shared[r];
      dot = warp_total(dot);
      if (lane == 0) coefficients[i] = dot;
    }
    __syncthreads();
    if (owner)
      for (int i = 0; i <= j; ++i) w -= coefficients[i] * basis[static_cast<long long>(i) * M + t];
    return w;
  };

  // Stages 2 and 3 (see the top), on the scaled Lambda. Without stage 3 (N = 128) the power steps
  // alone settle few checks (D = 3, N = 128: the Lanczos norm was still needed in 3381 of 3810) and
  // cost more than they save there (258 ms against 235 without them, 10 sweeps, H100), so they
  // run only with it.
  if (GRAM && pairs && isfinite(upper)) {
    // >= ||Lambda||_F scaled: the sum of N^2 squares is within gamma_{N^2 + 2}.
    const double frobenius = sqrt(frobenius2 * (1.0 + rounding_gamma(static_cast<double>(M) * M + 2.0))) *
                             (1.0 + 2.0 * ROUNDOFF);
    if (t < 32 * COLS) q[t] = t == start_column ? 1.0 : 0.0;
    __syncthreads();
    // `steps` power steps; lower rises to the best quotient.
    const auto power_steps = [&](int steps) {
      for (int k = 0; k < steps; ++k) {
        const double s = apply_s();  // u = Lambda q (shared, settled), s = Lambda^T u
        const double u2 = block_total(t < M ? u[t] * u[t] : 0.0, scratch[0]);
        const double s2 = block_total(s * s, scratch[1]);
        if (!(u2 > 0.0) || !(s2 > 0.0)) break;  // the same in every thread
        const double quotient = sqrt(s2 / u2) * (1.0 - rounding_gamma(M + 6.0)) - rounding_gamma(M) * frobenius;
        lower = fmax(lower, quotient);
        if (t < 32 * COLS) q[t] = owner ? s / sqrt(s2) : 0.0;
        __syncthreads();
      }
    };
    power_steps(POWER_STEPS);
    if (bounds_decide(lambda, scale, pairs, eta, lower, upper, smallest_open)) {
      exact = false;
      return lower / scale;
    }
    if constexpr (GRAM) {
      // The scaled Lambda in shared memory (dynamic: M x LD doubles, the plan's), from the tile.
      extern __shared__ double lambda_copy[];
      const auto copy_tile = [&](bool to_shared) {
#pragma unroll
        for (int i = 0; i < ROWS; ++i)
#pragma unroll
          for (int k = 0; k < COLS; ++k) {
            const int row = warp * ROWS + i;
            double& shared = lambda_copy[(row < M ? row : 0) * LD + lane + 32 * k];
            if (to_shared && row < M) shared = tile[i][k];
            if (!to_shared) tile[i][k] = row < M ? shared : 0.0;
          }
      };
      copy_tile(true);
      __syncthreads();
      for (int attempt = 0; attempt < GRAM_ATTEMPTS; ++attempt) {
        const double tau = smallest_open / (eta * (1 + 2 * MARGIN));
        if (!(tau > lower)) break;  // the norm is >= lower >= tau: no test can succeed
        const bool below = gram_certifies_below(lambda_copy, tau, frobenius * frobenius * (1.0 + 2.0 * ROUNDOFF));
        // The tile again from its copy (the same values): the factorization's registers took its place.
        copy_tile(false);
        if (below) {
          exact = false;  // every open pair passes: 2 |Lambda_pq| >= eta tau (1 + 2 MARGIN) > eta lower
          return lower / scale;
        }
        const double before = smallest_open;
        power_steps(RETRY_POWER_STEPS);
        if (bounds_decide(lambda, scale, pairs, eta, lower, upper, smallest_open)) {
          exact = false;
          return lower / scale;
        }
        if (smallest_open == before) break;  // the same pair is still open
      }
    }
  }

  // q_0: a fixed vector with no special relation to Lambda, normalized: 1 + 0.5 frac(t / golden
  // ratio), no trigonometry (double sin's argument reduction alone was a sixth of the compile time).
  const double golden = 0.6180339887498949 * (t + 1);
  double start = owner ? 1.0 + 0.5 * (golden - floor(golden)) : 0.0;
  const double start_norm = sqrt(block_total(start * start, scratch[1]));
  double q_entry = start / start_norm;  // q_j, entry t
  double previous = 0.0;                // q_{j-1}, entry t
  if (t < 32 * COLS) q[t] = q_entry;  // THREADS >= 32 * COLS: zero past N
  if (owner) basis[t] = q_entry;
  if (t == 0) beta2[0] = 0.0;
  __syncthreads();

  double beta = 0.0;       // beta_j
  double gershgorin = 0.0; // the largest Gershgorin bound of T's complete rows
  double lo = 0.0, hi = 0.0;
  for (int j = 0; j < STEPS; ++j) {
    double w = apply_s() - beta * previous;
    w = orthogonalize(w, j, true);
    const double a = coefficients[j];
    const double before = coefficients[j + 1];
    if (t == 0) alpha[j] = a;
    double after = block_total(w * w, scratch[j % 2]);
    if (after < 0.5 * before) {  // cancellation: orthogonalize again
      w = orthogonalize(w, j, false);
      after = block_total(w * w, scratch[2]);
    }
    // T_m, m = j + 1, is complete in shared memory after the next barrier.
    const int m = j + 1;
    const double b = sqrt(after);
    const double bound = fmax(gershgorin, a + beta);  // >= T_m's largest eigenvalue
    gershgorin = fmax(gershgorin, a + beta + b);
    const bool invariant = b <= INVARIANT * bound;
    const bool last = invariant || m == STEPS;
    bool done = false;
    if (last || m % CHECK_EVERY == 0) {  // alpha[j] is visible: block_total synchronized
      const double previous_lo = lo;
      hi = bound;
      // Three rounds: the later ones divide the bracket by THREADS + 1 each, so lo ends close below
      // the Ritz value. With one round lo lagged by up to a geometric step (6% of the movement at
      // 512 threads) and the following checks spent themselves catching up: 369 ms against 255 ms
      // for D = 3, N = 128, eta = 0.00125 on an H100.
      bracket_ritz_value(alpha, beta2, m, lo, hi, last ? 64 : 3);
      done = last || hi - previous_lo <= TOLERANCE * hi;
    }
    if (done) break;
    // q_{j+1} = w / beta_{j+1}.
    previous = q_entry;
    q_entry = w / b;
    if (owner) {
      q[t] = q_entry;
      basis[static_cast<long long>(m) * M + t] = q_entry;
    }
    if (t == 0) beta2[m] = after;
    beta = b;
    __syncthreads();
  }
  return sqrt(fmax(0.5 * (lo + hi), 0.0)) / scale;
}

extern "C" __global__ void __launch_bounds__(THREADS)
lambda_norm(${lambda_norm_parameters}) {
  // Launched to overlap pivot_check_gather (runtime/engines/gpu_engine.cpp, GpuSweep): Lambda and
  // the lines it wrote are read after the wait; the next gather or group pass may then begin (it
  // waits for this kernel before it reads the rotations).
  const unsigned token = wait_for_previous_kernel();
  let_next_kernel_begin();
  const double* const gathered = coherent_after_wait(lambda, token);
  const double* const pivot_lines = coherent_after_wait(lines, token);
  bool exact = true;
  const double value = spectral_norm(gathered, basis, pairs, eta, exact);
  if (threadIdx.x == 0) {
    *norm = value;
    if (exact && exact_norms) ++*exact_norms;
  }
  // The group's rotations of this mode from the same value, as checked_angles would take them
  // (a launch fewer a mode check).
  if (rotations)
    for (int k = threadIdx.x; k < PAIRS; k += THREADS)
      rotations[mode * PAIRS + k] = checked_rotation(pairs, pivot_lines, gathered, value, eta, k);
}
