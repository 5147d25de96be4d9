#pragma once
// The symmetric Jacobi step's angle (DESIGN.md section 7): the maximizer of a symmetric pivot's share
// of ||diag C||^2, f(phi) = C'_{p..p}^2 + C'_{q..q}^2 with every mode rotated by G(phi)
// (runtime/algorithm/symmetric_rotation.hpp states f and finds the same maximizer with a companion
// matrix, an Eigen eigenproblem the kernels cannot run). Plain C++ that NVRTC also compiles (no
// std:: in device code, fixed-size arrays), so the host tests check the kernels' root finder.
//
// f has period pi/2 (c -> -s, s -> c swaps C'_{p..p} and C'_{q..q} up to sign), so of the
// frequencies 0, 2, .., 2D of a homogeneous polynomial of degree 2D in (c, s) only the multiples of 4
// remain: in psi = 4 phi, f is a trigonometric polynomial of degree K = floor(D / 2),
//   f = gamma_0 + 2 sum_{k=1..K} Re(gamma_k e^{i k psi}).
// gamma_k comes from f's coefficients F_j (of c^(2D-j) s^j, formed as sums of products in which the
// t_0 t_D terms cancel exactly) through fixed integers: with z = e^{i phi},
//   c^(2D-j) s^j = 4^-D (-i)^j (z + 1/z)^(2D-j) (z - 1/z)^j,
// so gamma_k = sum_j F_j (-i)^j kappa_kj, kappa_kj = 4^-D [z^(4k)] (z + 1/z)^(2D-j) (z - 1/z)^j.
// Even j feed Re gamma_k and odd j Im gamma_k: near a diagonal pivot, Im gamma_k (products such as
// t_0 t_1) keeps its relative precision, and so does the small angle it sets.
// The maximizer over psi in (-pi, pi]:
// - K = 1 (D = 3; D = 2 keeps the classical Jacobi closed form): psi = -arg gamma_1.
// - K >= 2: the stationary points, the real roots of d/dpsi sum Re(gamma_k e^{i k psi}) on two
//   charts of the circle: u = tan(psi / 2) in [-1, 1] (psi in [-pi/2, pi/2]) and the same with
//   psi - pi (gamma_k -> (-1)^k gamma_k). Times (1 + u^2)^K, with e^{i k psi} (1 + u^2)^K =
//   (1 + iu)^(K+k) (1 - iu)^(K-k), the derivative is a polynomial of degree 2K in u,
//   P(u) = sum_k k Re(i gamma_k (1 + iu)^(K+k) (1 - iu)^(K-k)).
//   Each chart's [-1, 1] is cut into 16 equal pieces, independent of each other (the kernel gives
//   each its own lane). Only the roots where P falls from + to - matter (f's local maxima: dpsi/du
//   > 0; a root of even multiplicity is no extremum). A piece's Bernstein coefficients bound its
//   roots (Descartes' rule of signs in the Bernstein basis: the roots in the open piece number the
//   coefficients' sign changes less an even count): no change, no root; one change, one simple
//   root, found by a Newton search kept inside the bracket when P falls there; more, the piece is
//   halved (depth first, in order, down to 2^-40 of a piece, whose midpoint then stands for the
//   roots left: between two roots that close, f moves by ~width^3). A left end where P is exactly 0
//   is a candidate too (the charts' ends are the other chart's first left end). No derivative
//   levels: one bracketed search per maximum, from a bracket 1/8 wide or narrower.
// Candidates are compared by their gain over the identity, f(psi) - f(0) = 2 sum_k Re(gamma_k
// (e^{i k psi} - 1)) = -4 sum_k Im(w^k) Im(gamma_k w^k) with w = e^{i psi / 2} (no cancellation
// near psi = 0, where the last sweeps' angles are ~1e-9); only a strictly positive gain replaces the
// identity. The angle returned is phi = psi / 4 in (-pi/4, pi/4] (psi = pi gives phi = pi/4).
#if !defined(__CUDACC_RTC__)
#include <cmath>

