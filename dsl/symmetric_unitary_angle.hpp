#pragma once
// The unitary Jacobi step of a complex symmetric tensor (issue 11, item 3: one U in every mode,
// T = C x_1 U .. x_D U; Usevich, Li and Comon, SIOPT 2020): the rotation of the pair (p, q) that
// maximizes |C'_{p..p}|^2 + |C'_{q..q}|^2 when every mode is rotated by the same unitary
// G = [[al, -conj(be)], [be, al]] (al real >= 0; C <- C x_n G^H, U <- U G). Orders 2 and 3, where
// the objective is a quadratic form on the Bloch sphere (below); plain C++ that NVRTC also compiles,
// so the host tests check what a kernel would run. The arithmetic's type R is double, or float for
// a complex64 tensor (symmetric_unitary_rotation_in).
//
// The pivot subtensor of a symmetric C holds D + 1 values t_k (k = the number of indices equal to q).
// With u = (al, be) G's first column and v = (-conj(be), conj(al)) its second, b_k = binom(D, k),
//   C'_{p..p} = P(u) = sum_k b_k t_k conj(al)^(D-k) conj(be)^k,   C'_{q..q} = P(v),
// so f = |P(u)|^2 + |P(v)|^2. |P(u)|^2 does not change with u's phase: it is a function g(n) of the
// Bloch vector n = (2 Re w, 2 Im w, x - y) of u, x = |al|^2, y = |be|^2, w = conj(al) be, and v's
// Bloch vector is -n. Term by term,
//   |P(u)|^2 = sum_k b_k^2 |t_k|^2 x^(D-k) y^k + 2 Re sum_{k>l} b_k b_l conj(t_k) t_l x^(D-k) y^l w^(k-l),
// with x = (1 + n_3) / 2, y = (1 - n_3) / 2, w = (n_1 + i n_2) / 2 a polynomial G(n) of degree D,
// and f(n) = G(n) + G(-n) = 2 (G's terms of even degree). For D <= 3 those are of degree 0 and 2:
//   f / 2 = const + a n_3^2 + 2 Re(b n_3 w) + 2 Re(e w^2),
//   a = sum_k b_k^2 |t_k|^2 [z^2] x^(D-k) y^k,   b = sum_k b_(k+1) b_k conj(t_(k+1)) t_k [z^1] x^(D-k-1) y^k,
//   e = sum_k b_(k+2) b_k conj(t_(k+2)) t_k [z^0] x^(D-k-2) y^k         (z = n_3),
// that is n^T A n on the unit sphere with A = [[Re e / 2, -Im e / 2, Re b / 2], [., -Re e / 2,
// -Im b / 2], [., ., a]]. Its maximizer is A's dominant eigenvector: near a diagonal pivot, where b
// and e are products like conj(t_1) t_0 small against a, the fixed point of dominant_near_e3 (a
// division a step), else a cyclic Jacobi on the 3 x 3 A; both keep the relative precision of the
// eigenvector's small components. f(n) = f(-n) (the swap of p and q): the twin with
// n_3 >= 0 is taken, the rotation nearest the identity, so U converges with C; n = e_3 is the
// identity. Back from n: al = sqrt((1 + n_3) / 2) >= 1 / sqrt 2, be = (n_1 + i n_2) / (2 al).
// D = 2 is the Jacobi method of the Takagi factorization T = U C U^T. The real symmetric rule is
// the case of real t (n_2 = 0, n = (sin 2 phi, 0, cos 2 phi)).
// For D >= 4 the even part of G has degree 4 and more: a polynomial on the sphere with no closed-form
// maximizer, which this step does not take (the engines refuse those orders).
#if !defined(__CUDACC_RTC__)
#include <cmath>

#include "dsl/givens.hpp"  // TENSORDIAG_HOST_DEVICE
#endif

