#pragma once
// The symmetric Jacobi step's angle by real-root isolation (DESIGN.md section 7): the maximizer of a
// symmetric pivot's share of ||diag C||^2, f(phi) = C'_{p..p}^2 + C'_{q..q}^2 with every mode rotated
// by G(phi) (runtime/algorithm/symmetric_rotation.hpp states f and finds the same maximizer with a
// companion matrix, an Eigen eigenproblem the kernels cannot run). Plain C++ that NVRTC also compiles
// (no std:: in device code, fixed-size arrays), so the host tests check the kernels' root finder.
//
// With t = tan phi and f(c, s) = c^(2D) F(t), F(t) = P(t)^2 + Q(t)^2 of degree 2D:
//   P(t) = sum_k binom(D, k) t_k t^k,   Q(t) = sum_k binom(D, k) t_k (-t)^(D-k).
// df/dphi = 0 where d/dt [F(t) / (1 + t^2)^D] = 0, i.e. where
//   g(t) = F'(t) (1 + t^2) - 2D t F(t) = sum_j ((j+1) F_{j+1} + (j-1-2D) F_{j-1}) t^j = 0,
// degree <= 2D (the t^(2D+1) terms cancel). f has period pi/2, so every maximizer has a twin with
// t in (-1, 1]: the real roots of g in [-1, 1] are isolated by the recursive-derivative method (the
// roots of g^(j) lie between consecutive roots of g^(j+1): one bracketed, safeguarded Newton search
// per monotone interval, from g^(2D-1) down to g), and f is compared at each root, at t = 1 and at
// t = 0 (the identity) by its gain over the identity,
//   f(phi) - f(0) = H(t) / (1 + t^2)^D,   H(t) = F(t) - F(0) (1 + t^2)^D,   H(0) = 0 exactly,
// which keeps full relative precision near phi = 0 (the last sweeps' angles are ~1e-9). The step
// never loses to the identity: only a strictly positive gain replaces it. A root at t = -1 is taken
// as t = 1 (phi = pi/4, its twin). D = 2 keeps the classical Jacobi closed form.
#if !defined(__CUDACC_RTC__)
#include <cmath>

#include "dsl/givens.hpp"
#endif

