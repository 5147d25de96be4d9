// off_norm: the convergence figures (off(C)^2, ||diag C||^2) of the tensor, in double, as two
// deterministic launches (a fixed reduction tree for the fixed grid, no atomics):
//   off_norm_partial(tensor, partials, rows): grid = PARTIAL_BLOCKS exactly, block = THREADS;
//       partials[2b], partials[2b + 1] = block b's (off^2, diag^2)  (2 * PARTIAL_BLOCKS doubles);
//       rows null, or a slab's row table (figures.cuh): the figures of its rows
//   off_norm_final(partials, count, figures):  grid = 1, block = THREADS; sums `count` pairs of
//       partials (off_norm_partial's or residual_partial's PARTIAL_BLOCKS, or group_pass's
//       PASS_BLOCKS): figures[0] = off(C)^2, figures[1] = ||diag C||^2 (residual: see below)
// and, for the verification of a GPU run (issue 12), the same two stages over the residual of a
// reconstruction R of the tensor T:
//   residual_partial(tensor, reconstruction, partials): grid = PARTIAL_BLOCKS exactly, block =
//       THREADS; partials[2b], partials[2b + 1] = block b's (sum (T - R)^2, sum T^2), in double;
//       off_norm_final then gives ||T - R||_F^2 and ||T||_F^2.

inline constexpr int THREADS = ${threads};

// |x - y|^2, the difference taken in double.
__device__ __forceinline__ double squared_difference(double x, double y) { return squared(x - y); }
template <class R>
__device__ __forceinline__ double squared_difference(tensordiag::dsl::Complex<R> x, tensordiag::dsl::Complex<R> y) {
  return squared(tensordiag::dsl::Complex<double>(x.re, x.im) - tensordiag::dsl::Complex<double>(y.re, y.im));
}
inline constexpr int PARTIAL_BLOCKS = ${partial_blocks};

extern "C" __global__ void __launch_bounds__(THREADS)
off_norm_partial(${off_norm_partial_parameters}) {
  const long long first = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x;
  const double2 sum = block_sum(figures_of(tensor, first, static_cast<long long>(PARTIAL_BLOCKS) * THREADS, rows));
  if (threadIdx.x == 0) {
    partials[2 * blockIdx.x] = sum.x;
    partials[2 * blockIdx.x + 1] = sum.y;
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
off_norm_final(${off_norm_final_parameters}) {
  double2 v = make_double2(0.0, 0.0);
  for (int b = threadIdx.x; b < count; b += THREADS) {
    v.x += partials[2 * b];
    v.y += partials[2 * b + 1];
  }
  const double2 sum = block_sum(v);
  if (threadIdx.x == 0) {
    figures[0] = sum.x;
    figures[1] = sum.y;
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
residual_partial(${residual_partial_parameters}) {
  double2 v = make_double2(0.0, 0.0);
  for (long long i = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x; i < ENTRIES;
       i += static_cast<long long>(PARTIAL_BLOCKS) * THREADS) {
    v.x += squared_difference(tensor[i], reconstruction[i]);
    v.y += squared(tensor[i]);
  }
  const double2 sum = block_sum(v);
  if (threadIdx.x == 0) {
    partials[2 * blockIdx.x] = sum.x;
    partials[2 * blockIdx.x + 1] = sum.y;
  }
}
