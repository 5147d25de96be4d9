// symmetric_angles: the angles of one pivot group of a symmetric tensor (DESIGN.md section 7): one
// Givens rotation per pair, the same in every mode, so that group_pass keeps the core symmetric.
// Each warp owns one pair. Its lanes sum the pivot subtensor A[{p,q}^D] by k, the number of indices
// equal to q (entry `bits` has k = popcount(bits)), in double, and take the means t_k (the sum over
// binom(D, k) entries: for a core symmetric to rounding, any one of them with the rounding averaged
// out, as runtime/engines/cpu_symmetric_engine.hpp takes them). Then the maximizer of
// C'_{p..p}^2 + C'_{q..q}^2 by dsl/symmetric_angle.hpp, in double for either dtype: f's Fourier
// coefficients in psi = 4 phi (every lane forms them), then for D = 3 the closed form, and from
// D = 4 on the root isolation of the two charts at once, chart 0 in lanes 0-15 and chart 1 in lanes
// 16-31, a slot a lane: each level's roots are compacted in slot order (a ballot, per half) into the
// warp's shared buffer, which the next level reads as its critical points; the best candidate is a
// warp reduction that keeps symmetric_angle()'s choice (the largest gain, the first of equal ones,
// chart 0's roots before chart 1's). Lane 0 writes it to every mode's slot. The tensor is only read.
// A chart's polynomials are the same for its 16 lanes: up to D = 7 (K <= 3: at most 49 doubles)
// each lane keeps its own copy in registers, from D = 8 on the half's first lane forms them in the
// warp's shared memory, whence its lanes read them by broadcast (SHARED_POLYNOMIALS below).
//
// Arguments:
//   tensor     N^D entries: the core before this group's rotations
//   pairs      the pivot group
//   rotations  out: rotations[n * PAIRS + k] = (c, s) of pair k, the same for every mode n
// Launch: grid = ceil(PAIRS / WARPS), block = THREADS; pair k = blockIdx.x * WARPS + warp.

inline constexpr int WARPS = ${warps};
inline constexpr int THREADS = 32 * WARPS;
inline constexpr long long SUBTENSOR = 1LL << D;
inline constexpr int K = D / 2;  // f's degree in psi = 4 phi
// Roots of one level of one chart at most (dsl/symmetric_angle.hpp: one a slot, count + 2 slots).
inline constexpr int LEVEL_ROOTS = 2 * K + 2;
inline constexpr unsigned FULL_WARP = 0xffffffffu;
// The old root isolation (degree 2D in tan phi) kept D = 3's 56 doubles in registers (94, no stack)
// and spilled from D = 4 (D = 6: a 1480-byte stack frame), where the shared copy was 11-18% faster
// on an H100; a chart of degree 2K holds (2K + 1)^2 doubles: 49 at K = 3, 81 at K = 4.
inline constexpr bool SHARED_POLYNOMIALS = K >= 4;

// The best t = tan(phi) of a pair from its Fourier coefficients (K >= 2): each half-warp isolates
// its chart's roots a slot a lane, in the warp's level buffers `roots[chart][2]`, then the candidate
// of largest gain (0, the identity, unless one gains). The same value in every lane.
__device__ __forceinline__ double best_tangent(const tensordiag::dsl::SymmetricFourier<D>& fourier,
                                               const tensordiag::dsl::SymmetricChart<K>& chart_polynomials,
                                               double (*roots)[2][LEVEL_ROOTS], int lane) {
  using namespace tensordiag::dsl;
  const int chart = lane / 16;
  const int sub = lane % 16;
  double (*chart_roots)[LEVEL_ROOTS] = roots[chart];
  int count = 0;
  for (int level = 2 * K - 1; level >= 0; --level) {
    const double* critical = chart_roots[level % 2 == 0];
    double* found = chart_roots[level % 2];
    int found_count = 0;
    // Both halves run the same number of rounds (the ballot needs the whole warp).
    const int most = max(count, __shfl_xor_sync(FULL_WARP, count, 16));
    for (int first = 0; first <= most + 1; first += 16) {
      const int slot = first + sub;
      double root = 0.0;
      const bool has = slot <= count + 1 &&
                       symmetric_chart_slot_root<K>(chart_polynomials, level, critical, count, slot, &root);
      const unsigned half = (__ballot_sync(FULL_WARP, has) >> (16 * chart)) & 0xffffu;
      if (has) found[found_count + __popc(half & ((1u << sub) - 1u))] = root;
      found_count += __popc(half);
    }
    __syncwarp();
    count = found_count;
  }
  // Candidate i of this chart: its root i; the order of symmetric_angle(): chart 0's before chart 1's.
  double gain = 0.0, best_t = 0.0;
  int index = 2 * LEVEL_ROOTS;  // none
  for (int i = sub; i < count; i += 16) {
    const double u = chart_roots[0][i];
    if (const double g = symmetric_gain<D>(fourier, chart, u); g > gain) {
      gain = g;
      index = chart * LEVEL_ROOTS + i;
      best_t = symmetric_tangent(chart, u);
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    const double other_gain = __shfl_xor_sync(FULL_WARP, gain, offset);
    const int other_index = __shfl_xor_sync(FULL_WARP, index, offset);
    const double other_t = __shfl_xor_sync(FULL_WARP, best_t, offset);
    if (other_gain > gain || (other_gain == gain && other_index < index)) {
      gain = other_gain;
      index = other_index;
      best_t = other_t;
    }
  }
  return best_t;
}

extern "C" __global__ void __launch_bounds__(THREADS)
symmetric_angles(${symmetric_angles_parameters}) {
  static_assert(D >= 2, "a symmetric rotation needs order >= 2 (D = 2: the Jacobi eigenvalue method)");
  __shared__ double level_roots[WARPS][2][2][LEVEL_ROOTS];  // [warp][chart][level parity]
  __shared__ tensordiag::dsl::SymmetricChart<K> chart_polynomials[SHARED_POLYNOMIALS ? WARPS : 1][2];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int k = blockIdx.x * WARPS + warp;
  if (k >= PAIRS) return;
  const long long p = pairs[2 * k], q = pairs[2 * k + 1];
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

  using namespace tensordiag::dsl;
  double best_t = 0.0;  // the identity
  if constexpr (D > 2) {
    SymmetricFourier<D> fourier;
    if (symmetric_fourier<D>(t, fourier)) {
      if constexpr (K == 1) {
        best_t = symmetric_tangent_closed_form(fourier.re[1], fourier.im[1]);
      } else if constexpr (SHARED_POLYNOMIALS) {
        SymmetricChart<K>& polynomials = chart_polynomials[warp][lane / 16];
        if (lane % 16 == 0) symmetric_chart<D>(fourier, lane / 16, polynomials);
        __syncwarp();  // the polynomials are seen by every lane
        best_t = best_tangent(fourier, polynomials, level_roots[warp], lane);
      } else {
        SymmetricChart<K> polynomials;  // every lane's own copy of its chart's, in registers
        symmetric_chart<D>(fourier, lane / 16, polynomials);
        best_t = best_tangent(fourier, polynomials, level_roots[warp], lane);
      }
    }
  }
  if (lane != 0) return;
  // D = 2: the classical Jacobi closed form (the host's, bit for bit).
  Givens<double> g;
  if constexpr (D == 2) g = symmetric_angle<2>(t);
  else g = symmetric_angle_rotation(best_t);
  const Rotation rotation{static_cast<Scalar>(g.c), static_cast<Scalar>(g.s)};
  for (int n = 0; n < D; ++n) rotations[n * PAIRS + k] = rotation;
}
