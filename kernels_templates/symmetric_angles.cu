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
//
// Arguments:
//   tensor     N^D entries: the core before this group's rotations
//   pairs      the pivot group
//   rotations  out: rotations[n * PAIRS + k] = (c, s) of pair k, the same for every mode n
// Launch: grid = ceil(PAIRS / WARPS), block = THREADS; pair k = blockIdx.x * WARPS + warp.

inline constexpr int WARPS = ${warps};
inline constexpr int THREADS = 32 * WARPS;
inline constexpr long long SUBTENSOR = 1LL << D;
inline constexpr unsigned FULL_WARP = 0xffffffffu;

extern "C" __global__ void __launch_bounds__(THREADS)
symmetric_angles(${symmetric_angles_parameters}) {
  static_assert(D >= 2, "a symmetric rotation needs order >= 2 (D = 2: the Jacobi eigenvalue method)");
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
    const Scalar x = tensor[offset];
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
  tensordiag::dsl::symmetric_unitary_rotation(D, t_re, t_im, al, be_re, be_im);
  const Rotation rotation{Scalar(static_cast<Real>(al)), Scalar(static_cast<Real>(be_re), static_cast<Real>(be_im))};
#else
  double t[D + 1];
#pragma unroll
  for (int j = 0; j <= D; ++j) t[j] = 0.0;
  for (long long bits = lane; bits < SUBTENSOR; bits += 32) {
    long long offset = 0;
#pragma unroll
    for (int n = 0; n < D; ++n) offset += ((bits >> n) & 1 ? q : p) * STRIDE[n];
    const double x = static_cast<double>(tensor[offset]);
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
