// lambda_norm: ||Lambda||_2 of the pivot check (DESIGN.md section 2) on the device, in one block,
// so the checked sweep needs no library call and no host round trip.
//
// Lambda is skew-symmetric, so S = Lambda^T Lambda = -Lambda^2 is symmetric positive semi-definite
// and ||Lambda||_2^2 is its largest eigenvalue. The Lanczos process on S, started from a fixed
// vector and with full reorthogonalization (classical Gram-Schmidt, twice), builds the tridiagonal
// T_j (alpha on the diagonal, beta beside it) whose largest eigenvalue converges to S's from below;
// it is found by bisection on Sturm counts. The process stops when that Ritz value changes by less
// than 1e-12 relative between checks (CHECK_EVERY steps apart), when beta vanishes (the Krylov space is invariant: the Ritz
// value is exact), or after STEPS steps (codegen::lambda_norm_steps). Everything runs in double.
//
// Arguments:
//   lambda     N x N, row-major (pivot_check_gather)
//   basis      workspace: STEPS + 1 vectors of N doubles (the Lanczos vectors)
//   norm       out: ||Lambda||_2
// Launch: grid = 1, block = THREADS.

inline constexpr int THREADS = ${threads};
inline constexpr int WARPS = THREADS / 32;
inline constexpr int STEPS = ${steps};
inline constexpr int CHECK_EVERY = 4;

// sum over the block of every thread's v, returned to all threads.
__device__ inline double block_total(double v, double* scratch) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  double total = 0.0;
  for (int w = 0; w < WARPS; ++w) total += scratch[w];
  __syncthreads();  // scratch is free for the next call
  return total;
}

// out = sign * m x for the row-major N x N m: warp w takes rows w, w + WARPS, ...
__device__ inline void matrix_vector(const double* m, const double* x, double* out, double sign) {
  for (int row = threadIdx.x / 32; row < N; row += WARPS) {
    double sum = 0.0;
    for (int k = threadIdx.x % 32; k < N; k += 32) sum += m[row * N + k] * x[k];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) out[row] = sign * sum;
  }
}

// The largest eigenvalue of the symmetric tridiagonal matrix with diagonal alpha[0..m-1] and
// off-diagonal beta[1..m-1]: bisection on the number of eigenvalues below x (the negative pivots
// of the LDL^T factorization of T - x I, Sturm's theorem), inside the Gershgorin bounds.
__device__ inline double largest_ritz_value(const double* alpha, const double* beta, int m) {
  double lo = alpha[0], hi = alpha[0];
  for (int i = 0; i < m; ++i) {
    const double radius = (i > 0 ? fabs(beta[i]) : 0.0) + (i + 1 < m ? fabs(beta[i + 1]) : 0.0);
    lo = fmin(lo, alpha[i] - radius);
    hi = fmax(hi, alpha[i] + radius);
  }
  for (int iteration = 0; iteration < 200 && hi - lo > 1e-15 * fmax(fabs(lo), fabs(hi)); ++iteration) {
    const double x = 0.5 * (lo + hi);
    int below = 0;
    double d = 1.0;
    for (int i = 0; i < m; ++i) {
      d = alpha[i] - x - (i > 0 ? beta[i] * beta[i] / d : 0.0);
      if (d == 0.0) d = 1e-300;  // a zero pivot counts as positive, as in LAPACK's dstebz
      below += d < 0.0;
    }
    if (below == m) hi = x;  // every eigenvalue is below x
    else lo = x;
  }
  return hi;
}

extern "C" __global__ void __launch_bounds__(THREADS)
lambda_norm(const double* __restrict__ lambda, double* __restrict__ basis, double* __restrict__ norm) {
  __shared__ double u[N];               // Lambda q
  __shared__ double w[N];               // the next Lanczos vector, before normalization
  __shared__ double alpha[STEPS + 1];
  __shared__ double beta[STEPS + 1];
  __shared__ double coefficients[STEPS + 1];
  __shared__ double scratch[32];
  __shared__ int done;

  // q_0: a fixed vector with no special relation to Lambda, normalized.
  double part = 0.0;
  for (int i = threadIdx.x; i < N; i += THREADS) {
    const double x = 1.0 + 0.5 * sin(1.0 + 2.0 * i);
    basis[i] = x;
    part += x * x;
  }
  const double start_norm = sqrt(block_total(part, scratch));
  for (int i = threadIdx.x; i < N; i += THREADS) basis[i] /= start_norm;
  if (threadIdx.x == 0) {
    beta[0] = 0.0;
    done = 0;
  }
  __syncthreads();

  double ritz = 0.0;
  int steps = 0;
  for (int j = 0; j < STEPS && !done; ++j) {
    const double* q = basis + static_cast<long long>(j) * N;
    // w = S q = -Lambda (Lambda q): a warp per row, its lanes along the row (coalesced).
    matrix_vector(lambda, q, u, 1.0);
    __syncthreads();
    matrix_vector(lambda, u, w, -1.0);
    __syncthreads();
    part = 0.0;
    for (int i = threadIdx.x; i < N; i += THREADS) part += w[i] * q[i];
    const double a = block_total(part, scratch);
    if (threadIdx.x == 0) alpha[j] = a;
    // Orthogonalize w against q_0..q_j, twice (the first pass also removes alpha_j q_j and beta_j q_{j-1}).
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = threadIdx.x / 32; i <= j; i += WARPS) {
        const double* qi = basis + static_cast<long long>(i) * N;
        double dot = 0.0;
        for (int r = threadIdx.x % 32; r < N; r += 32) dot += w[r] * qi[r];
        for (int offset = 16; offset > 0; offset /= 2) dot += __shfl_down_sync(0xffffffffu, dot, offset);
        if (threadIdx.x % 32 == 0) coefficients[i] = dot;
      }
      __syncthreads();
      for (int r = threadIdx.x; r < N; r += THREADS) {
        double x = w[r];
        for (int i = 0; i <= j; ++i) x -= coefficients[i] * basis[static_cast<long long>(i) * N + r];
        w[r] = x;
      }
      __syncthreads();
    }
    part = 0.0;
    for (int i = threadIdx.x; i < N; i += THREADS) part += w[i] * w[i];
    const double b = sqrt(block_total(part, scratch));
    steps = j + 1;
    if (threadIdx.x == 0) {
      beta[j + 1] = b;
      // beta ~ 0: the Krylov space is invariant and T_j's eigenvalues are S's.
      const bool invariant = b <= 1e-14 * fmax(fabs(a), 1e-300) || b == 0.0;
      if (invariant || steps == STEPS || steps % CHECK_EVERY == 0) {
        const double next = largest_ritz_value(alpha, beta, steps);
        if (invariant || steps == STEPS || fabs(next - ritz) <= 1e-12 * next) done = 1;
        ritz = next;
      }
    }
    __syncthreads();
    if (!done)
      for (int i = threadIdx.x; i < N; i += THREADS) basis[static_cast<long long>(j + 1) * N + i] = w[i] / b;
    __syncthreads();
  }
  if (threadIdx.x == 0) *norm = sqrt(fmax(ritz, 0.0));
}