#include "dsl/givens.hpp"
#endif

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define TENSORDIAG_UNROLL _Pragma("unroll")
#else
#define TENSORDIAG_UNROLL
#endif

namespace tensordiag::dsl {

namespace symmetric_angle_detail {

// sum_{j <= degree} coef[j] x^j (Horner).
template <class R>
TENSORDIAG_HOST_DEVICE inline R polynomial_at(const R* coef, int degree, R x) {
  R y = 0;
  for (int j = degree; j >= 0; --j) y = y * x + coef[j];
  return y;
}

// binom(n, k) for n <= N by Pascal's rule (additions only: exact in 64 bits for n <= 62); for the
// constexpr tables below.
template <int N>
struct Binomials {
  long long row[N + 1][N + 1];
  constexpr Binomials() : row{} {
    for (int n = 0; n <= N; ++n) {
      row[n][0] = 1;
      for (int k = 1; k <= n; ++k) row[n][k] = row[n - 1][k - 1] + (k < n ? row[n - 1][k] : 0);
    }
  }
  constexpr long long operator()(int n, int k) const { return k < 0 || k > n ? 0 : row[n][k]; }
};

// The root of p (degree `degree`) in [lo, hi], where p(lo) and p(hi) are nonzero of opposite signs
// and p has one simple root there: Newton steps from `start` kept inside the bracket, which every
// evaluation shrinks, bisection where a step would leave it; at most 100 evaluations, ending when
// a step stands still, the bracket holds no R between its ends, or the Newton step is within
// 4 units in the last place of |x| (2^-50 in double, 2^-21 in float: rounding noise at the root,
// from where a step may creep an ulp at a time, or leave the bracket and bisect it for up to 50 more
// evaluations, for nothing).
template <class R>
TENSORDIAG_HOST_DEVICE inline R bracketed_root(const R* p, const R* dp, int degree, R lo, R hi, bool negative_at_lo,
                                               R start) {
  constexpr R still = sizeof(R) < sizeof(double) ? R(0x1p-21) : R(0x1p-50);
  R x = start;
  for (int step = 0; step < 100; ++step) {
    const R y = polynomial_at(p, degree, x);
    if (y == 0) break;
    if ((y < 0) == negative_at_lo) lo = x;
    else hi = x;
    const R slope = polynomial_at(dp, degree - 1, x);
    const R newton = slope != 0 ? y / slope : R(0);
    R next = slope != 0 ? x - newton : lo;
    if (slope != 0 && (newton < 0 ? -newton : newton) <= still * (x < 0 ? -x : x)) {
      if (next > lo && next < hi) x = next;
      break;
    }
    if (!(next > lo && next < hi)) next = R(0.5) * (lo + hi);
    if (next == x || !(next > lo && next < hi)) break;
    x = next;
  }
  return x;
}

// binom(D, k), and kappa_kj (see the top) for k = 0..K, j = 0..2D: integers (exact in 64 bits for
// D <= 31) times 4^-D. Built at compile time.
template <int D>
struct FourierBasis {
  static constexpr int K = D / 2;
  double binomials[D + 1];
  double kappa[K + 1][2 * D + 1];
  constexpr FourierBasis() : binomials{}, kappa{} {
    const Binomials<2 * D> binomial;
    for (int k = 0; k <= D; ++k) binomials[k] = static_cast<double>(binomial(D, k));
    for (int k = 0; k <= K; ++k)
      for (int j = 0; j <= 2 * D; ++j) {
        // [z^(4k)] (z + 1/z)^(2D-j) (z - 1/z)^j: l factors -1/z from the second power, D - 2k - l
        // factors 1/z from the first.
        long long sum = 0;
        const int lows = D - 2 * k;
        for (int l = 0; l <= j && l <= lows; ++l)
          sum += (l % 2 ? -1 : 1) * binomial(2 * D - j, lows - l) * binomial(j, l);
        double scale = 1.0;
        for (int i = 0; i < D; ++i) scale *= 0.25;
        kappa[k][j] = static_cast<double>(sum) * scale;
      }
  }
};

// omega_kj = [u^j] (1 + iu)^(K+k) (1 - iu)^(K-k) / i^j = sum_l binom(K+k, l) binom(K-k, j-l)
// (-1)^(j-l), k = 1..K, j = 0..2K (integers). Built at compile time.
template <int K>
struct ChartBasis {
  double omega[K + 1][2 * K + 1];
  constexpr ChartBasis() : omega{} {
    const Binomials<2 * K> binomial;
    for (int k = 1; k <= K; ++k)
      for (int j = 0; j <= 2 * K; ++j) {
        long long sum = 0;
        for (int l = 0; l <= j; ++l) sum += ((j - l) % 2 ? -1 : 1) * binomial(K + k, l) * binomial(K - k, j - l);
        omega[k][j] = static_cast<double>(sum);
      }
  }
};

// C(i, j) / C(M, j), j <= i <= M: the Bernstein coefficients on [0, 1] of sum_j q_j x^j are
// b_i = sum_{j <= i} C(i, j) / C(M, j) q_j. Built at compile time.
template <int M>
struct BernsteinWeights {
  double weight[M + 1][M + 1];
  constexpr BernsteinWeights() : weight{} {
    const Binomials<M> binomial;
    for (int i = 0; i <= M; ++i)
      for (int j = 0; j <= i; ++j)
        weight[i][j] = static_cast<double>(binomial(i, j)) / static_cast<double>(binomial(M, j));
  }
};

// A complex number as two reals, for the few products below.
template <class R>
struct Pair {
  R re, im;
};
template <class R>
TENSORDIAG_HOST_DEVICE inline Pair<R> times(Pair<R> a, Pair<R> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

}  // namespace symmetric_angle_detail

// gamma_1 .. gamma_K of one pivot (index 0 unused), from t_0 .. t_D scaled to max |t_k| = 1 (f's
// maximizer does not change with the scale, and 1 keeps F's squares in range). R: the arithmetic's
// type, double but for order 3's closed form in float (symmetric_angle_in below).
template <int D, class R = double>
struct SymmetricFourier {
  static constexpr int K = D / 2;
  R re[K + 1];
  R im[K + 1];
};

// Fills `out`; false when every t_k is 0 (f is 0 everywhere: the identity).
template <int D, class R = double>
TENSORDIAG_HOST_DEVICE inline bool symmetric_fourier(const R* t, SymmetricFourier<D, R>& out) {
  using namespace symmetric_angle_detail;
  static_assert(D >= 2 && D <= 31, "symmetric_fourier: 2 <= D <= 31 (kappa exact in 64-bit integers)");
  constexpr int M = 2 * D;
  constexpr int K = D / 2;
  R scale = 0;
  for (int k = 0; k <= D; ++k) {
    const R size = t[k] < 0 ? -t[k] : t[k];
    scale = size > scale ? size : scale;
  }
  if (scale == 0) return false;
  // C'_{p..p} = c^D P(t), C'_{q..q} = c^D Q(t) (t = tan phi): P_k = binom(D, k) t_k,
  // Q_(D-k) = (-1)^(D-k) binom(D, k) t_k; F = P^2 + Q^2. (The binomials and kappa are small
  // integers times 4^-D: exact in float too.)
  constexpr FourierBasis<D> basis{};
  R p[D + 1], q[D + 1];
  TENSORDIAG_UNROLL
  for (int k = 0; k <= D; ++k) {
    const R b = static_cast<R>(basis.binomials[k]) * (t[k] / scale);
    p[k] = b;
    q[D - k] = (D - k) % 2 ? -b : b;
  }
  R f[M + 1];
  TENSORDIAG_UNROLL
  for (int j = 0; j <= M; ++j) f[j] = 0;
  TENSORDIAG_UNROLL
  for (int i = 0; i <= D; ++i)
    TENSORDIAG_UNROLL
    for (int k = 0; k <= D; ++k) f[i + k] += p[i] * p[k] + q[i] * q[k];
  TENSORDIAG_UNROLL
  for (int k = 1; k <= K; ++k) {
    R re = 0, im = 0;
    // (-i)^j: 1, -i, -1, i for j = 0, 1, 2, 3 (mod 4).
    TENSORDIAG_UNROLL
    for (int j = 0; j <= M; ++j) {
      const R term = f[j] * static_cast<R>(basis.kappa[k][j]);
      if (j % 2 == 0) re += j % 4 == 0 ? term : -term;
      else im += j % 4 == 1 ? -term : term;
    }
    out.re[k] = re;
    out.im[k] = im;
  }
  out.re[0] = out.im[0] = 0;
  return true;
}

// One chart's derivative polynomial P(u) (chart 0: psi = 2 atan u; chart 1: psi = pi + 2 atan u)
// and its derivative P'.
template <int K, class R = double>
struct SymmetricChart {
  static constexpr int M = 2 * K;
  R p[M + 1];   // P(u) = sum_j p[j] u^j
  R dp[M];      // P'(u) = sum_j dp[j] u^j
};

template <int D, class R = double>
TENSORDIAG_HOST_DEVICE inline void symmetric_chart(const SymmetricFourier<D, R>& fourier, int chart,
                                                   SymmetricChart<D / 2, R>& out) {
  using namespace symmetric_angle_detail;
  constexpr int K = D / 2;
  constexpr int M = 2 * K;
  constexpr ChartBasis<K> basis{};
  R* P = out.p;
  TENSORDIAG_UNROLL
  for (int j = 0; j <= M; ++j) P[j] = 0;
  TENSORDIAG_UNROLL
  for (int k = 1; k <= K; ++k) {
    const R sign = chart == 1 && k % 2 ? R(-1) : R(1);
    const R re = sign * fourier.re[k] * R(k), im = sign * fourier.im[k] * R(k);
    // [u^j] (1 + iu)^(K+k) (1 - iu)^(K-k) = i^j omega_kj; Re(i gamma i^j) = Re gamma, -Im gamma,
    // -Re gamma, Im gamma for j + 1 = 0, 1, 2, 3 (mod 4).
    TENSORDIAG_UNROLL
    for (int j = 0; j <= M; ++j) {
      const int phase = (j + 1) % 4;
      const R part = phase == 0 ? re : phase == 1 ? -im : phase == 2 ? -re : im;
      P[j] += static_cast<R>(basis.omega[k][j]) * part;
    }
  }
  TENSORDIAG_UNROLL
  for (int j = 0; j < M; ++j) out.dp[j] = R(j + 1) * P[j + 1];
}

// The pieces of a chart: [-1, 1] in 16 equal parts, piece i = [-1 + i/8, -1 + (i + 1)/8].
inline constexpr int symmetric_chart_pieces = 16;
// The deepest halving of a piece (2^-40 of it, 1.1e-13 wide; in float 2^-16, 1.9e-6) before its
// midpoint stands for the roots left in it.
inline constexpr int symmetric_piece_depth = 40;
template <class R>
inline constexpr int symmetric_piece_depth_in = sizeof(R) < sizeof(double) ? 16 : symmetric_piece_depth;

// The Bernstein coefficients b_0..b_M of P (degree M) on [a, b]: P(a + (b - a) x) = sum_i b_i
// C(M, i) x^i (1 - x)^(M - i). A Taylor shift to a (b_0 = P(a) by Horner's operations), the scale
// (b - a)^j, then the basis change.
template <int M, class R = double>
TENSORDIAG_HOST_DEVICE inline void bernstein_coefficients(const R* p, R a, R b, R* out) {
  using namespace symmetric_angle_detail;
  constexpr BernsteinWeights<M> basis{};
  R q[M + 1];
  TENSORDIAG_UNROLL
  for (int j = 0; j <= M; ++j) q[j] = p[j];
  TENSORDIAG_UNROLL
  for (int i = 0; i < M; ++i)
    TENSORDIAG_UNROLL
    for (int j = M - 1; j >= i; --j) q[j] += a * q[j + 1];
  const R width = b - a;
  R power = 1;
  TENSORDIAG_UNROLL
  for (int j = 1; j <= M; ++j) {
    power *= width;
    q[j] *= power;
  }
  TENSORDIAG_UNROLL
  for (int i = 0; i <= M; ++i) {
    R sum = 0;
    TENSORDIAG_UNROLL
    for (int j = 0; j <= i; ++j) sum += static_cast<R>(basis.weight[i][j]) * q[j];
    out[i] = sum;
  }
}

// Calls consider(u) for the candidates of piece `piece` of a chart, ascending (see the top): each
// root in the open piece where P falls from + to -, the left end of an interval where P is exactly
// 0 there, and the midpoint of an interval still undecided at the deepest halving. The intervals are
// visited depth first in order without a stack: (depth, index) is [a, a + width), width = piece /
// 2^depth, a = piece start + index * width, all exact in binary.
template <int K, class R = double, typename Consider>
TENSORDIAG_HOST_DEVICE inline void symmetric_piece_candidates(const SymmetricChart<K, R>& chart, int piece,
                                                              Consider&& consider) {
  using namespace symmetric_angle_detail;
  constexpr int M = 2 * K;
  const R piece_width = R(2) / R(symmetric_chart_pieces);
  const R piece_start = R(-1) + R(piece) * piece_width;
  int depth = 0;
  long long index = 0;
  for (;;) {
    R width = piece_width;
    for (int i = 0; i < depth; ++i) width *= R(0.5);
    const R a = piece_start + static_cast<R>(index) * width, b = a + width;
    R coef[M + 1];
    bernstein_coefficients<M, R>(chart.p, a, b, coef);
    if (coef[0] == 0) consider(a);
    int changes = 0;
    R last = 0;
    TENSORDIAG_UNROLL
    for (int j = 0; j <= M; ++j)
      if (coef[j] != 0) {
        if (last != 0 && (coef[j] < 0) != (last < 0)) ++changes;
        last = coef[j];
      }
    bool halve = false;
    if (changes == 1 && coef[0] != 0 && coef[M] != 0) {
      // One simple root: a maximum of f where P falls. Start at the chord's root.
      if (coef[0] > 0)
        consider(bracketed_root<R>(chart.p, chart.dp, M, a, b, false, a + width * (coef[0] / (coef[0] - coef[M]))));
    } else if (changes > 0) {
      if (depth < symmetric_piece_depth_in<R>) halve = true;
      else consider(a + R(0.5) * width);
    }
    if (halve) {
      ++depth;
      index *= 2;
      continue;
    }
    // The next interval in order: up while this one is a right half, then the right sibling.
    while (depth > 0 && index % 2 == 1) {
      --depth;
      index /= 2;
    }
    if (depth == 0) return;
    ++index;
  }
}

// f(psi) - f(0), up to the positive factor 2, at u of `chart`.
template <int D, class R = double>
TENSORDIAG_HOST_DEVICE inline R symmetric_gain(const SymmetricFourier<D, R>& fourier, int chart, R u) {
  using namespace symmetric_angle_detail;
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  const R norm = R(1) / sqrt(R(1) + u * u);
  const Pair<R> w{norm, u * norm};  // e^{i psi / 2} on chart 0
  Pair<R> power{1, 0};
  R gain = 0;
  TENSORDIAG_UNROLL
  for (int k = 1; k <= D / 2; ++k) {
    power = times(power, w);
    if (chart == 0) {
      // Re(gamma (w^2k - 1)) = -2 Im(w^k) Im(gamma w^k).
      gain -= R(2) * power.im * (fourier.re[k] * power.im + fourier.im[k] * power.re);
    } else {
      // e^{i k psi} = (-1)^k w^2k: Re(gamma ((-1)^k w^2k - 1)).
      const Pair<R> square = times(power, power);
      const R sign = k % 2 ? R(-1) : R(1);
      gain += sign * (fourier.re[k] * square.re - fourier.im[k] * square.im) - fourier.re[k];
    }
  }
  return gain;
}

// t = tan phi, phi = psi / 4 in (-pi/4, pi/4], for u on `chart`.
template <class R = double>
TENSORDIAG_HOST_DEVICE inline R symmetric_tangent(int chart, R u) {
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  const R half = u / (R(1) + sqrt(R(1) + u * u));  // tan(atan(u) / 2)
  if (chart == 0) return half;
  // phi = pi/4 + beta, tan beta = half: tan(pi/4 + beta), or its twin tan(beta - pi/4) when beta > 0.
  return half <= 0 ? (R(1) + half) / (R(1) - half) : (half - R(1)) / (R(1) + half);
}

// (c, s) of t = tan phi.
template <class R = double>
TENSORDIAG_HOST_DEVICE inline Givens<R> symmetric_angle_rotation(R t) {
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  const R c = R(1) / sqrt(R(1) + t * t);
  return {c, t * c};
}

// K = 1 (D = 3): psi = -arg gamma_1, t = tan(psi / 4); 0 (the identity) where gamma_1 >= 0 is
// real (no gain: the gain is |gamma_1| - Re gamma_1).
template <class R = double>
TENSORDIAG_HOST_DEVICE inline R symmetric_tangent_closed_form(R re, R im) {
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  const R x = re, y = -im;
  if (y == 0) return x >= 0 ? R(0) : R(1);  // psi = 0, or pi (phi = pi/4)
  const R r = sqrt(x * x + y * y);
  // tan(psi / 2), then tan(psi / 4) = h / (1 + sqrt(1 + h^2)), written for |h| > 1 without overflow.
  if (x >= 0) {
    const R h = y / (r + x);
    return h / (R(1) + sqrt(R(1) + h * h));
  }
  const R inverse = y / (r - x);  // 1 / h, |1 / h| < 1
  const R magnitude = R(1) / ((inverse < 0 ? -inverse : inverse) + sqrt(inverse * inverse + R(1)));
  return inverse < 0 ? -magnitude : magnitude;
}

// The best candidate so far: the largest gain (strictly positive: 0 is the identity's), the first
// of equal ones, and its t = tan phi.
template <class R = double>
struct SymmetricBest {
  R gain = 0;
  R t = 0;
};

// Piece `piece` of `chart`'s candidates offered to `best`, in order.
template <int D, class R = double>
TENSORDIAG_HOST_DEVICE inline void symmetric_piece_best(const SymmetricFourier<D, R>& fourier,
                                                        const SymmetricChart<D / 2, R>& polynomial, int chart,
                                                        int piece, SymmetricBest<R>& best) {
  symmetric_piece_candidates<D / 2, R>(polynomial, piece, [&](R u) {
    if (const R gain = symmetric_gain<D, R>(fourier, chart, u); gain > best.gain) {
      best.gain = gain;
      best.t = symmetric_tangent<R>(chart, u);
    }
  });
}

// K >= 2: t = tan phi of the best candidate, chart 0's pieces in order, then chart 1's, the first
// candidate of the largest positive gain (0: the identity), in R.
template <int D, class R = double>
TENSORDIAG_HOST_DEVICE inline R symmetric_searched_tangent(const SymmetricFourier<D, R>& fourier) {
  SymmetricBest<R> best;
  for (int chart = 0; chart < 2; ++chart) {
    SymmetricChart<D / 2, R> polynomial;
    symmetric_chart<D, R>(fourier, chart, polynomial);
    for (int piece = 0; piece < symmetric_chart_pieces; ++piece)
      symmetric_piece_best<D, R>(fourier, polynomial, chart, piece, best);
  }
  return best.t;
}

// The maximizer of f from t_0 .. t_D (t[k]: the mean of the pivot entries with k indices q), as
// (c, s) with phi in (-pi/4, pi/4]; the identity when no angle gains. The serial form of what
// kernels_templates/symmetric_warp_angle.cuh runs a piece a lane: chart 0's pieces in order, then
// chart 1's, the first candidate of the largest positive gain.
template <int D>
TENSORDIAG_HOST_DEVICE inline Givens<double> symmetric_angle(const double* t) {
  static_assert(D >= 2, "a symmetric rotation needs order >= 2");
  if constexpr (D == 2) {
    // As runtime::best_symmetric_rotation: tan 2phi = 2 t_1 / (t_0 - t_2), |phi| <= pi/4.
    const double sign = t[0] - t[2] < 0 ? -1.0 : 1.0;
    const double diff = t[0] - t[2];
    return givens_from_double_angle(diff < 0 ? -diff : diff, sign * 2 * t[1]);
  } else {
    SymmetricFourier<D> fourier;
    if (!symmetric_fourier<D>(t, fourier)) return {1.0, 0.0};
    if constexpr (D / 2 == 1)
      return symmetric_angle_rotation(symmetric_tangent_closed_form(fourier.re[1], fourier.im[1]));
    else
      return symmetric_angle_rotation(symmetric_searched_tangent<D>(fourier));
  }
}

// The orders from 4 whose search a float32 tensor runs in float (symmetric_angle_in): where it
// measured faster than in double on an H200 (structure symmetric, planted float32, 10 sweeps;
// bench/results/symmetric_float_search_h200_2026-11-28.md): D = 5, N = 16 1.215 -> 1.130 ms and
// D = 6, N = 8 0.640 -> 0.583; at D = 4 (N = 32: 2.141 -> 2.178, N = 64 10.99 -> 11.45) and D = 8
// (N = 6: 0.909 -> 0.951) it was slower, and at D = 7 too (N = 8: 0.880 -> 0.981, 2026-11-29). The
// host tests hold the float search to the double one's objective at orders 4 to 8
// (tests/test_symmetric_angle.cpp).
template <int D>
inline constexpr bool symmetric_search_in_float = D == 5 || D == 6;

// The engines' rotation for a tensor whose real type is R (float for float32, double for float64):
// order 3's closed form and the searches of symmetric_search_in_float's orders in R, from the means
// t_k rounded to R, as the general engine's rules run in the tensor's type (the closed form's three
// square roots and three divisions in a row, and the search's Newton steps, were each symmetric
// group step's latency in the kernels); order 2's closed form, the other orders, and double, as
// symmetric_angle<D>. Widened to double.
template <int D, class R>
TENSORDIAG_HOST_DEVICE inline Givens<double> symmetric_angle_in(const double* t) {
  if constexpr ((D == 3 || symmetric_search_in_float<D>) && sizeof(R) < sizeof(double)) {
    R narrow[D + 1];
    TENSORDIAG_UNROLL
    for (int k = 0; k <= D; ++k) narrow[k] = static_cast<R>(t[k]);
    SymmetricFourier<D, R> fourier;
    if (!symmetric_fourier<D, R>(narrow, fourier)) return {1.0, 0.0};
    R tangent;
    if constexpr (D / 2 == 1) tangent = symmetric_tangent_closed_form<R>(fourier.re[1], fourier.im[1]);
    else tangent = symmetric_searched_tangent<D, R>(fourier);
    const Givens<R> g = symmetric_angle_rotation<R>(tangent);
    return {static_cast<double>(g.c), static_cast<double>(g.s)};
  } else {
    return symmetric_angle<D>(t);
  }
}

}  // namespace tensordiag::dsl
