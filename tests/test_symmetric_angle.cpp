// The kernels' symmetric angle (dsl/symmetric_angle.hpp: f's Fourier coefficients in 4 phi, the
// closed form at D = 3, the real roots of a polynomial of degree 2 floor(D/2) on two charts from
// D = 4), compiled here as host code, against the host engine's companion-matrix maximizer
// (runtime/algorithm/symmetric_rotation.hpp) on the same t_0 .. t_D: the same objective value to
// 1e-12 relative, the same angle where the maximizer is unique, never below the identity.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "dsl/symmetric_angle.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/algorithm/symmetric_rotation.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;

namespace {

constexpr int max_order = 16;

// The kernels' angle (dsl::symmetric_angle<D>) for the run-time D = t.size() - 1, as the CPU
// engine calls it.
dsl::Givens<double> device_angle(const std::vector<double>& t) { return symmetric_angle(t); }

double angle_of(dsl::Givens<double> g) { return std::atan2(g.s, g.c); }

// The distance of two angles modulo pi/2, f's period.
double angle_distance(double x, double y) { return std::abs(std::remainder(x - y, std::numbers::pi / 2)); }

// Whether f's maximum over the circle is reached at one angle (mod pi/2) only: the best two local
// maxima of a grid of `points` angles over a period differ by more than `gap` relative.
bool unique_maximizer(const HomogeneousPolynomial& f, int points, double gap) {
  std::vector<double> values(static_cast<std::size_t>(points));
  const double step = std::numbers::pi / 2 / points;
  for (int i = 0; i < points; ++i) values[static_cast<std::size_t>(i)] = f(std::cos(step * i), std::sin(step * i));
  double best = -1.0, second = -1.0;
  for (int i = 0; i < points; ++i) {
    const double v = values[static_cast<std::size_t>(i)];
    const double left = values[static_cast<std::size_t>((i + points - 1) % points)];
    const double right = values[static_cast<std::size_t>((i + 1) % points)];
    if (v >= left && v > right) {
      if (v > best) second = best, best = v;
      else if (v > second) second = v;
    }
  }
  return second < best * (1 - gap);
}

std::vector<double> random_values(int order, RandomStream& random) {
  std::vector<double> t(static_cast<std::size_t>(order) + 1);
  for (double& x : t) x = random.gaussian();
  return t;
}

// The checks of one t: the objective value of the kernels' angle against the host's, the identity
// never beaten, the angle in (-pi/4, pi/4] and on the circle. Returns the two angles.
std::pair<double, double> check_against_host(const std::vector<double>& t) {
  const HomogeneousPolynomial f = symmetric_diag_objective(t);
  const SymmetricRotation host = best_symmetric_rotation(t);
  const dsl::Givens<double> g = device_angle(t);
  const double found = f(g.c, g.s), expected = f(host.rotation.c, host.rotation.s), before = f(1.0, 0.0);
  CAPTURE(t.size() - 1);
  CAPTURE(angle_of(g));
  CAPTURE(angle_of(host.rotation));
  CHECK(std::abs(found - expected) <= 1e-12 * expected);
  CHECK(found >= before * (1 - 1e-15));
  CHECK(g.c * g.c + g.s * g.s == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(g.c >= std::sqrt(0.5) - 1e-15);  // phi in [-pi/4, pi/4]
  // The twin rule's open end, except for D = 2, whose closed form (the host's too) gives -pi/4
  // where t_0 = t_2 and t_1 < 0.
  if (t.size() > 3) CHECK(angle_of(g) > -std::numbers::pi / 4);
  return {angle_of(g), angle_of(host.rotation)};
}

}  // namespace

TEST_CASE("symmetric angle: the root isolation finds the companion matrix's maximizer on random pivots, D = 2..16") {
  RandomStream random(81);
  int unique = 0;
  for (int order = 2; order <= max_order; ++order)
    for (int trial = 0; trial < 300; ++trial) {
      const auto t = random_values(order, random);
      const auto [found, expected] = check_against_host(t);
      if (unique_maximizer(symmetric_diag_objective(t), 4000, 1e-6)) {
        ++unique;
        CAPTURE(order);
        CAPTURE(trial);
        CHECK(angle_distance(found, expected) <= 1e-7);
      }
    }
  CHECK(unique > 4000);  // of 4500: most random pivots have one maximizer
}

TEST_CASE("symmetric angle: near-diagonal pivots (the last sweeps) give the host's small angle to relative precision") {
  RandomStream random(82);
  for (int order = 3; order <= max_order; ++order)
    for (const double off : {1e-4, 1e-9, 1e-14})
      for (int trial = 0; trial < 20; ++trial) {
        auto t = random_values(order, random);
        for (std::size_t k = 1; k + 1 < t.size(); ++k) t[k] *= off;
        const auto [found, expected] = check_against_host(t);
        CAPTURE(order);
        CAPTURE(off);
        // Near the identity f's maximizer is unique and simple. The host's Newton polish stops at
        // steps of 1e-17 absolute, hence the absolute term.
        CHECK(std::abs(found - expected) <= 1e-8 * std::abs(expected) + 1e-16);
      }
}

TEST_CASE("symmetric angle: degenerate and adversarial pivots never lose to the identity or to the host") {
  RandomStream random(83);
  for (int order = 2; order <= max_order; ++order) {
    const auto n = static_cast<std::size_t>(order) + 1;
    std::vector<std::vector<double>> cases;
    cases.push_back(std::vector<double>(n, 1.0));   // all equal
    cases.push_back(std::vector<double>(n, 0.0));   // zero: the identity
    std::vector<double> alternating(n), corner(n, 0.0), middle(n, 0.0), diagonal(n, 0.0), ends(n);
    for (std::size_t k = 0; k < n; ++k) alternating[k] = k % 2 ? -1.0 : 1.0;
    corner[0] = 1.0;
    middle[n / 2] = 1.0;
    diagonal[0] = 2.0;
    diagonal[n - 1] = -1.0;
    cases.insert(cases.end(), {alternating, corner, middle, diagonal});
    // t_0 = t_D (f symmetric about pi/4), with random middles; equal ends of opposite signs.
    for (int trial = 0; trial < 10; ++trial) {
      ends = random_values(order, random);
      ends.back() = trial % 2 ? ends.front() : -ends.front();
      cases.push_back(ends);
    }
    // Huge and tiny scales: the maximizer does not change with the scale.
    for (const double scale : {1e100, 1e-100, 1e150}) {
      auto t = random_values(order, random);
      const dsl::Givens<double> unit = device_angle(t);
      for (double& x : t) x *= scale;
      const dsl::Givens<double> scaled = device_angle(t);
      CAPTURE(scale);
      CHECK(angle_distance(angle_of(unit), angle_of(scaled)) <= 1e-12);
      if (scale < 1e150) cases.push_back(t);
    }
    for (const auto& t : cases) check_against_host(t);
    // A zero pivot stays where it is.
    CHECK(device_angle(std::vector<double>(n, 0.0)).s == 0.0);
  }
}

TEST_CASE("symmetric angle: D = 2 is the host's classical Jacobi rotation, bit for bit") {
  RandomStream random(84);
  for (int trial = 0; trial < 200; ++trial) {
    const auto t = random_values(2, random);
    const dsl::Givens<double> g = device_angle(t);
    const dsl::Givens<double> host = best_symmetric_rotation(t).rotation;
    CHECK(g.c == host.c);
    CHECK(g.s == host.s);
  }
}

TEST_CASE("symmetric angle: orders 17..31 (the Fourier tables' 64-bit range) reach the companion matrix's objective") {
  RandomStream random(85);
  for (int order = 17; order <= max_dsl_symmetric_order; ++order)
    for (int trial = 0; trial < 12; ++trial) check_against_host(random_values(order, random));
}

namespace {

// The candidates of one chart polynomial over its 16 pieces, in order (dsl::symmetric_piece_candidates).
template <int K>
std::vector<double> chart_candidates(const dsl::SymmetricChart<K>& chart) {
  std::vector<double> found;
  for (int piece = 0; piece < dsl::symmetric_chart_pieces; ++piece)
    dsl::symmetric_piece_candidates<K>(chart, piece, [&](double u) { found.push_back(u); });
  return found;
}

// P = sign * prod (u - r_i) * prod ((u - x_j)^2 + y_j^2) expanded, with P'.
template <int K>
dsl::SymmetricChart<K> chart_from_roots(double sign, const std::vector<double>& real_roots,
                                        const std::vector<std::pair<double, double>>& complex_roots) {
  std::vector<double> p{sign};
  auto multiply = [&](const std::vector<double>& factor) {
    std::vector<double> out(p.size() + factor.size() - 1, 0.0);
    for (std::size_t i = 0; i < p.size(); ++i)
      for (std::size_t j = 0; j < factor.size(); ++j) out[i + j] += p[i] * factor[j];
    p = out;
  };
  for (const double r : real_roots) multiply({-r, 1.0});
  for (const auto& [x, y] : complex_roots) multiply({x * x + y * y, -2 * x, 1.0});
  REQUIRE(p.size() == 2 * K + 1);
  dsl::SymmetricChart<K> chart{};
  for (int j = 0; j <= 2 * K; ++j) chart.p[j] = p[static_cast<std::size_t>(j)];
  for (int j = 0; j < 2 * K; ++j) chart.dp[j] = (j + 1) * chart.p[j + 1];
  return chart;
}

// A real root of the chart's polynomial, whether P falls there (P' < 0), and how far rounding the
// expanded coefficients may move it: 64 eps sum_j |p_j| |r|^j / |P'(r)|.
struct PlantedRoot {
  double value;
  bool falling;
  double radius;
};

// Random roots for a polynomial of degree 2K: real ones in [-1.2, 1.2] (some in clusters 1e-3 .. 1e-7
// apart, which the pieces must halve down to), the rest complex pairs, some near the axis (1e-4).
template <int K>
std::pair<dsl::SymmetricChart<K>, std::vector<PlantedRoot>> random_chart(RandomStream& random) {
  constexpr int M = 2 * K;
  std::vector<double> real_roots;
  std::vector<std::pair<double, double>> complex_roots;
  const int pairs = static_cast<int>(random.uniform() * (K + 1));  // 0..K complex pairs
  while (static_cast<int>(real_roots.size()) < M - 2 * pairs) {
    const double r = -1.2 + 2.4 * random.uniform();
    real_roots.push_back(r);
    if (random.uniform() < 0.3 && static_cast<int>(real_roots.size()) < M - 2 * pairs)
      real_roots.push_back(r + std::pow(10.0, -3.0 - 4.0 * random.uniform()));
  }
  for (int j = 0; j < pairs; ++j)
    complex_roots.emplace_back(-1.2 + 2.4 * random.uniform(), std::pow(10.0, -4.0 * random.uniform()));
  const double sign = random.uniform() < 0.5 ? -1.0 : 1.0;
  const auto chart = chart_from_roots<K>(sign, real_roots, complex_roots);
  std::vector<PlantedRoot> roots;
  for (std::size_t i = 0; i < real_roots.size(); ++i) {
    const double r = real_roots[i];
    double slope = sign;  // P'(r) = sign * prod_{j != i} (r - r_j) * prod ((r - x)^2 + y^2)
    for (std::size_t j = 0; j < real_roots.size(); ++j)
      if (j != i) slope *= r - real_roots[j];
    for (const auto& [x, y] : complex_roots) slope *= (r - x) * (r - x) + y * y;
    double size = 0.0;
    for (int j = 0; j <= M; ++j) size += std::abs(chart.p[j]) * std::pow(std::abs(r), j);
    roots.push_back({r, slope < 0.0, 64 * std::numeric_limits<double>::epsilon() * size / std::abs(slope)});
  }
  std::sort(roots.begin(), roots.end(), [](const PlantedRoot& x, const PlantedRoot& y) { return x.value < y.value; });
  return {chart, roots};
}

template <int K>
void check_pieces_find_the_falling_roots(std::uint64_t seed, int trials) {
  RandomStream random(seed);
  int exact_counts = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const auto [chart, roots] = random_chart<K>(random);
    const std::vector<double> found = chart_candidates<K>(chart);
    CAPTURE(K);
    CAPTURE(trial);
    // Each falling root in (-1, 1) that rounding cannot merge with a neighbour or move past an end
    // is a candidate, within its radius.
    bool well_posed = true;
    std::vector<PlantedRoot> falling;
    for (std::size_t i = 0; i < roots.size(); ++i) {
      const double r = roots[i].value, radius = roots[i].radius;
      const bool apart = (i == 0 || r - roots[i - 1].value > 4 * (radius + roots[i - 1].radius)) &&
                         (i + 1 == roots.size() || roots[i + 1].value - r > 4 * (radius + roots[i + 1].radius));
      const bool inside = r > -1.0 + radius && r < 1.0 - radius, outside = r < -1.0 - radius || r > 1.0 + radius;
      well_posed = well_posed && apart && (inside || outside);
      if (!roots[i].falling || !inside) continue;
      falling.push_back(roots[i]);
      if (!apart) continue;
      CAPTURE(r);
      CAPTURE(radius);
      CHECK(std::any_of(found.begin(), found.end(), [&](double u) { return std::abs(u - r) <= radius; }));
    }
    // Where every root is well apart, the candidates are exactly the falling roots, in order:
    // the rising roots and the complex pairs near the axis leave none.
    if (well_posed) {
      ++exact_counts;
      REQUIRE(found.size() == falling.size());
      for (std::size_t i = 0; i < found.size(); ++i) CHECK(std::abs(found[i] - falling[i].value) <= falling[i].radius);
    }
  }
  CHECK(exact_counts > trials / 3);  // the exact check is not vacuous (degree 16 crowds its roots)
}

}  // namespace

