// The convergence figures of DESIGN.md section 2, in double whatever the dtype:
//   off(C)^2 = the sum of squares (|x|^2) of the entries off the diagonal, summed directly (never as
//   ||C||^2 - ||diag C||^2, which cancels), and ||diag C||^2 = sum_i C[i, .., i]^2.
// Sums run in a fixed order (no atomics), so a run repeats bit for bit.

// (off^2, diag^2) of the entries first, first + step, ... of x. `rows`: null, or x is a slab of a
// distributed run (pivot_subtensor.cuh): index r of the slowest memory mode (entries r * ENTRIES / N
// on) lives in row rows[r], and the entries of rows held elsewhere (-1) count on their rank.
__device__ inline double2 figures_of(const Scalar* x, long long first, long long step, const int* rows = nullptr) {
  constexpr long long ROW = ENTRIES / N;
  double off = 0.0;
  double diag = 0.0;
  for (long long i = first; i < ENTRIES; i += step) {
    long long at = i;
    if (rows != nullptr) {
      const int row = rows[i / ROW];
      if (row < 0) continue;
      at = row * ROW + i % ROW;
    }
    const double v2 = squared(x[at]);
    // i is on the diagonal iff i = l * DIAGONAL_STRIDE; every such i < N^D has l < N.
    if (i % DIAGONAL_STRIDE == 0) {
      diag += v2;
    } else {
      off += v2;
    }
  }
  return make_double2(off, diag);
}

// The sum of every thread's v over the block, returned to all threads: warp shuffles, then the
// first warp over the warps' sums. blockDim.x must be a multiple of 32; every thread must call it.
__device__ inline double2 block_sum(double2 v) {
  __shared__ double2 warp_sums[32];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  for (int offset = 16; offset > 0; offset /= 2) {
    v.x += __shfl_down_sync(0xffffffffu, v.x, offset);
    v.y += __shfl_down_sync(0xffffffffu, v.y, offset);
  }
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x / 32) ? warp_sums[lane] : make_double2(0.0, 0.0);
    for (int offset = 16; offset > 0; offset /= 2) {
      v.x += __shfl_down_sync(0xffffffffu, v.x, offset);
      v.y += __shfl_down_sync(0xffffffffu, v.y, offset);
    }
    if (lane == 0) warp_sums[0] = v;
  }
  __syncthreads();
  const double2 total = warp_sums[0];
  __syncthreads();  // warp_sums is free for the next call
  return total;
}

// Two values summed over the block, in every thread (block_sum; a complex value as two real sums).
__device__ inline void block_sum_both(double& b, double& e) {
  const double2 total = block_sum(make_double2(b, e));
  b = total.x;
  e = total.y;
}
__device__ inline void block_sum_both(tensordiag::dsl::Complex<double>& b, tensordiag::dsl::Complex<double>& e) {
  block_sum_both(b.re, e.re);
  block_sum_both(b.im, e.im);
}
