#pragma once
// The dominant eigenvector of a 2 x 2 Hermitian matrix [[h11, h12], [conj(h12), h22]] in closed
// form (dsl/unitary_rotation.hpp derives it): the complex rotation (al, be), al real >= 0, that
// maximizes the form v^H H v over the unit sphere of v = (al, be). Plain C++ over any complex type
// C with conj(C), norm(C) = |C|^2, C / R and R * C found by argument lookup, so the host
// (std::complex) and the generated kernels (dsl::Complex, which NVRTC compiles) share one formula.
#if !defined(__CUDACC_RTC__)
#include <cmath>

#include "dsl/givens.hpp"  // TENSORDIAG_HOST_DEVICE (generated sources hold givens.hpp before this)
#endif

namespace tensordiag::dsl {

// H += the form of one term |x al + y be|^2: [[|x|^2, conj(x) y], [.., |y|^2]].
template <class R, class C>
TENSORDIAG_HOST_DEVICE inline void add_hermitian_term(C x, C y, R& h11, R& h22, C& h12) {
  h11 += norm(x);
  h22 += norm(y);
  h12 += conj(x) * y;
}

// With delta = h11 - h22 and r = sqrt(delta^2 + 4 |h12|^2): al = sqrt((1 + delta / r) / 2),
// be = conj(h12) / (r al); where delta / r is near -1 (al tiny, the division loses digits)
// |be| = sqrt((1 - delta / r) / 2), be = |be| conj(h12) / |h12|, al = |h12| / (r |be|)
// (h12 = 0 there: al = 0, be = 1, the swap); r = 0: the identity.
template <class R, class C>
TENSORDIAG_HOST_DEVICE inline void dominant_unitary_rotation(R h11, R h22, C h12, R& al, C& be) {
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  const R delta = h11 - h22;
  const R beta_abs2 = norm(h12);
  const R r = sqrt(delta * delta + R(4) * beta_abs2);
  if (r == R(0)) {
    al = R(1);
    be = C(R(0));
    return;
  }
  const R cos2 = delta / r;
  if (cos2 > R(-0.5)) {
    al = sqrt((R(1) + cos2) / R(2));
    be = conj(h12) / (r * al);
    return;
  }
  const R be_abs = sqrt((R(1) - cos2) / R(2));
  if (beta_abs2 == R(0)) {
    al = R(0);
    be = C(R(1));
    return;
  }
  const R beta_abs = sqrt(beta_abs2);
  al = beta_abs / (r * be_abs);
  be = be_abs * (conj(h12) / beta_abs);
}

}  // namespace tensordiag::dsl