TEST_CASE("symmetric angle: a chart's pieces give exactly the roots where P falls, clusters and near-real pairs included") {
  check_pieces_find_the_falling_roots<2>(91, 3000);
  check_pieces_find_the_falling_roots<3>(92, 3000);
  check_pieces_find_the_falling_roots<4>(93, 2000);
  check_pieces_find_the_falling_roots<8>(94, 500);
}

TEST_CASE("symmetric angle: a double root (P touches 0) is no candidate, the simple falling roots beside it are") {
  // P = (u - 0.3)^2 (u + 0.5) (u - 0.7) * -1: falls at -0.5? P' there = -(0.8^2)(-1.2) > 0: rises;
  // at 0.7: -(0.4^2)(1.2) < 0: falls. 0.3 is a double root, no sign change.
  const auto chart = chart_from_roots<2>(-1.0, {0.3, 0.3, -0.5, 0.7}, {});
  const std::vector<double> found = chart_candidates<2>(chart);
  // Rounding near the double root may leave a candidate close to it (the midpoint of an interval
  // halved to the deepest): only a candidate, its gain decides. The falling root is found.
  REQUIRE(!found.empty());
  CHECK(std::count_if(found.begin(), found.end(), [](double u) { return std::abs(u - 0.7) <= 1e-14; }) == 1);
  for (const double u : found) CHECK((std::abs(u - 0.7) <= 1e-14 || std::abs(u - 0.3) <= 1e-6));
}

