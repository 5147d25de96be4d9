// symmetric_angles: the angles of one pivot group of a symmetric tensor (DESIGN.md section 7): one
// Givens rotation per pair, the same in every mode, so that group_pass keeps the core symmetric.
// Each warp owns one pair: its lanes sum the pivot subtensor A[{p,q}^D] by k, the number of
// indices equal to q (entry `bits` has k = popcount(bits)), in double; lane 0 takes the means
// t_k (the sum over binom(D, k) entries: for a core symmetric to rounding, any one of them with
// the rounding averaged out, as runtime/engines/cpu_symmetric_engine.hpp takes them) and the
// maximizer of C'_{p..p}^2 + C'_{q..q}^2 by dsl/symmetric_angle.hpp, in double for either dtype,
// and writes it to every mode's slot. The tensor is only read.
//
// Arguments:
//   tensor     N^D entries: the core before this group's rotations
//   pairs      the pivot group
//   rotations  out: rotations[n * PAIRS + k] = (c, s) of pair k, the same for every mode n
// Launch: grid = PAIR_BLOCKS, block = THREADS; pair k = blockIdx.x * WARPS + warp.

inline constexpr int WARPS = ${warps};
inline constexpr int THREADS = 32 * WARPS;
inline constexpr long long SUBTENSOR = 1LL << D;

extern "C" __global__ void __launch_bounds__(THREADS)
symmetric_angles(${symmetric_angles_parameters}) {
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int k = blockIdx.x * WARPS + warp;
  if (k >= PAIRS) return;
  const long long p = pairs[2 * k], q = pairs[2 * k + 1];
  double sums[D + 1];
#pragma unroll
  for (int j = 0; j <= D; ++j) sums[j] = 0.0;
  for (long long bits = lane; bits < SUBTENSOR; bits += 32) {
    long long offset = 0;
#pragma unroll
    for (int n = 0; n < D; ++n) offset += ((bits >> n) & 1 ? q : p) * STRIDE[n];
    const double x = static_cast<double>(tensor[offset]);
    const int count = __popcll(bits);
    // An unrolled select rather than sums[count]: the sums stay in registers.
#pragma unroll
    for (int j = 0; j <= D; ++j) sums[j] += j == count ? x : 0.0;
  }
#pragma unroll
  for (int j = 0; j <= D; ++j)
    for (int offset = 16; offset > 0; offset /= 2) sums[j] += __shfl_xor_sync(0xffffffffu, sums[j], offset);
  if (lane != 0) return;
  double t[D + 1];
  double binomial = 1.0;  // binom(D, j)
  for (int j = 0; j <= D; ++j) {
    t[j] = sums[j] / binomial;
    binomial = binomial * (D - j) / (j + 1);
  }
  const tensordiag::dsl::Givens<double> g = tensordiag::dsl::symmetric_angle<D>(t);
  const Rotation rotation{static_cast<Scalar>(g.c), static_cast<Scalar>(g.s)};
  for (int n = 0; n < D; ++n) rotations[n * PAIRS + k] = rotation;
}
