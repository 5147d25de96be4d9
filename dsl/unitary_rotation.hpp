#pragma once
// The complex rotation that maximizes a Hermitian form v^H H v over the unit sphere of
// v = (al, be) (dsl/hermitian_form.hpp builds H from a rule): the dominant eigenvector of H, in closed form.
//
// With delta = H11 - H22, beta = H12 and r = sqrt(delta^2 + 4 |beta|^2), the eigenvalue
// (H11 + H22 + r) / 2 has the eigenvector (beta, (r - delta) / 2); scaled to a real first entry,
//   al = sqrt((1 + delta / r) / 2),   be = conj(beta) / (r al),
// and where delta / r is near -1 (al tiny, the division loses digits)
//   |be| = sqrt((1 - delta / r) / 2),  be = |be| conj(beta) / |beta|,  al = |beta| / (r |be|)
// (beta = 0 there: al = 0, be = 1, the swap). r = 0: the identity (unitary_closed_form.hpp, which
// the generated kernels share). The gain over the identity is
// (r - delta) / 2 >= 0. For real H this is givens_from_double_angle(delta, 2 H12) exactly:
// (c, s) = (al, be), the real rule's rotation.
#include <cmath>
#include <complex>

#include "dsl/unitary_closed_form.hpp"

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
  UnitaryGivens<R> g;
  dominant_unitary_rotation(h.h11, h.h22, h.h12, g.al, g.be);
  return g;
}

// The objective's value at G, v^H H v with v = (al, be).
template <class R>
R hermitian_value(const HermitianForm<R>& h, const UnitaryGivens<R>& g) {
  return h.h11 * g.al * g.al + h.h22 * std::norm(g.be) + R(2) * (g.al * (h.h12 * g.be)).real();
}

}  // namespace tensordiag::dsl
