// The searched unitary step of complex symmetric tensors (issue 11, item 3, orders >= 4;
// runtime/algorithm/symmetric_unitary_search.hpp): the closed form's rotation at orders 2 and 3,
// at least a brute-force maximum over the sphere at orders 4 to 8, a stationary point of full
// relative precision near a converged pivot, the identity exactly where the pivot is diagonal,
// and a group's pivots searched on several threads, each as alone, as is one pivot whose cells
// the threads share.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "bloch_sphere_search.hpp"
#include "dsl/symmetric_unitary_angle.hpp"
#include "runtime/algorithm/symmetric_unitary_search.hpp"

namespace {

using namespace tensordiag::runtime;
using cd = std::complex<double>;

std::vector<cd> random_values(int order, std::mt19937_64& random, double off_scale = 1.0) {
  return tensordiag::testing::random_pivot_values(order, random, off_scale);
}

double objective(const std::vector<cd>& t, const tensordiag::dsl::UnitaryGivens<double>& g) {
  return symmetric_unitary_objective(t, cd(g.al), g.be);
}

// A brute-force maximum of f over the Bloch sphere: knows nothing of the branch and bound.
double brute_force_maximum(const std::vector<cd>& t, int steps) {
  return tensordiag::testing::brute_force_bloch_maximum(
      [&](double theta, double phi) {
        return symmetric_unitary_objective(t, std::cos(theta / 2), std::polar(std::sin(theta / 2), phi));
      },
      steps);
}

// |f'| at the rotation g along the sphere, from the pivot values re-centred there: the linear
// coefficient of f(w) = f0 + 2 Re(G w) + .. is G = t0 conj(D t1) - conj(tD) D t_(D-1).
double gradient_at(const std::vector<cd>& t, const tensordiag::dsl::UnitaryGivens<double>& g) {
  const std::vector<cd> r = rotated_symmetric_pivot(t, cd(g.al), g.be);
  const int d = static_cast<int>(t.size()) - 1;
  const double order = d;
  return std::abs(r[0] * std::conj(order * r[1]) -
                  std::conj(r[static_cast<std::size_t>(d)]) * (order * r[static_cast<std::size_t>(d - 1)]));
}

}  // namespace

TEST_CASE("symmetric unitary search: the rotated pivot values are those of the mode products, and f their ends") {
  // Order 1 is a vector: t' = G^H t. Order 2 a matrix: T' = G^H T conj(G).
  const cd a(0.6, 0.3), b(std::polar(std::sqrt(1.0 - std::norm(cd(0.6, 0.3))), 0.7));
  const std::vector<cd> v{cd(1.0, -2.0), cd(0.5, 0.25)};
  const std::vector<cd> v_rotated = rotated_symmetric_pivot(v, a, b);
  CHECK(std::abs(v_rotated[0] - (std::conj(a) * v[0] + std::conj(b) * v[1])) <= 1e-15);
  CHECK(std::abs(v_rotated[1] - (-b * v[0] + a * v[1])) <= 1e-15);
  const std::vector<cd> m{cd(1.0, 0.5), cd(-0.3, 0.2), cd(0.7, -1.1)};  // [[m0, m1], [m1, m2]]
  const cd h[2][2] = {{std::conj(a), std::conj(b)}, {-b, a}};            // G^H
  const cd t[2][2] = {{m[0], m[1]}, {m[1], m[2]}};
  const std::vector<cd> m_rotated = rotated_symmetric_pivot(m, a, b);
  for (int i = 0; i < 2; ++i)
    for (int j = i; j < 2; ++j) {
      cd expected = 0.0;
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 2; ++l) expected += h[i][k] * t[k][l] * h[j][l];
      CHECK(std::abs(m_rotated[static_cast<std::size_t>(i + j)] - expected) <= 1e-14);
    }
  CHECK(symmetric_unitary_objective(m, a, b) ==
        doctest::Approx(std::norm(m_rotated[0]) + std::norm(m_rotated[2])).epsilon(1e-14));
}

