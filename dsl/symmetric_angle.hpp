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

// The maximizer of f from t_0 .. t_D (t[k]: the mean of the pivot entries with k indices q), as
// (c, s) with phi in (-pi/4, pi/4]; the identity when no angle gains.
template <int D>
TENSORDIAG_HOST_DEVICE inline Givens<double> symmetric_angle(const double* t) {
  static_assert(D >= 2, "a symmetric rotation needs order >= 2");
  using namespace symmetric_angle_detail;
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  if constexpr (D == 2) {
    // As runtime::best_symmetric_rotation: tan 2phi = 2 t_1 / (t_0 - t_2), |phi| <= pi/4.
    const double sign = t[0] - t[2] < 0 ? -1.0 : 1.0;
    const double diff = t[0] - t[2];
    return givens_from_double_angle(diff < 0 ? -diff : diff, sign * 2 * t[1]);
  } else {
    constexpr int M = 2 * D;  // degree of F and g
    // f's maximizer does not change with the scale of t: 1 keeps F's squares in range.
    double scale = 0.0;
    for (int k = 0; k <= D; ++k) scale = t[k] < 0 ? (-t[k] > scale ? -t[k] : scale) : (t[k] > scale ? t[k] : scale);
    if (scale == 0.0) return {1.0, 0.0};
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
    // H = F - F(0) (1 + t^2)^D.
    double h[M + 1];
    for (int j = 0; j <= M; ++j) h[j] = j % 2 ? f[j] : f[j] - f[0] * binomial(D, j / 2);
    h[0] = 0.0;
    // derivatives[j]: g^(j), degree M - j.
    double derivatives[M + 1][M + 1];
    for (int j = 0; j <= M; ++j)
      derivatives[0][j] = (j + 1 <= M ? (j + 1) * f[j + 1] : 0.0) + (j >= 1 ? (j - 1 - M) * f[j - 1] : 0.0);
    for (int level = 1; level <= M; ++level)
      for (int j = 0; j <= M - level; ++j) derivatives[level][j] = (j + 1) * derivatives[level - 1][j + 1];

    // The roots in [-1, 1] of each level, ascending, from the constant g^(M) (none) down to g.
    double roots[M + 1];
    int count = 0;
    for (int level = M - 1; level >= 0; --level) {
      const double* g = derivatives[level];
      const int degree = M - level;
      bool zero = true;
      for (int j = 0; j <= degree; ++j) zero = zero && g[j] == 0.0;
      double found[M + 1];
      int found_count = 0;
      if (!zero) {
        double lo = -1.0, value_lo = polynomial_at(g, degree, lo);
        for (int i = 0; i <= count; ++i) {
          const double hi = i < count ? roots[i] : 1.0;
          const double value_hi = polynomial_at(g, degree, hi);
          if (value_lo == 0.0) {
            if (found_count == 0 || found[found_count - 1] != lo) found[found_count++] = lo;
          } else if (value_hi != 0.0 && (value_lo < 0.0) != (value_hi < 0.0)) {
            found[found_count++] = bracketed_root(g, derivatives[level + 1], degree, lo, hi, value_lo < 0.0);
          }
          lo = hi;
          value_lo = value_hi;
        }
        if (value_lo == 0.0 && (found_count == 0 || found[found_count - 1] != 1.0)) found[found_count++] = 1.0;
      }
      for (int i = 0; i < found_count; ++i) roots[i] = found[i];
      count = found_count;
    }

    // The best of the identity, the roots of g and t = 1, by gain over the identity.
    double best_t = 0.0, best_gain = 0.0;
    for (int i = 0; i <= count; ++i) {
      const double x = i < count ? (roots[i] <= -1.0 ? 1.0 : roots[i]) : 1.0;
      double circle = 1.0;  // (1 + x^2)^D
      for (int k = 0; k < D; ++k) circle *= 1.0 + x * x;
      const double gain = polynomial_at(h, M, x) / circle;
      if (gain > best_gain) {
        best_gain = gain;
        best_t = x;
      }
    }
    const double c = 1.0 / sqrt(1.0 + best_t * best_t);
    return {c, best_t * c};
  }
}

}  // namespace tensordiag::dsl