namespace tensordiag::dsl {

namespace symmetric_angle_detail {

// sum_{j <= degree} coef[j] x^j (Horner).
TENSORDIAG_HOST_DEVICE inline double polynomial_at(const double* coef, int degree, double x) {
  double y = 0.0;
  for (int j = degree; j >= 0; --j) y = y * x + coef[j];
  return y;
}

TENSORDIAG_HOST_DEVICE inline double binomial(int n, int k) {
  double b = 1.0;
  for (int i = 1; i <= k; ++i) b = b * (n - k + i) / i;
  return b;
}

// The root of p (degree `degree`) in [lo, hi], where p(lo) and p(hi) are nonzero of opposite signs
// and p is monotone (no root of dp inside): Newton steps kept inside the bracket, which every
// evaluation shrinks, bisection where a step would leave it; at most 100 evaluations, ending when
// a step stands still or the bracket holds no double between its ends.
TENSORDIAG_HOST_DEVICE inline double bracketed_root(const double* p, const double* dp, int degree, double lo,
                                                    double hi, bool negative_at_lo) {
  double x = 0.5 * (lo + hi);
  for (int step = 0; step < 100; ++step) {
    const double y = polynomial_at(p, degree, x);
    if (y == 0.0) break;
    if ((y < 0.0) == negative_at_lo) lo = x;
    else hi = x;
    const double slope = polynomial_at(dp, degree - 1, x);
    double next = slope != 0.0 ? x - y / slope : lo;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (next == x || !(next > lo && next < hi)) break;
    x = next;
  }
  return x;
}

}  // namespace symmetric_angle_detail

// The polynomials of one pivot in t = tan phi, from t_0 .. t_D scaled to max |t_k| = 1 (f's
// maximizer does not change with the scale, and 1 keeps F's squares in range): the gain's
// numerator H, and g with its derivatives, derivatives[j] = g^(j) of degree 2D - j.
template <int D>
struct SymmetricAnglePolynomials {
  static constexpr int M = 2 * D;  // the degree of F and g
  double h[M + 1];
  double derivatives[M + 1][M + 1];
};

// Fills `out`; false when every t_k is 0 (f is 0 everywhere: the identity).
template <int D>
TENSORDIAG_HOST_DEVICE inline bool symmetric_angle_polynomials(const double* t, SymmetricAnglePolynomials<D>& out) {
  using namespace symmetric_angle_detail;
  constexpr int M = 2 * D;
  double scale = 0.0;
  for (int k = 0; k <= D; ++k) {
    const double size = t[k] < 0 ? -t[k] : t[k];
    scale = size > scale ? size : scale;
  }
  if (scale == 0.0) return false;
  double p[D + 1], q[D + 1];
  for (int k = 0; k <= D; ++k) {
    const double b = binomial(D, k) * (t[k] / scale);
    p[k] = b;
    q[D - k] = (D - k) % 2 ? -b : b;
  }
  double f[M + 1];
  for (int j = 0; j <= M; ++j) f[j] = 0.0;
  for (int i = 0; i <= D; ++i)
    for (int k = 0; k <= D; ++k) f[i + k] += p[i] * p[k] + q[i] * q[k];
  for (int j = 0; j <= M; ++j) out.h[j] = j % 2 ? f[j] : f[j] - f[0] * binomial(D, j / 2);
  out.h[0] = 0.0;
  for (int j = 0; j <= M; ++j)
    out.derivatives[0][j] = (j + 1 <= M ? (j + 1) * f[j + 1] : 0.0) + (j >= 1 ? (j - 1 - M) * f[j - 1] : 0.0);
  for (int level = 1; level <= M; ++level)
    for (int j = 0; j <= M - level; ++j) out.derivatives[level][j] = (j + 1) * out.derivatives[level - 1][j + 1];
  return true;
}

// Slot `slot` of one level of the root isolation: `critical` holds the `count` roots of g^(level+1)
// in [-1, 1], ascending, which cut [-1, 1] into the intervals 0..count, on each of which g^(level)
// is monotone; slot count + 1 is the end t = 1. A slot has one root of g^(level) at most: its
// interval's left end where g^(level) is 0 there (once, where critical points repeat), or the one
// inside its interval where the signs of the ends differ; the end slot, t = 1 where g^(level) is 0
// and the last interval did not already take it. The slots are independent (the kernel gives
// each its own lane) and their roots, in slot order, ascend. Returns whether the slot has one.
template <int D>
TENSORDIAG_HOST_DEVICE inline bool symmetric_angle_slot_root(const SymmetricAnglePolynomials<D>& polynomials,
                                                             int level, const double* critical, int count, int slot,
                                                             double* root) {
  using namespace symmetric_angle_detail;
  const double* g = polynomials.derivatives[level];
  const int degree = 2 * D - level;
  bool zero = true;
  for (int j = 0; j <= degree; ++j) zero = zero && g[j] == 0.0;
  if (zero) return false;  // a constant 0: no isolated roots
  if (slot == count + 1) {
    *root = 1.0;
    return polynomial_at(g, degree, 1.0) == 0.0 && !(count > 0 && critical[count - 1] == 1.0);
  }
  const double lo = slot == 0 ? -1.0 : critical[slot - 1];
  const double value_lo = polynomial_at(g, degree, lo);
  if (value_lo == 0.0) {
    *root = lo;
    return !(slot > 1 && critical[slot - 2] == lo) && !(slot == 1 && lo == -1.0);
  }
  const double hi = slot < count ? critical[slot] : 1.0;
  const double value_hi = polynomial_at(g, degree, hi);
  if (value_hi == 0.0 || (value_lo < 0.0) == (value_hi < 0.0)) return false;
  *root = bracketed_root(g, polynomials.derivatives[level + 1], degree, lo, hi, value_lo < 0.0);
  return true;
}

// f(phi) - f(0) at a root t of g in units of the scaled t_k (a root at t = -1 is t = 1's twin and
// is taken as t = 1: see symmetric_angle_candidate).
template <int D>
TENSORDIAG_HOST_DEVICE inline double symmetric_angle_gain(const SymmetricAnglePolynomials<D>& polynomials, double t) {
  double circle = 1.0;  // (1 + t^2)^D
  for (int k = 0; k < D; ++k) circle *= 1.0 + t * t;
  return symmetric_angle_detail::polynomial_at(polynomials.h, 2 * D, t) / circle;
}

// The twin rule: t = -1 (phi = -pi/4) becomes t = 1 (phi = pi/4).
TENSORDIAG_HOST_DEVICE inline double symmetric_angle_candidate(double t) { return t <= -1.0 ? 1.0 : t; }

// (c, s) of t = tan phi.
TENSORDIAG_HOST_DEVICE inline Givens<double> symmetric_angle_rotation(double t) {
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  const double c = 1.0 / sqrt(1.0 + t * t);
  return {c, t * c};
}

// The maximizer of f from t_0 .. t_D (t[k]: the mean of the pivot entries with k indices q), as
// (c, s) with phi in (-pi/4, pi/4]; the identity when no angle gains. The serial form of what
// kernels_templates/symmetric_angles.cu runs a slot a lane: the levels from g^(2D-1) down to g,
// then the first candidate of the largest positive gain among g's roots and t = 1.
template <int D>
TENSORDIAG_HOST_DEVICE inline Givens<double> symmetric_angle(const double* t) {
  static_assert(D >= 2, "a symmetric rotation needs order >= 2");
  if constexpr (D == 2) {
    // As runtime::best_symmetric_rotation: tan 2phi = 2 t_1 / (t_0 - t_2), |phi| <= pi/4.
    const double sign = t[0] - t[2] < 0 ? -1.0 : 1.0;
    const double diff = t[0] - t[2];
    return givens_from_double_angle(diff < 0 ? -diff : diff, sign * 2 * t[1]);
  } else {
    constexpr int M = 2 * D;
    SymmetricAnglePolynomials<D> polynomials;
    if (!symmetric_angle_polynomials<D>(t, polynomials)) return {1.0, 0.0};
    double roots[2][M + 2];  // the levels alternate between the two
    int count = 0;
    for (int level = M - 1; level >= 0; --level) {
      const double* critical = roots[level % 2 == 0];
      double* found = roots[level % 2];
      int found_count = 0;
      for (int slot = 0; slot <= count + 1; ++slot)
        if (double root; symmetric_angle_slot_root<D>(polynomials, level, critical, count, slot, &root))
          found[found_count++] = root;
      count = found_count;
    }
    double best_t = 0.0, best_gain = 0.0;
    for (int i = 0; i <= count; ++i) {
      const double x = i < count ? symmetric_angle_candidate(roots[0][i]) : 1.0;
      if (const double gain = symmetric_angle_gain<D>(polynomials, x); gain > best_gain) {
        best_gain = gain;
        best_t = x;
      }
    }
    return symmetric_angle_rotation(best_t);
  }
}

}  // namespace tensordiag::dsl