TEST_CASE("symmetric unitary search: at orders 2 and 3 it finds the closed form's rotation") {
  std::mt19937_64 random(2027);
  for (int order : {2, 3})
    for (int trial = 0; trial < 60; ++trial) {
      CAPTURE(order);
      CAPTURE(trial);
      const std::vector<cd> t = random_values(order, random, trial % 3 == 0 ? 1e-3 : 1.0);
      std::vector<double> re, im;
      for (const cd& x : t) re.push_back(x.real()), im.push_back(x.imag());
      tensordiag::dsl::UnitaryGivens<double> closed;
      double be_re = 0.0, be_im = 0.0;
      tensordiag::dsl::symmetric_unitary_rotation(order, re.data(), im.data(), closed.al, be_re, be_im);
      closed.be = cd(be_re, be_im);
      const tensordiag::dsl::UnitaryGivens<double> searched = symmetric_unitary_search(t);
      CHECK(searched.al >= std::abs(searched.be) - 1e-15);
      CHECK(searched.al * searched.al + std::norm(searched.be) == doctest::Approx(1.0).epsilon(1e-14));
      CHECK(objective(t, searched) == doctest::Approx(objective(t, closed)).epsilon(1e-13));
      // Random pivots have one maximizer (up to the twin, which both exclude).
      CHECK(std::abs(searched.al - closed.al) <= 1e-7);
      CHECK(std::abs(searched.be - closed.be) <= 1e-7);
    }
}

TEST_CASE("symmetric unitary search: at orders 4 to 8 it reaches the brute-force maximum, at a stationary point") {
  std::mt19937_64 random(4711);
  for (int order = 4; order <= 8; ++order)
    for (int trial = 0; trial < 8; ++trial) {
      CAPTURE(order);
      CAPTURE(trial);
      const std::vector<cd> t = random_values(order, random, trial % 2 == 0 ? 1.0 : 0.3);
      const tensordiag::dsl::UnitaryGivens<double> g = symmetric_unitary_search(t);
      const double f = objective(t, g);
      const double brute = brute_force_maximum(t, 60);
      CHECK(f >= brute * (1.0 - 1e-12));
      CHECK(f >= symmetric_unitary_objective(t, 1.0, 0.0));
      CHECK(g.al >= std::abs(g.be) - 1e-15);
      CHECK(g.al * g.al + std::norm(g.be) == doctest::Approx(1.0).epsilon(1e-14));
      CHECK(gradient_at(t, g) <= 1e-12 * f);
    }
}

TEST_CASE("symmetric unitary search: near a converged pivot a small step of full relative precision, the identity "
          "where the change is under 2^-60") {
  std::mt19937_64 random(99);
  for (int order : {4, 5, 7})
    for (const double off : {1e-4, 1e-8, 1e-12}) {
      CAPTURE(order);
      CAPTURE(off);
      const std::vector<cd> t = random_values(order, random, off);
      const tensordiag::dsl::UnitaryGivens<double> g = symmetric_unitary_search(t);
      // The step is of the off-diagonal's size, and f is stationary there to its precision: the
      // gradient at the identity is about off, at the step about off * eps.
      CHECK(std::abs(g.be) <= 100.0 * off);
      CHECK(std::abs(g.be) >= 1e-3 * off);
      CHECK(gradient_at(t, g) <= 1e-13 * off);
    }
  for (int order : {4, 6}) {
    std::vector<cd> t = random_values(order, random, 0x1p-70);
    const tensordiag::dsl::UnitaryGivens<double> g = symmetric_unitary_search(t);
    CHECK(g.al == 1.0);
    CHECK(g.be == cd(0.0));
    // A diagonal pivot whose identity is not the maximum (all weight on t_2) still moves.
    std::vector<cd> middle(static_cast<std::size_t>(order) + 1, cd(0.0));
    middle[2] = cd(1.0, 0.5);
    const tensordiag::dsl::UnitaryGivens<double> moved = symmetric_unitary_search(middle);
    CHECK(objective(middle, moved) >= brute_force_maximum(middle, 60) * (1.0 - 1e-12));
    CHECK(objective(middle, moved) > 0.1);
  }
}

