// The complex lift of the max-diag rule (dsl/hermitian_form.hpp, dsl/unitary_rotation.hpp): the
// Hermitian form the DSL derives from the rule's objective, its maximizer against a brute-force
// search over the sphere |al|^2 + |be|^2 = 1, and the real rule as its special case.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <random>

#include "dsl/builtin_rules.hpp"
#include "dsl/hermitian_form.hpp"
#include "dsl/unitary_rotation.hpp"

namespace {

using namespace tensordiag;
using cd = std::complex<double>;

constexpr auto max_diag_terms = dsl::complex_rule_terms(dsl::rules::max_diag);

// The objective as the rotation acts (dsl/hermitian_form.hpp's header): row p takes
// (conj(al), conj(be)), row q (al, -be).
double objective(const dsl::PivotValues<cd>& v, cd al, cd be) {
  return std::norm(std::conj(al) * v.a + std::conj(be) * v.b) + std::norm(al * v.d - be * v.e);
}

cd random_complex(std::mt19937_64& random, double scale) {
  std::normal_distribution<double> gauss(0.0, scale);
  return {gauss(random), gauss(random)};
}

}  // namespace

TEST_CASE("complex rule: max_diag lifts, max_trace (linear) does not") {
  static_assert(dsl::has_hermitian_lift<decltype(dsl::rules::max_diag)>);
  static_assert(!dsl::has_hermitian_lift<decltype(dsl::rules::max_trace)>);
  CHECK(decltype(boost::hana::length(max_diag_terms))::value == 2);
}

TEST_CASE("complex rule: the DSL's Hermitian form of max_diag is [[|a|^2+|d|^2, a conj(b) - conj(d) e], [.., |b|^2+|e|^2]]") {
  std::mt19937_64 random(11);
  for (int trial = 0; trial < 100; ++trial) {
    const dsl::PivotValues<cd> v{random_complex(random, 1), random_complex(random, 1), random_complex(random, 1),
                                 random_complex(random, 1)};
    const dsl::HermitianForm<double> h = dsl::hermitian_form(max_diag_terms, v);
    CHECK(h.h11 == doctest::Approx(std::norm(v.a) + std::norm(v.d)).epsilon(1e-14));
    CHECK(h.h22 == doctest::Approx(std::norm(v.b) + std::norm(v.e)).epsilon(1e-14));
    const cd h12 = v.a * std::conj(v.b) - std::conj(v.d) * v.e;
    CHECK(std::abs(h.h12 - h12) <= 1e-14 * (1 + std::abs(h12)));
    // The form is the objective: v^H H v at random points of the sphere.
    for (int point = 0; point < 5; ++point) {
      cd al = random_complex(random, 1), be = random_complex(random, 1);
      const double norm = std::sqrt(std::norm(al) + std::norm(be));
      al /= norm;
      be /= norm;
      const double form = h.h11 * std::norm(al) + h.h22 * std::norm(be) + 2 * (std::conj(al) * h.h12 * be).real();
      CHECK(form == doctest::Approx(objective(v, al, be)).epsilon(1e-13));
    }
  }
}

TEST_CASE("complex rule: the derived rotation beats a brute-force search of the sphere, and gains (r - delta)/2") {
  std::mt19937_64 random(12);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    // Scales from balanced to near-diagonal pivots (b, e small: the end of a run).
    const double off = trial % 3 == 0 ? 1e-4 : 1.0;
    const dsl::PivotValues<cd> v{random_complex(random, 1), random_complex(random, off), random_complex(random, 1),
                                 random_complex(random, off)};
    const dsl::HermitianForm<double> h = dsl::hermitian_form(max_diag_terms, v);
    const dsl::UnitaryGivens<double> g = dsl::unitary_rotation(h);
    CHECK(g.al * g.al + std::norm(g.be) == doctest::Approx(1.0).epsilon(1e-15));
    CHECK(g.al >= 0);
    const double best = objective(v, g.al, g.be);
    CHECK(best == doctest::Approx(dsl::hermitian_value(h, g)).epsilon(1e-13));
    // Hopf coordinates: al = cos(t) e^{i x}, be = sin(t) e^{i y}, t in [0, pi/2].
    double searched = 0.0;
    for (int k = 0; k < 4000; ++k) {
      const double t = uniform(random) * M_PI / 2, x = uniform(random) * 2 * M_PI, y = uniform(random) * 2 * M_PI;
      searched = std::max(searched, objective(v, std::polar(std::cos(t), x), std::polar(std::sin(t), y)));
    }
    CHECK(best >= searched * (1 - 1e-13));
    // Stationary: no small step along the sphere improves it (first order).
    for (const cd direction : {cd(1, 0), cd(0, 1)}) {
      const double step = 1e-5;
      const cd al = g.al - step * std::conj(direction) * g.be, be = g.be + step * direction * g.al;
      const double norm = std::sqrt(std::norm(al) + std::norm(be));
      CHECK(objective(v, al / norm, be / norm) <= best * (1 + 1e-9));
    }
    const double delta = h.h11 - h.h22, r = std::sqrt(delta * delta + 4 * std::norm(h.h12));
    CHECK(best - h.h11 == doctest::Approx((r - delta) / 2).epsilon(1e-10).scale(h.h11));
  }
}

TEST_CASE("complex rule: on real pivot entries it is the real rule's rotation") {
  std::mt19937_64 random(13);
  std::normal_distribution<double> gauss;
  for (int trial = 0; trial < 200; ++trial) {
    const dsl::PivotValues<double> real{gauss(random), gauss(random), gauss(random), gauss(random)};
    const dsl::Givens<double> expected = dsl::rotation(dsl::rules::max_diag, real);
    const dsl::UnitaryGivens<double> g =
        dsl::unitary_rotation(dsl::hermitian_form(max_diag_terms, dsl::PivotValues<cd>{real.a, real.b, real.d, real.e}));
    CHECK(g.al == doctest::Approx(expected.c).epsilon(1e-14));
    CHECK(g.be.real() == doctest::Approx(expected.s).epsilon(1e-14));
    CHECK(g.be.imag() == 0.0);
  }
  // H12 = 0: the swap when the off-diagonal entries b, e hold more (H22 > H11), else the identity.
  const dsl::UnitaryGivens<double> swap =
      dsl::unitary_rotation(dsl::hermitian_form(max_diag_terms, dsl::PivotValues<cd>{cd(0.5), cd(0), cd(0), cd(2)}));
  CHECK(swap.al == 0.0);
  CHECK(swap.be == cd(1));
  const dsl::UnitaryGivens<double> identity =
      dsl::unitary_rotation(dsl::hermitian_form(max_diag_terms, dsl::PivotValues<cd>{cd(2), cd(0), cd(1), cd(0)}));
  CHECK(identity.al == 1.0);
  CHECK(identity.be == cd(0));
}