namespace tensordiag::dsl {

// The orders the closed form serves.
inline constexpr int symmetric_unitary_max_order = 3;

namespace symmetric_unitary_detail {

// Below this share of the diagonal beside it an off-diagonal entry of the form is left alone
// (jacobi_rotate, dominant_near_e3): 2^-60 in double, 2^-31 in float (a unit vector's rounding
// scale, 2^-53 or 2^-24, with the same margin of 2^-7).
template <class R>
inline constexpr R negligible_share = sizeof(R) < sizeof(double) ? R(0x1p-31) : R(0x1p-60);

// [z^j] of x^m y^l = 2^-(m+l) (1 + z)^m (1 - z)^l, j <= 2.
TENSORDIAG_HOST_DEVICE inline double bloch_coefficient(int m, int l, int j) {
  double poly[4] = {1.0, 0.0, 0.0, 0.0};  // degree m + l <= 3
  int degree = 0;
  for (int factor = 0; factor < m + l; ++factor) {
    const double sign = factor < m ? 0.5 : -0.5;  // (1 + z) / 2 or (1 - z) / 2
    for (int i = degree + 1; i >= 1; --i) poly[i] = 0.5 * poly[i] + sign * poly[i - 1];
    poly[0] *= 0.5;
    ++degree;
  }
  return j <= degree ? poly[j] : 0.0;
}

// The rotation (c, s) of the symmetric Schur decomposition that zeroes a[p][q] of a symmetric 2 x 2
// block (Golub and Van Loan, Algorithm 8.5.1), applied to the 3 x 3 a and its eigenvectors v; false
// (nothing done) when a[p][q] is below 2^-60 (|a[p][p]| + |a[q][q]|): the eigenvector would move by
// about a[p][q] / (a[q][q] - a[p][p]), under a unit vector's rounding wherever the gap is not itself
// that small, and where it is, the two directions give f within a[p][q] of each other.
template <class R>
TENSORDIAG_HOST_DEVICE inline bool jacobi_rotate(R (&a)[3][3], R (&v)[3][3], int p, int q) {
#if !defined(__CUDACC_RTC__)
  using std::fabs;
  using std::sqrt;
#endif
  if (fabs(a[p][q]) <= negligible_share<R> * (fabs(a[p][p]) + fabs(a[q][q]))) return false;
  const R theta = (a[q][q] - a[p][p]) / (R(2) * a[p][q]);
  // t = sign(theta) / (|theta| + sqrt(1 + theta^2)); past 1e15 (1e7 in float), theta^2 would
  // overflow far sooner than t = 1 / (2 theta) loses a digit.
  const R large = sizeof(R) < sizeof(double) ? R(1e7) : R(1e15);
  const R t = (theta >= 0 ? R(1) : R(-1)) /
              (fabs(theta) > large ? R(2) * fabs(theta) : fabs(theta) + sqrt(R(1) + theta * theta));
  const R c = R(1) / sqrt(R(1) + t * t), s = t * c;
  for (int k = 0; k < 3; ++k) {  // a <- a J (columns p, q)
    const R akp = a[k][p], akq = a[k][q];
    a[k][p] = c * akp - s * akq;
    a[k][q] = s * akp + c * akq;
  }
  for (int k = 0; k < 3; ++k) {  // a <- J^T a (rows p, q)
    const R apk = a[p][k], aqk = a[q][k];
    a[p][k] = c * apk - s * aqk;
    a[q][k] = s * apk + c * aqk;
  }
  a[p][q] = a[q][p] = 0;
  for (int k = 0; k < 3; ++k) {  // v <- v J
    const R vkp = v[k][p], vkq = v[k][q];
    v[k][p] = c * vkp - s * vkq;
    v[k][q] = s * vkp + c * vkq;
  }
  return true;
}

// Near a diagonal pivot, where the form is a[2][2] e_3 e_3^T plus entries at most an eighth of it
// (|E| + |B| <= a / 8 with E = (a[0][0], -a[0][1]), B = (a[0][2], -a[1][2]), a = a[2][2] > 0): the
// dominant eigenvector v = (v_1, v_2, 1) continues e_3. Its first two rows,
//   [[E_1 - l, -E_2], [-E_2, -E_1 - l]] (v_1, v_2) = (-B_1, B_2),   det = l^2 - |E|^2,
// give v_1, v_2 for an eigenvalue l, and its third l = a + B_1 v_1 - B_2 v_2: the fixed point of
// that map, which is decreasing with slope |B|^2 / (l - |E|)^2 <= 1/49 in absolute value for
// l >= a, starting at l = a within a / 56 (l - a <= |B|^2 / (a - |E|)): a division a step, to
// rounding within 9 steps (12 allowed; 2-4 at a pivot near convergence) where the cyclic Jacobi
// below takes 6-9 rotations of two square roots and three divisions each. Every entry of v is
// then a sum of products with 1 / det, relative precision kept in the small ones. Where B is below
// negligible_share of the diagonal beside it, v = e_3 exactly, as the Jacobi's skipped rotations
// leave it (the step is then the identity, which the CPU pass skips). False (nothing written)
// outside that region.
template <class R>
TENSORDIAG_HOST_DEVICE inline bool dominant_near_e3(const R (&a)[3][3], R (&v)[3]) {
#if !defined(__CUDACC_RTC__)
  using std::fabs;
#endif
  const R e1 = a[0][0], e2 = -a[0][1], b1 = a[0][2], b2 = -a[1][2], top = a[2][2];
  if (!(top > 0) || R(8) * (fabs(e1) + fabs(e2) + fabs(b1) + fabs(b2)) > top) return false;
  v[0] = v[1] = 0;
  v[2] = 1;
  const R negligible = negligible_share<R> * (fabs(e1) + top);  // jacobi_rotate's test of a[0][2], a[1][2]
  if (fabs(b1) <= negligible && fabs(b2) <= negligible) return true;
  const R e_norm2 = e1 * e1 + e2 * e2;
  R l = top;
  for (int step = 0; step < 12; ++step) {
    const R inverse = R(1) / (l * l - e_norm2);
    v[0] = ((e1 + l) * b1 + e2 * b2) * inverse;
    v[1] = ((e1 - l) * b2 - e2 * b1) * inverse;
    const R next = top + b1 * v[0] - b2 * v[1];
    if (next == l) break;
    l = next;
  }
  return true;
}

}  // namespace symmetric_unitary_detail

// The quadratic form A (above) of the pivot values t_k = t_re[k] + i t_im[k], k = 0..order.
template <class R = double>
TENSORDIAG_HOST_DEVICE inline void symmetric_unitary_form(int order, const R* t_re, const R* t_im, R (&form)[3][3]) {
  using symmetric_unitary_detail::bloch_coefficient;
  const R binomial[4] = {R(1), R(order), order == 3 ? R(3) : R(1), R(1)};
  R a = 0, b_re = 0, b_im = 0, e_re = 0, e_im = 0;
  for (int k = 0; k <= order; ++k) {
    a += binomial[k] * binomial[k] * (t_re[k] * t_re[k] + t_im[k] * t_im[k]) * R(bloch_coefficient(order - k, k, 2));
    for (int c = 1; c <= 2 && k + c <= order; ++c) {
      // b_(k+c) b_k conj(t_(k+c)) t_k [z^(2-c)] x^(D-k-c) y^k
      const R weight = binomial[k + c] * binomial[k] * R(bloch_coefficient(order - k - c, k, 2 - c));
      const R re = t_re[k + c] * t_re[k] + t_im[k + c] * t_im[k];
      const R im = t_re[k + c] * t_im[k] - t_im[k + c] * t_re[k];
      (c == 1 ? b_re : e_re) += weight * re;
      (c == 1 ? b_im : e_im) += weight * im;
    }
  }
  form[0][0] = R(0.5) * e_re;
  form[1][1] = R(-0.5) * e_re;
  form[2][2] = a;
  form[0][1] = form[1][0] = R(-0.5) * e_im;
  form[0][2] = form[2][0] = R(0.5) * b_re;
  form[1][2] = form[2][1] = R(-0.5) * b_im;
}

// The dominant eigenvector n of the symmetric 3 x 3 form a, a unit vector with n_3 >= 0 (of the
// twins, the rotation nearest the identity): dominant_near_e3's where it serves, else a cyclic
// Jacobi's (quadratic convergence, 3 x 3 at machine precision within a few sweeps; it stops at the
// first sweep that rotates nothing). `a` is overwritten.
template <class R = double>
TENSORDIAG_HOST_DEVICE inline void symmetric_unitary_axis(R (&a)[3][3], R (&n)[3]) {
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  if (symmetric_unitary_detail::dominant_near_e3(a, n)) {
    const R norm = sqrt(n[0] * n[0] + n[1] * n[1] + R(1));
    for (R& x : n) x /= norm;
    return;
  }
  R v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int sweep = 0; sweep < 8; ++sweep) {
    bool rotated = symmetric_unitary_detail::jacobi_rotate(a, v, 0, 1);
    rotated = symmetric_unitary_detail::jacobi_rotate(a, v, 0, 2) || rotated;
    rotated = symmetric_unitary_detail::jacobi_rotate(a, v, 1, 2) || rotated;
    if (!rotated) break;
  }
  // Ties go to the later column, so an A already diagonal with a[2][2] among its largest keeps the
  // identity.
  int top = 2;
  if (a[1][1] > a[top][top]) top = 1;
  if (a[0][0] > a[top][top]) top = 0;
  const R sign = v[2][top] < 0 ? R(-1) : R(1);
  for (int i = 0; i < 3; ++i) n[i] = sign * v[i][top];
}