TEST_CASE("symmetric unitary search: near-diagonal pivots, where bands of latitude replace the sphere's cells, reach "
          "the brute-force maximum") {
  // Orders 4 to 12, the middle values scaled from 0.3 (the bands fail: the cells search) down to
  // 1e-6 (the bands prove the identity's climb highest), some with one middle value 100 times the
  // others, and some with t_D much smaller than t_0 (the twin pole's cap carries less).
  std::mt19937_64 random(2090);
  for (const int order : {4, 6, 9, 12})
    for (const double off : {0.3, 3e-2, 1e-3, 1e-6})
      for (int variant = 0; variant < 3; ++variant) {
        CAPTURE(order);
        CAPTURE(off);
        CAPTURE(variant);
        std::vector<cd> t = random_values(order, random, off);
        if (variant == 1) t[static_cast<std::size_t>(1 + order / 2)] *= 100.0;
        if (variant == 2) t.back() *= 1e-3;
        const tensordiag::dsl::UnitaryGivens<double> g = symmetric_unitary_search(t);
        const double f = objective(t, g);
        CHECK(f >= brute_force_maximum(t, 60) * (1.0 - 1e-12));
        CHECK(gradient_at(t, g) <= 1e-12 * f);
      }
}

TEST_CASE("symmetric unitary search: a group's pivots on several threads are each its own search, bit for bit") {
  // The engines' batch (symmetric_unitary_searches): random and near-diagonal pivots of orders 4
  // and 6, in one array; each step must be exactly the serial search of its own values.
  std::mt19937_64 random(2061);
  for (const int order : {4, 6}) {
    CAPTURE(order);
    std::vector<cd> values;
    std::vector<tensordiag::dsl::UnitaryGivens<double>> alone;
    for (int k = 0; k < 7; ++k) {
      const std::vector<cd> t = random_values(order, random, k % 2 == 0 ? 1.0 : 1e-4);
      values.insert(values.end(), t.begin(), t.end());
      alone.push_back(symmetric_unitary_search(t));
    }
    for (const int threads : {1, 3}) {
      CAPTURE(threads);
      const std::vector<tensordiag::dsl::UnitaryGivens<double>> together = symmetric_unitary_searches(values, order, threads);
      REQUIRE(together.size() == alone.size());
      for (std::size_t k = 0; k < alone.size(); ++k) {
        CAPTURE(k);
        CHECK(together[k].al == alone[k].al);
        CHECK(together[k].be == alone[k].be);
        CHECK(alone[k].al * alone[k].al + std::norm(alone[k].be) == doctest::Approx(1.0).epsilon(1e-14));
      }
    }
  }
}

TEST_CASE("symmetric unitary search: one pivot's search with its cells on several threads is the one-thread search, "
          "bit for bit") {
  // symmetric_unitary_searches with one pivot (N = 2 and 3: one pair a group) shares each level's
  // cells out to its threads and takes them back in order: far pivots (their first grid alone is
  // hundreds of cells) and converging ones. In about one far pivot of twelve the identity's climb
  // is not the answer and the cells decide it, so there are many of them.
  std::mt19937_64 random(2062);
  const auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
  for (const auto& [order, off, pivots] : {std::tuple{4, 1.0, 30}, {5, 1.0, 30}, {6, 1.0, 20}, {8, 1.0, 4}, {8, 1e-2, 4},
                                           {12, 1.0, 2}, {12, 1e-2, 2}})
    for (int k = 0; k < pivots; ++k) {
      CAPTURE(order);
      CAPTURE(off);
      const std::vector<cd> t = random_values(order, random, off);
      const tensordiag::dsl::UnitaryGivens<double> alone = symmetric_unitary_search(t);
      for (const int threads : {2, 3}) {
        CAPTURE(threads);
        const std::vector<tensordiag::dsl::UnitaryGivens<double>> shared = symmetric_unitary_searches(t, order, threads);
        REQUIRE(shared.size() == 1);
        CHECK(bits(shared[0].al) == bits(alone.al));
        CHECK(bits(shared[0].be.real()) == bits(alone.be.real()));
        CHECK(bits(shared[0].be.imag()) == bits(alone.be.imag()));
      }
      CHECK(objective(t, alone) >= objective(t, {}) * (1.0 - 1e-15));  // an ascent: at least the identity's f
    }
}
