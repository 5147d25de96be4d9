// symmetric_angles: the angles of one pivot group of a symmetric tensor (DESIGN.md section 7): one
// Givens rotation per pair, the same in every mode, so that group_pass keeps the core symmetric.
// Each warp owns one pair. Its lanes sum the pivot subtensor A[{p,q}^D] by k, the number of indices
// equal to q (entry `bits` has k = popcount(bits)), in double, and take the means t_k (the sum over
// binom(D, k) entries: for a core symmetric to rounding, any one of them with the rounding averaged
// out, as runtime/engines/cpu_symmetric_engine.hpp takes them). Then the maximizer of
// C'_{p..p}^2 + C'_{q..q}^2 by dsl/symmetric_angle.hpp, in double for either dtype, its root
// isolation a slot a lane: each level's roots are compacted in slot order (a ballot) into the
// warp's shared buffer, which the next level reads as its critical points; the best candidate is
// a warp reduction that keeps symmetric_angle()'s choice (the largest gain, the first of equal
// ones). Lane 0 writes it to every mode's slot. The tensor is only read. The pair's polynomials are
// the same for every lane: from D = 4 on lane 0 forms them in the warp's shared memory, whence the
// lanes read them by broadcast (SHARED_POLYNOMIALS below).
//
// Arguments:
//   tensor     N^D entries: the core before this group's rotations
//   pairs      the pivot group
//   rotations  out: rotations[n * PAIRS + k] = (c, s) of pair k, the same for every mode n
// Launch: grid = ceil(PAIRS / WARPS), block = THREADS; pair k = blockIdx.x * WARPS + warp.

inline constexpr int WARPS = ${warps};
inline constexpr int THREADS = 32 * WARPS;
inline constexpr long long SUBTENSOR = 1LL << D;
// Roots of one level at most (dsl/symmetric_angle.hpp: one a slot, count + 2 slots).
inline constexpr int LEVEL_ROOTS = 2 * D + 2;
inline constexpr unsigned FULL_WARP = 0xffffffffu;
// D = 3: each lane's copy of the polynomials fits its registers (measured on an H100, 10 sweeps of
// D = 3, N = 128: 73.9 ms so, 108.4 ms read from shared memory); from D = 4 on the copy spilled to
// local memory (D = 6: 1480 bytes a lane) and the warp's shared copy is faster (D = 4, N = 32: 26.0
// ms against 29.2; D = 6, N = 8: 10.5 against 12.8).
inline constexpr bool SHARED_POLYNOMIALS = D > 3;

// The best t = tan(phi) of a pair from its polynomials: the root isolation a slot a lane, in the
// warp's two level buffers `roots`, then the candidate of largest gain (0, the identity, unless
// one gains). The same value in every lane. Inlined where it is called, so that a local copy of
// the polynomials stays in registers.
__device__ __forceinline__ double best_tangent(const tensordiag::dsl::SymmetricAnglePolynomials<D>& polynomials,
                                               double (*roots)[LEVEL_ROOTS], int lane) {
  using namespace tensordiag::dsl;
  double best_t = 0.0;
  int count = 0;
  for (int level = 2 * D - 1; level >= 0; --level) {
    const double* critical = roots[level % 2 == 0];
    double* found = roots[level % 2];
    int found_count = 0;
    for (int first = 0; first <= count + 1; first += 32) {
      const int slot = first + lane;
      double root = 0.0;
      const bool has = slot <= count + 1 && symmetric_angle_slot_root<D>(polynomials, level, critical, count, slot, &root);
      const unsigned mask = __ballot_sync(FULL_WARP, has);
      if (has) found[found_count + __popc(mask & ((1u << lane) - 1u))] = root;
      found_count += __popc(mask);
    }
    __syncwarp();
    count = found_count;
  }
  // Candidate i: g's root i (i < count) or t = 1 (i = count).
  double gain = 0.0;
  int index = 2 * LEVEL_ROOTS;  // none
  for (int i = lane; i <= count; i += 32) {
    const double x = i < count ? symmetric_angle_candidate(roots[0][i]) : 1.0;
    if (const double g = symmetric_angle_gain<D>(polynomials, x); g > gain) {
      gain = g;
      index = i;
      best_t = x;
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
  __shared__ double level_roots[WARPS][2][LEVEL_ROOTS];
  __shared__ tensordiag::dsl::SymmetricAnglePolynomials<D> pair_polynomials[SHARED_POLYNOMIALS ? WARPS : 1];
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
  if constexpr (SHARED_POLYNOMIALS) {
    SymmetricAnglePolynomials<D>& polynomials = pair_polynomials[warp];
    bool formed = false;
    if (lane == 0) formed = symmetric_angle_polynomials<D>(t, polynomials);
    formed = __shfl_sync(FULL_WARP, formed, 0);
    __syncwarp();  // the polynomials are seen by every lane
    if (formed) best_t = best_tangent(polynomials, level_roots[warp], lane);
  } else {
    SymmetricAnglePolynomials<D> polynomials;  // every lane's own copy, in registers
    if (symmetric_angle_polynomials<D>(t, polynomials)) best_t = best_tangent(polynomials, level_roots[warp], lane);
  }
  if (lane != 0) return;
  const Givens<double> g = symmetric_angle_rotation(best_t);
  const Rotation rotation{static_cast<Scalar>(g.c), static_cast<Scalar>(g.s)};
  for (int n = 0; n < D; ++n) rotations[n * PAIRS + k] = rotation;
}