// The checks of a rotation computed in float (`single`) against the double one of the pivot values
// t: f at least the double rotation's and the identity's less `rounding`, on the circle to float's
// rounding, and where f's maximizer is unique the double angle to float's relative precision; and
// symmetric_angle_for<double> is the double rotation, bit for bit. True where the angles were compared.
bool check_float_rotation(const std::vector<double>& t, dsl::Givens<double> single, double rounding) {
  const HomogeneousPolynomial f = symmetric_diag_objective(t);
  const dsl::Givens<double> twice = symmetric_angle(t);
  CHECK(f(single.c, single.s) >= f(twice.c, twice.s) - rounding);
  CHECK(f(single.c, single.s) >= f(1.0, 0.0) - rounding);
  CHECK(single.c * single.c + single.s * single.s == doctest::Approx(1.0).epsilon(4e-7));
  const dsl::Givens<double> again = symmetric_angle_for<double>(t);
  CHECK(again.c == twice.c);
  CHECK(again.s == twice.s);
  if (!unique_maximizer(f, 720, 1e-3)) return false;
  const double phi = angle_of(twice);
  CHECK(angle_distance(angle_of(single), phi) <= 1e-5 * std::abs(phi) + 1e-6);
  return true;
}

// Order 3 in float (symmetric_angle_for<float>, the kernels' symmetric_angle_in<3, float>), the
// engines' rotation for a float32 tensor: on random pivots and on near-diagonal ones down to
// off-diagonal means of 1e-6, its objective is the double angle's to float's rounding (f evaluated in
// double at the float (c, s)), never below the identity's but by that rounding, and its angle the
// double one's to float's relative precision where the maximizer is unique; double is unchanged.
// Order 2, and the orders dsl::symmetric_search_in_float leaves out, keep double in float32 tensors.
TEST_CASE("symmetric angle: order 3 in float for float32 tensors reaches the double angle's objective") {
  RandomStream random(2611);
  int compared = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<double> t = random_values(3, random);
    const double off = trial < 1000 ? 1.0 : std::pow(10.0, -1.0 - 5.0 * random.uniform());
    t[1] *= off;
    t[2] *= off;
    CAPTURE(t[0]);
    CAPTURE(t[1]);
    CAPTURE(t[2]);
    CAPTURE(t[3]);
    const double scale = *std::max_element(t.begin(), t.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    const double rounding = 64 * std::numeric_limits<float>::epsilon() * scale * scale;
    if (check_float_rotation(t, symmetric_angle_for<float>(t), rounding)) ++compared;
  }
  CHECK(compared > 2000);
  // Orders 2, 4, 7, 8 and 12: double whatever the tensor's type (symmetric_search_in_float).
  static_assert(!dsl::symmetric_search_in_float<4> && dsl::symmetric_search_in_float<5> &&
                dsl::symmetric_search_in_float<6> && !dsl::symmetric_search_in_float<7>);
  for (const int order : {2, 4, 7, 8, 12}) {
    const std::vector<double> t = random_values(order, random);
    const dsl::Givens<double> single = symmetric_angle_for<float>(t), twice = symmetric_angle(t);
    CHECK(single.c == twice.c);
    CHECK(single.s == twice.s);
  }
}

