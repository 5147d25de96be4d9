// symmetric_angles: the angles of one pivot group of a symmetric tensor (DESIGN.md section 7): one
// Givens rotation per pair, the same in every mode, so that group_pass keeps the core symmetric.
// Each warp owns one pair. Its lanes sum the pivot subtensor A[{p,q}^D] by k, the number of indices
// equal to q (entry `bits` has k = popcount(bits)), in double, and take the means t_k (the sum over
// binom(D, k) entries: for a core symmetric to rounding, any one of them with the rounding averaged
// out, as runtime/engines/cpu_symmetric_engine.hpp takes them). Then the maximizer of
// C'_{p..p}^2 + C'_{q..q}^2 by symmetric_warp_angle.cuh (a chart's piece a lane from D = 4 on).
// Lane 0 writes it to every mode's slot. The tensor is only read.
// A complex dtype (TENSORDIAG_UNITARY_SYMMETRIC; orders 2 and 3): the means of the real and the
// imaginary parts, and lane 0's unitary step (al, be) from dsl/symmetric_unitary_angle.hpp, the
// dominant eigenvector of a 3 x 3 form, as runtime/engines/cpu_complex_symmetric_engine.cpp takes it.
// A complex dtype from order 4 (SYMMETRIC_HOST_STEP): the step has no closed form (a branch and
// bound over the sphere, runtime/algorithm/symmetric_unitary_search.hpp), so the source defines
// symmetric_pivot_sums instead, and the engine takes the steps on the host from its sums.
//
// Arguments:
//   tensor     N^D entries: the core before this group's rotations
//   pairs      the pivot group
//   rotations  out: rotations[n * PAIRS + k] = (c, s) of pair k, the same for every mode n
// Launch: grid = ceil(PAIRS / WARPS), block = THREADS; pair k = blockIdx.x * WARPS + warp. Launched
// to overlap the group pass before it as pivot_angles is (pivot_angles.cu).

#define SYMMETRIC_HOST_STEP ${host_step}

inline constexpr int WARPS = ${warps};
inline constexpr int THREADS = 32 * WARPS;
inline constexpr long long SUBTENSOR = 1LL << D;
inline constexpr unsigned FULL_WARP = 0xffffffffu;

#if !SYMMETRIC_HOST_STEP
extern "C" __global__ void __launch_bounds__(THREADS)
symmetric_angles(${symmetric_angles_parameters}) {
  static_assert(D >= 2, "a symmetric rotation needs order >= 2 (D = 2: the Jacobi eigenvalue method)");
  const unsigned token = wait_for_previous_kernel();
  let_next_kernel_begin();
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int k = blockIdx.x * WARPS + warp;
  if (k >= PAIRS) return;
  const long long p = pairs[2 * k], q = pairs[2 * k + 1];
#if defined(TENSORDIAG_UNITARY_SYMMETRIC)
  static_assert(D <= tensordiag::dsl::symmetric_unitary_max_order,
                "the unitary symmetric step has a closed form at orders 2 and 3");
  double t_re[D + 1], t_im[D + 1];
#pragma unroll
  for (int j = 0; j <= D; ++j) t_re[j] = t_im[j] = 0.0;
  for (long long bits = lane; bits < SUBTENSOR; bits += 32) {
    long long offset = 0;
#pragma unroll
    for (int n = 0; n < D; ++n) offset += ((bits >> n) & 1 ? q : p) * STRIDE[n];
    const Scalar x = read_after_wait(tensor + offset, token);
    const int at_q = __popcll(bits);
#pragma unroll
    for (int j = 0; j <= D; ++j) {
      t_re[j] += j == at_q ? static_cast<double>(x.re) : 0.0;
      t_im[j] += j == at_q ? static_cast<double>(x.im) : 0.0;
    }
  }
  double binomial = 1.0;  // binom(D, j)
#pragma unroll
  for (int j = 0; j <= D; ++j) {
    for (int offset = 16; offset > 0; offset /= 2) {
      t_re[j] += __shfl_xor_sync(FULL_WARP, t_re[j], offset);
      t_im[j] += __shfl_xor_sync(FULL_WARP, t_im[j], offset);
    }
    t_re[j] /= binomial;
    t_im[j] /= binomial;
    binomial = binomial * (D - j) / (j + 1);
  }
  if (lane != 0) return;
  double al = 1.0, be_re = 0.0, be_im = 0.0;
  tensordiag::dsl::symmetric_unitary_rotation_in<Real>(D, t_re, t_im, al, be_re, be_im);
  const Rotation rotation{Scalar(static_cast<Real>(al)), Scalar(static_cast<Real>(be_re), static_cast<Real>(be_im))};
#else
  double t[D + 1];
#pragma unroll
  for (int j = 0; j <= D; ++j) t[j] = 0.0;
  for (long long bits = lane; bits < SUBTENSOR; bits += 32) {
    long long offset = 0;
#pragma unroll
    for (int n = 0; n < D; ++n) offset += ((bits >> n) & 1 ? q : p) * STRIDE[n];
    const double x = static_cast<double>(read_after_wait(tensor + offset, token));
    const int at_q = __popcll(bits);
    // An unrolled select rather than t[at_q]: the sums stay in registers.
#pragma unroll
    for (int j = 0; j <= D; ++j) t[j] += j == at_q ? x : 0.0;
  }
  // Every lane ends with every sum (the butterfly), then the means.
  double binomial = 1.0;  // binom(D, j)
#pragma unroll
  for (int j = 0; j <= D; ++j) {
    for (int offset = 16; offset > 0; offset /= 2) t[j] += __shfl_xor_sync(FULL_WARP, t[j], offset);
    t[j] /= binomial;
    binomial = binomial * (D - j) / (j + 1);
  }

  const tensordiag::dsl::Givens<double> g = warp_symmetric_angle(t, lane);
  if (lane != 0) return;
  const Rotation rotation{static_cast<Scalar>(g.c), static_cast<Scalar>(g.s)};
#endif
  for (int n = 0; n < D; ++n) rotations[n * PAIRS + k] = rotation;
}
#else
// symmetric_pivot_sums: the sums of a pair's pivot subtensor by k = the number of indices equal to
// q, real and imaginary parts, in double, for the host's step (the means are the sums over
// binom(D, k) entries). Bit b of `bits` picks memory mode D - 1 - b (the fastest first), so a
// warp's lanes read neighbouring entries where p, q are neighbours. A pair's 2^D entries are split
// into CHUNKS runs, one a block; each block's sums are its threads' sums added in a fixed order
// (lanes by the butterfly, then warps in order), so the result does not depend on timing.
//
// Arguments:
//   tensor  N^D entries: the core before this group's rotations
//   pairs   the pivot group
//   sums    out: sums[((k * CHUNKS + c) * (D + 1) + j) * 2 + {0, 1}] = (re, im) of chunk c of pair
//           k's entries with j indices equal to q; the host adds the chunks in order
// Launch: grid = PAIRS * CHUNKS, block = THREADS; block b runs pair b / CHUNKS, chunk b % CHUNKS.
inline constexpr int CHUNKS = ${chunks};