// The maximizing rotation of the pivot values t_k, order 2 or 3: al real >= 1 / sqrt 2, be = be_re + i be_im.
template <class R = double>
TENSORDIAG_HOST_DEVICE inline void symmetric_unitary_rotation(int order, const R* t_re, const R* t_im, R& al, R& be_re,
                                                              R& be_im) {
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  R a[3][3], n[3];
  symmetric_unitary_form<R>(order, t_re, t_im, a);
  symmetric_unitary_axis<R>(a, n);
  al = sqrt(R(0.5) * (R(1) + n[2]));
  be_re = n[0] / (R(2) * al);
  be_im = n[1] / (R(2) * al);
}

// The engines' step for a tensor whose real type is R (float for complex64, double for
// complex128): at order 3 from the means t_k rounded to R, in R, as the general engine's rules run
// in the tensor's type (the step's square roots and divisions in a row were each complex symmetric
// group step's latency in the kernels; near convergence the fixed point keeps the step's relative
// precision); widened to double. Order 2 (Takagi) stays in double: there the form's e = conj(t_2) t_0
// stays large at convergence, the cyclic Jacobi takes the step, and in float its small components
// carry float's absolute error (planted complex64 N = 256: off_rel 3.5e-5 after 10 sweeps against
// 6.2e-7; bench/results/complex_symmetric_float_step_h200_2026-11-28.md).
template <class R>
TENSORDIAG_HOST_DEVICE inline void symmetric_unitary_rotation_in(int order, const double* t_re, const double* t_im,
                                                                 double& al, double& be_re, double& be_im) {
  if (sizeof(R) < sizeof(double) && order == 3) {
    R re[symmetric_unitary_max_order + 1], im[symmetric_unitary_max_order + 1];
    for (int k = 0; k <= order; ++k) {
      re[k] = static_cast<R>(t_re[k]);
      im[k] = static_cast<R>(t_im[k]);
    }
    R narrow_al = 1, narrow_re = 0, narrow_im = 0;
    symmetric_unitary_rotation<R>(order, re, im, narrow_al, narrow_re, narrow_im);
    al = narrow_al;
    be_re = narrow_re;
    be_im = narrow_im;
  } else {
    symmetric_unitary_rotation<double>(order, t_re, t_im, al, be_re, be_im);
  }
}

}  // namespace tensordiag::dsl