// The search in float for order D (dsl::symmetric_searched_tangent<D, float> from the means rounded
// to float), widened: what symmetric_angle_in<D, float> takes where symmetric_search_in_float<D>.
template <int D>
dsl::Givens<double> float_search(const std::vector<double>& t) {
  float narrow[D + 1];
  for (int k = 0; k <= D; ++k) narrow[k] = static_cast<float>(t[static_cast<std::size_t>(k)]);
  dsl::SymmetricFourier<D, float> fourier;
  if (!dsl::symmetric_fourier<D, float>(narrow, fourier)) return {1.0, 0.0};
  const dsl::Givens<float> g = dsl::symmetric_angle_rotation<float>(dsl::symmetric_searched_tangent<D, float>(fourier));
  return {g.c, g.s};
}

dsl::Givens<double> float_search(const std::vector<double>& t) {
  switch (t.size() - 1) {
    case 4: return float_search<4>(t);
    case 5: return float_search<5>(t);
    case 6: return float_search<6>(t);
    case 7: return float_search<7>(t);
    default: return float_search<8>(t);
  }
}

// The search in float at orders 4 to 8 (charts, Bernstein pieces, bracketed Newton steps in float;
// the engines take it for float32 tensors at dsl::symmetric_search_in_float's orders): on random
// pivots and on near-diagonal ones down to off-diagonal means of 1e-6, its objective (f evaluated in
// double at the float (c, s)) is the double search's to float's rounding of f's size, never below
// the identity's but by that rounding, and where the maximizer is unique its angle is the double
// one's to float's relative precision. Where the engines take it, symmetric_angle_for<float> is it,
// and symmetric_angle_for<double> is the double search, bit for bit.
TEST_CASE("symmetric angle: the search in float at orders 4 to 8 reaches the double search's objective") {
  RandomStream random(2612);
  for (int order = 4; order <= 8; ++order) {
    CAPTURE(order);
    int compared = 0;
    for (int trial = 0; trial < 1500; ++trial) {
      std::vector<double> t = random_values(order, random);
      const double off = trial < 500 ? 1.0 : std::pow(10.0, -1.0 - 5.0 * random.uniform());
      for (int k = 1; k < order; ++k) t[static_cast<std::size_t>(k)] *= off;
      const dsl::Givens<double> single = float_search(t), twice = symmetric_angle(t);
      CAPTURE(trial);
      if (order == 5 || order == 6) {
        const dsl::Givens<double> engines = symmetric_angle_for<float>(t);
        CHECK(engines.c == single.c);
        CHECK(engines.s == single.s);
      }
      const HomogeneousPolynomial f = symmetric_diag_objective(t);
      if (check_float_rotation(t, single, 64 * std::numeric_limits<float>::epsilon() * f(twice.c, twice.s))) ++compared;
    }
    CHECK(compared > 500);
  }
}