extern "C" __global__ void __launch_bounds__(THREADS)
symmetric_pivot_sums(${symmetric_pivot_sums_parameters}) {
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const long long k = blockIdx.x / CHUNKS;
  const long long chunk = blockIdx.x % CHUNKS;
  const long long p = pairs[2 * k], q = pairs[2 * k + 1];
  // Per thread, indexed by k (local memory from D of about 16 on: a read-modify-write an entry,
  // against the D selects an unrolled loop would take).
  double t_re[D + 1], t_im[D + 1];
#pragma unroll
  for (int j = 0; j <= D; ++j) t_re[j] = t_im[j] = 0.0;
  constexpr long long PER_CHUNK = (SUBTENSOR + CHUNKS - 1) / CHUNKS;
  const long long first = chunk * PER_CHUNK;
  const long long last = first + PER_CHUNK < SUBTENSOR ? first + PER_CHUNK : SUBTENSOR;
  for (long long bits = first + threadIdx.x; bits < last; bits += THREADS) {
    long long offset = 0;
#pragma unroll
    for (int b = 0; b < D; ++b) offset += ((bits >> b) & 1 ? q : p) * STRIDE[MODE_OF_MEMORY_MODE[D - 1 - b]];
    const Scalar x = tensor[offset];
    const int at_q = __popcll(bits);
    t_re[at_q] += static_cast<double>(x.re);
    t_im[at_q] += static_cast<double>(x.im);
  }
  __shared__ double warp_sums[WARPS][D + 1][2];
#pragma unroll
  for (int j = 0; j <= D; ++j) {
    double re = t_re[j], im = t_im[j];
    for (int offset = 16; offset > 0; offset /= 2) {
      re += __shfl_xor_sync(FULL_WARP, re, offset);
      im += __shfl_xor_sync(FULL_WARP, im, offset);
    }
    if (lane == 0) {
      warp_sums[warp][j][0] = re;
      warp_sums[warp][j][1] = im;
    }
  }
  __syncthreads();
  for (int j = threadIdx.x; j <= D; j += THREADS) {
    double re = 0.0, im = 0.0;
    for (int w = 0; w < WARPS; ++w) {
      re += warp_sums[w][j][0];
      im += warp_sums[w][j][1];
    }
    double* out = sums + ((k * CHUNKS + chunk) * (D + 1) + j) * 2;
    out[0] = re;
    out[1] = im;
  }
}
#endif
