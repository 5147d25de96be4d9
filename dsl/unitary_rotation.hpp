#pragma once
// The complex rotation that maximizes a Hermitian form v^H H v over the unit sphere of
// v = (al, be) (dsl/hermitian_form.hpp builds H from a rule): the dominant eigenvector of H, in closed form.
//
// With delta = H11 - H22, beta = H12 and r = sqrt(delta^2 + 4 |beta|^2), the eigenvalue
// (H11 + H22 + r) / 2 has the eigenvector (beta, (r - delta) / 2); scaled to a real first entry,
//   al = sqrt((1 + delta / r) / 2),   be = conj(beta) / (r al),
// and where delta / r is near -1 (al tiny, the division loses digits)
//   |be| = sqrt((1 - delta / r) / 2),  be = |be| conj(beta) / |beta|,  al = |beta| / (r |be|)
// (beta = 0 there: al = 0, be = 1, the swap). r = 0: the identity. The gain over the identity is
// (r - delta) / 2 >= 0. For real H this is givens_from_double_angle(delta, 2 H12) exactly:
// (c, s) = (al, be), the real rule's rotation.
#include <cmath>
#include <complex>


namespace tensordiag::dsl {

// A Hermitian 2 x 2 matrix [[h11, h12], [conj(h12), h22]].
template <class R>
struct HermitianForm {
  R h11 = 0, h22 = 0;
  std::complex<R> h12{};
};

// G = [[al, -conj(be)], [be, conj(al)]] (al real here): C <- C x_n G^H, U_n <- U_n G.
template <class R>
struct UnitaryGivens {
  R al = 1;
  std::complex<R> be{};
};

template <class R>
UnitaryGivens<R> unitary_rotation(const HermitianForm<R>& h) {
  const R delta = h.h11 - h.h22;
  const R beta_abs = std::abs(h.h12);
  const R r = std::sqrt(delta * delta + R(4) * beta_abs * beta_abs);
  if (r == R(0)) return {};
  const R cos2 = delta / r;
  if (cos2 > R(-0.5)) {
    const R al = std::sqrt((R(1) + cos2) / R(2));
    return {al, std::conj(h.h12) / (r * al)};
  }
  const R be_abs = std::sqrt((R(1) - cos2) / R(2));
  if (beta_abs == R(0)) return {R(0), std::complex<R>(R(1))};
  return {beta_abs / (r * be_abs), be_abs * (std::conj(h.h12) / beta_abs)};
}

// The objective's value at G, v^H H v with v = (al, be).
template <class R>
R hermitian_value(const HermitianForm<R>& h, const UnitaryGivens<R>& g) {
  return h.h11 * g.al * g.al + h.h22 * std::norm(g.be) + R(2) * (g.al * (h.h12 * g.be)).real();
}

}  // namespace tensordiag::dsl
