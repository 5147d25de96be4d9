// Complex symmetric tensors with one unitary factor (issue 11, item 3; DESIGN.md section 7): the
// unitary step's rotation against a brute-force maximizer over the sphere and against the real
// symmetric angle, ascent of every step, recovery of planted S x_1 U .. x_D U (orders 2 to 6), the
// Takagi values of a random complex symmetric matrix, symmetry and unitarity kept, and the inputs it
// refuses.
#include <doctest/doctest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <vector>

#include "bloch_sphere_search.hpp"
#include "complex_recovery.hpp"
#include "dsl/symmetric_unitary_angle.hpp"
#include "runtime/algorithm/complex_generator.hpp"
#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/symmetric_rotation.hpp"
#include "runtime/algorithm/symmetry_check.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize_complex.hpp"
#include "runtime/engines/cpu_complex_symmetric_engine.hpp"
#include "runtime/engines/cpu_symmetric_engine.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/engines/pivot_subtensor.hpp"

namespace {

using namespace tensordiag::runtime;
using tensordiag::user_error;
using cd = std::complex<double>;
using tensordiag::testing::check_columns_up_to_phase;
using tensordiag::testing::check_diagonal_is_moduli;

double binomial(int n, int k) {
  double b = 1.0;
  for (int i = 1; i <= k; ++i) b = b * (n - k + i) / i;
  return b;
}

// f = |C'_{p..p}|^2 + |C'_{q..q}|^2 of the pivot values t with every mode rotated by the unitary
// whose first column is (al, be): C'_{p..p} = P(u), C'_{q..q} = P(v), v = (-conj(be), conj(al)).
double objective(const std::vector<cd>& t, cd al, cd be) {
  const int order = static_cast<int>(t.size()) - 1;
  const auto p = [&](cd x, cd y) {
    cd sum = 0.0;
    for (int k = 0; k <= order; ++k)
      sum += binomial(order, k) * t[static_cast<std::size_t>(k)] * std::pow(std::conj(x), order - k) *
             std::pow(std::conj(y), k);
    return sum;
  };
  return std::norm(p(al, be)) + std::norm(p(-std::conj(be), std::conj(al)));
}

std::vector<cd> random_values(int order, std::mt19937_64& random, double off_scale = 1.0) {
  return tensordiag::testing::random_pivot_values(order, random, off_scale);
}

// A brute-force maximizer of f over the Bloch sphere that knows nothing of the closed form.
double brute_force_maximum(const std::vector<cd>& t) {
  return tensordiag::testing::brute_force_bloch_maximum(
      [&](double theta, double phi) { return objective(t, std::cos(theta / 2), std::polar(std::sin(theta / 2), phi)); },
      90);
}

Options cpu_options() {
  Options options;
  options.backend = Backend::cpu;
  options.structure = Structure::symmetric;
  options.verify = true;
  options.max_sweeps = 60;
  return options;
}

GeneratedComplexTensor<double> planted(int order, int size, std::uint64_t seed, Layout layout = Layout::c_order,
                                       double noise = 0.0) {
  return tensordiag::testing::planted_complex<double>(order, size, seed, layout, noise, Structure::symmetric);
}

double largest_abs(const HostTensor<cd>& t) {
  double m = 0.0;
  for (std::size_t i = 0; i < t.count(); ++i) m = std::max(m, std::abs(t.data()[i]));
  return m;
}

}  // namespace

TEST_CASE("complex symmetric rotation: the closed form reaches the brute-force maximum over the sphere") {
  std::mt19937_64 random(2026'11'27);
  for (const int order : {2, 3})
    for (const double off_scale : {1.0, 0.3, 1e-3}) {
      for (int trial = 0; trial < 12; ++trial) {
        const std::vector<cd> t = random_values(order, random, off_scale);
        const tensordiag::dsl::UnitaryGivens<double> g = complex_symmetric_rotation(t);
        CAPTURE(order);
        CAPTURE(off_scale);
        CHECK(g.al * g.al + std::norm(g.be) == doctest::Approx(1.0).epsilon(1e-15));
        CHECK(g.al >= std::sqrt(0.5) - 1e-15);  // the twin nearest the identity
        const double found = objective(t, g.al, g.be), best = brute_force_maximum(t);
        CHECK(found >= best * (1 - 1e-12));
        CHECK(found >= objective(t, 1.0, 0.0) * (1 - 1e-15));  // never below the identity
      }
    }
}

// A complex64 tensor's step at order 3 (complex_symmetric_rotation<float>: the closed form in float
// from the means rounded to float, as the kernels take it; order 2 in double, the same bits as
// complex128's): on random pivots and near-diagonal ones down to
// off-diagonal scale 1e-6, its objective is the double step's less 64 float epsilons of it, never
// below the identity's but by that; it is unitary to float's rounding, the twin nearest the
// identity, and, where the form's top eigenvalue is separated, the double step's to float's rounding
// over the gap; complex128's step is the double one, bit for bit.
TEST_CASE("complex symmetric rotation: in float for complex64 tensors it reaches the double step's objective") {
  std::mt19937_64 random(2026'11'28);
  int compared = 0;
  for (const int order : {2, 3})
    for (const double off_scale : {1.0, 0.3, 1e-3, 1e-6}) {
      for (int trial = 0; trial < 200; ++trial) {
        const std::vector<cd> t = random_values(order, random, off_scale);
        const tensordiag::dsl::UnitaryGivens<double> single = complex_symmetric_rotation<float>(t);
        const tensordiag::dsl::UnitaryGivens<double> twice = complex_symmetric_rotation<double>(t);
        CAPTURE(order);
        CAPTURE(off_scale);
        CAPTURE(trial);
        const double best = objective(t, twice.al, twice.be);
        const double rounding = 64 * std::numeric_limits<float>::epsilon() * best;
        CHECK(objective(t, single.al, single.be) >= best - rounding);
        CHECK(objective(t, single.al, single.be) >= objective(t, 1.0, 0.0) - rounding);
        CHECK(single.al * single.al + std::norm(single.be) == doctest::Approx(1.0).epsilon(4e-7));
        CHECK(single.al >= std::sqrt(0.5) - 1e-6);
        // The step is the form's dominant eigenvector, which float's rounding of the form moves by
        // about eps |A| / gap: compared, to 16 times that, where the gap is over 5% of |A|.
        std::vector<double> re, im;
        for (const cd& x : t) re.push_back(x.real()), im.push_back(x.imag());
        double form[3][3];
        tensordiag::dsl::symmetric_unitary_form(order, re.data(), im.data(), form);
        Eigen::Matrix3d a;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) a(i, j) = form[i][j];
        const Eigen::Vector3d eigenvalues = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(a).eigenvalues();
        const double size = eigenvalues.cwiseAbs().maxCoeff(), gap = eigenvalues(2) - eigenvalues(1);
        if (gap > 0.05 * size) {
          ++compared;
          const double moved = 16 * std::numeric_limits<float>::epsilon() * size / gap + 1e-6;
          CHECK(std::abs(single.al - twice.al) <= moved);
          CHECK(std::abs(single.be - twice.be) <= moved);
        }
        const tensordiag::dsl::UnitaryGivens<double> plain = complex_symmetric_rotation(t);
        CHECK(plain.al == twice.al);
        CHECK(plain.be == twice.be);
        if (order == 2) {
          CHECK(single.al == twice.al);
          CHECK(single.be == twice.be);
        }
      }
    }
  CHECK(compared > 1200);
}

TEST_CASE("complex symmetric rotation: real pivot values of order 2 give the real Jacobi angle, of order 3 at least its objective") {
  std::mt19937_64 random(77);
  std::normal_distribution<double> gauss;
  for (const int order : {2, 3})
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> real(static_cast<std::size_t>(order) + 1);
      for (double& x : real) x = gauss(random);
      const std::vector<cd> t(real.begin(), real.end());
      const tensordiag::dsl::UnitaryGivens<double> g = complex_symmetric_rotation(t);
      const tensordiag::dsl::Givens<double> expected = symmetric_angle(real);
      CAPTURE(order);
      if (order == 2) {  // a real symmetric matrix: Takagi's U is the eigenvector basis, up to phases
        CHECK(std::abs(g.be.imag()) <= 1e-15);
        CHECK(g.al == doctest::Approx(expected.c).epsilon(1e-12));
        CHECK(g.be.real() == doctest::Approx(expected.s).epsilon(1e-12));
      } else {
        // The unitary orbit is larger than the orthogonal one: the best unitary step often leaves
        // the real circle (n_2 != 0) and gains more than the real angle.
        CHECK(objective(t, g.al, g.be) >= objective(t, expected.c, expected.s) * (1 - 1e-14));
      }
    }
}

TEST_CASE("complex symmetric rotation: a diagonal pivot keeps the identity, a near-diagonal one a step of full relative precision") {
  const std::vector<cd> diagonal{{2.0, 1.0}, 0.0, 0.0, {-1.5, 0.5}};
  const tensordiag::dsl::UnitaryGivens<double> identity = complex_symmetric_rotation(diagonal);
  CHECK(identity.al == 1.0);
  CHECK(identity.be == cd(0.0));
  // Off-diagonal values under 2^-60 of the diagonal's: exactly the identity (the CPU pass skips it),
  // as the cyclic Jacobi's skipped rotations gave it; at 1e-15 a step.
  for (const double tiny : {1e-20, 1e-15}) {
    const std::vector<cd> near{{2.0, 1.0}, cd{1.0, -2.0} * tiny, cd{-3.0, 1.0} * tiny, {-1.5, 0.5}};
    const tensordiag::dsl::UnitaryGivens<double> g = complex_symmetric_rotation(near);
    CAPTURE(tiny);
    CHECK((g.al == 1.0 && g.be == cd(0.0)) == (tiny < 1e-18));
  }
  // Off-diagonal values eps x: the step is eps be_1 + O(eps^2). Its gain over the identity is
  // ~eps^2 of f (below f's rounding at eps = 1e-9), so no comparison of values could find it: the
  // step is held to its first-order term instead, which a formula that cancels would lose.
  for (const int order : {2, 3}) {
    const std::vector<cd> x{{2.0, 1.0}, {1.0, -2.0}, {-3.0, 1.0}, {-1.5, 0.5}};
    const auto step = [&](double eps) {
      std::vector<cd> t(x.begin(), x.begin() + order + 1);
      for (int k = 1; k < order; ++k) t[static_cast<std::size_t>(k)] *= eps;
      t[static_cast<std::size_t>(order)] = x[3];
      return complex_symmetric_rotation(t).be / eps;
    };
    const cd first = step(1e-6);
    CAPTURE(order);
    CHECK(std::abs(first) > 0.01);
    CHECK(std::abs(step(1e-9) - first) <= 1e-5 * std::abs(first));
    CHECK(std::abs(step(1e-12) - first) <= 1e-5 * std::abs(first));
  }
}

TEST_CASE("complex symmetric rotation: near a diagonal pivot the fixed point gives the dominant eigenvector, each "
          "component to 4e-15 of itself") {
  // Forms a e_3 e_3^T + scale x (E, B entries), random signs and magnitudes, that dominant_near_e3
  // takes. Reference: the same map iterated in long double to its fixed point, which is checked to
  // be an eigenvector (residual) of the largest eigenvalue (Eigen's). The small components carry
  // the step's first-order term, so they are held relatively. The cyclic Jacobi gives the same
  // vector, but its small components only to about 1e-10 of themselves at scale 1e-6 (the
  // fixed point is the more precise one; it measured 6e-16 there against a long double reference).
  std::mt19937_64 random(2611);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  int taken = 0;
  for (const double scale : {1e-1, 3e-2, 1e-3, 1e-6, 1e-9, 1e-12}) {
    for (int trial = 0; trial < 50; ++trial) {
      const double top = 0.5 + std::abs(uniform(random));
      const double e1 = scale * uniform(random), e2 = scale * uniform(random);
      const double b1 = scale * uniform(random), b2 = scale * uniform(random);
      const double form[3][3] = {{e1, -e2, b1}, {-e2, -e1, -b2}, {b1, -b2, top}};
      double near[3][3], jacobi[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
      std::copy(&form[0][0], &form[0][0] + 9, &near[0][0]);
      std::copy(&form[0][0], &form[0][0] + 9, &jacobi[0][0]);
      double fixed[3];
      if (!tensordiag::dsl::symmetric_unitary_detail::dominant_near_e3(near, fixed)) continue;
      ++taken;
      CAPTURE(scale);
      long double l = top, w[3] = {0.0L, 0.0L, 1.0L};
      const long double e_norm2 = static_cast<long double>(e1) * e1 + static_cast<long double>(e2) * e2;
      for (int step = 0; step < 60; ++step) {
        const long double inverse = 1.0L / (l * l - e_norm2);
        w[0] = ((e1 + l) * b1 + static_cast<long double>(e2) * b2) * inverse;
        w[1] = ((e1 - l) * b2 - static_cast<long double>(e2) * b1) * inverse;
        l = top + b1 * w[0] - b2 * w[1];
      }
      for (int i = 0; i < 3; ++i) {
        long double residual = -l * w[i];
        for (int k = 0; k < 3; ++k) residual += form[i][k] * w[k];
        CHECK(static_cast<double>(std::fabs(residual)) <= 1e-17 * top);
      }
      Eigen::Matrix3d matrix;
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) matrix(i, k) = form[i][k];
      CHECK(static_cast<double>(l) >= Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(matrix).eigenvalues().maxCoeff() - 1e-14 * top);
      const long double w_norm = std::sqrt(w[0] * w[0] + w[1] * w[1] + 1.0L);
      const double norm = std::sqrt(fixed[0] * fixed[0] + fixed[1] * fixed[1] + 1.0);
      for (int sweep = 0; sweep < 8; ++sweep)
        for (const auto& [p, q] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}})
          tensordiag::dsl::symmetric_unitary_detail::jacobi_rotate(jacobi, v, p, q);
      const double sign = v[2][2] < 0 ? -1.0 : 1.0;
      for (int i = 0; i < 3; ++i) {
        const double expected = static_cast<double>(w[i] / w_norm);
        CHECK(std::abs(fixed[i] / norm - expected) <= 4e-15 * std::abs(expected));
        CHECK(std::abs(sign * v[i][2] - expected) <= 1e-9 * std::abs(expected));
      }
    }
  }
  CHECK(taken >= 250);  // the larger scales leave the region now and then; the rest are all in it
  // Outside the region (entries over an eighth of a, or a <= 0) it declines.
  const double wide[3][3] = {{0.3, 0.0, 0.0}, {0.0, -0.3, 0.0}, {0.0, 0.0, 1.0}};
  const double negative[3][3] = {{0.0, 0.0, 1e-9}, {0.0, 0.0, 0.0}, {1e-9, 0.0, -1.0}};
  double n[3];
  CHECK_FALSE(tensordiag::dsl::symmetric_unitary_detail::dominant_near_e3(wide, n));
  CHECK_FALSE(tensordiag::dsl::symmetric_unitary_detail::dominant_near_e3(negative, n));
}

TEST_CASE("complex symmetric engine: every step raises ||diag C||^2 and keeps C symmetric") {
  for (const auto& [order, size, seed] : {std::tuple{2, 7, 11}, std::tuple{3, 5, 12}, std::tuple{3, 6, 13},
                                          std::tuple{4, 4, 14}, std::tuple{5, 3, 15}}) {
    CAPTURE(order);
    HostTensor<cd> core = planted(order, size, static_cast<std::uint64_t>(seed), Layout::c_order, 0.5).tensor;
    const double scale = diag_norm2(core) + off_norm2(core);
    double before = diag_norm2(core);
    for (int sweep = 0; sweep < 3; ++sweep)
      for (const PivotGroup& group : round_robin_schedule(size))
        for (const PivotPair pair : group) {
          const tensordiag::dsl::UnitaryGivens<double> g = complex_symmetric_rotation(
              symmetric_pivot_values(gather_pivot_subtensor(core.data(), core.strides(), pair), order));
          GroupRotations<cd> one(order, PivotGroup{pair});
          set_in_every_mode(one, 0, PlaneRotation<cd>{g.al, g.be});
          apply_group_pass(core, one, 1);
          const double after = diag_norm2(core);
          CHECK(after >= before - 1e-14 * scale);
          before = after;
        }
    CHECK(symmetry_deviation(core).largest <= 1e-14 * largest_abs(core));
  }
}

TEST_CASE("complex symmetric engine: planted S x_1 U .. x_D U recovered to 1e-12, one U up to phase and permutation") {
  const double eps = std::numeric_limits<double>::epsilon();
  // Orders 2 and 3 take the closed-form step, 4 to 6 the searched one (symmetric_unitary_search.hpp).
  for (const auto& [order, size, seed] :
       {std::tuple{2, 6, 1}, std::tuple{2, 9, 2}, std::tuple{3, 4, 3}, std::tuple{3, 6, 4}, std::tuple{3, 7, 5},
        std::tuple{4, 3, 6}, std::tuple{4, 5, 7}, std::tuple{5, 4, 8}, std::tuple{6, 3, 9}}) {
    for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
      CAPTURE(order);
      CAPTURE(size);
      const GeneratedComplexTensor<double> truth = planted(order, size, static_cast<std::uint64_t>(seed), layout);
      const Result<cd> result = diagonalize_complex(truth.tensor, cpu_options());
      REQUIRE(result.converged());
      CHECK(result.engine == "cpu_complex");
      CHECK(result.structure == Structure::symmetric);
      CHECK(result.history.back().off_rel <= 1e-12);
      const double bound = 30.0 * size * order * eps;
      CHECK(result.verification->reconstruction_error <= bound);
      CHECK(result.verification->orthogonality_error <= bound);
      CHECK(symmetry_deviation(result.core).largest <= 1e-14 * largest_abs(result.core));
      for (int n = 1; n < order; ++n) CHECK(result.factors[static_cast<std::size_t>(n)].data == result.factors[0].data);
      check_diagonal_is_moduli(result.core, truth.diagonal, 1e-12);
      check_columns_up_to_phase(result.factors.front(), truth.factors.front());  // |U^H Q| a permutation matrix
    }
  }
}

TEST_CASE("complex symmetric engine: order 2 is the Takagi factorization, |C_ii| the singular values") {
  std::mt19937_64 random(31);
  std::normal_distribution<double> gauss;
  for (const int size : {5, 8, 13}) {
    HostTensor<cd> a(2, size);
    for (int i = 0; i < size; ++i)
      for (int j = i; j < size; ++j) {
        const cd x(gauss(random), gauss(random));
        a.values()[static_cast<std::size_t>(i * size + j)] = x;
        a.values()[static_cast<std::size_t>(j * size + i)] = x;
      }
    const Result<cd> result = diagonalize_complex(a, cpu_options());
    REQUIRE(result.converged());
    CHECK(result.history.back().off_rel <= 1e-12);
    Eigen::MatrixXcd m(size, size);
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) m(i, j) = a.values()[static_cast<std::size_t>(i * size + j)];
    const Eigen::JacobiSVD<Eigen::MatrixXcd> svd(m);
    std::vector<double> found;
    for (int i = 0; i < size; ++i) found.push_back(result.core.data()[i * result.core.diagonal_stride()].real());
    std::sort(found.rbegin(), found.rend());
    for (int i = 0; i < size; ++i) CHECK(found[static_cast<std::size_t>(i)] == doctest::Approx(svd.singularValues()(i)).epsilon(1e-12));
    CHECK(result.verification->reconstruction_error <= 30.0 * size * 2 * std::numeric_limits<double>::epsilon());
  }
}

TEST_CASE("complex symmetric engine: complex64, noise, the HOSVD start and the xor schedule") {
  const GeneratedComplexTensor<float> single =
      tensordiag::testing::planted_complex<float>(3, 8, 61, Layout::c_order, 0.0, Structure::symmetric);
  Options options = cpu_options();
  const Result<std::complex<float>> result = diagonalize_complex(single.tensor, options);
  CHECK(result.converged());
  CHECK(result.history.back().off_rel <= 1e-5);
  CHECK(result.verification->reconstruction_error <= 30.0 * 8 * 3 * std::numeric_limits<float>::epsilon());
  // A noisy tensor is not diagonalizable: the objective rises every sweep and the run stalls.
  const GeneratedComplexTensor<double> noisy = planted(3, 6, 62, Layout::c_order, 0.1);
  const Result<cd> stalled = diagonalize_complex(noisy.tensor, cpu_options());
  for (std::size_t k = 1; k < stalled.history.size(); ++k)
    CHECK(stalled.history[k].diag_norm2 >= stalled.history[k - 1].diag_norm2 * (1 - 1e-14));
  CHECK(stalled.history.back().off_rel < 0.5);
  CHECK(symmetry_deviation(stalled.core).largest <= 1e-14 * largest_abs(stalled.core));
  // The HOSVD start (one basis for every mode) and the xor schedule reach the planted answer too.
  const GeneratedComplexTensor<double> truth = planted(3, 8, 63);
  for (const bool hosvd : {false, true}) {
    Options other = cpu_options();
    other.init = hosvd ? Init::hosvd : Init::identity;
    other.schedule = hosvd ? SweepSchedule::automatic : SweepSchedule::xor_subspaces;
    const Result<cd> run = diagonalize_complex(truth.tensor, other);
    CAPTURE(hosvd);
    CHECK(run.history.back().off_rel <= 1e-12);
    CHECK(run.verification->reconstruction_error <= 30.0 * 8 * 3 * std::numeric_limits<double>::epsilon());
    for (int n = 1; n < 3; ++n) CHECK(run.factors[static_cast<std::size_t>(n)].data == run.factors[0].data);
  }
}

TEST_CASE("complex symmetric engine: a tensor that is not symmetric, structure skew: one-line errors") {
  HostTensor<cd> t = planted(3, 4, 71).tensor;
  t.values()[1] += cd(0.0, 1e-3);  // T[0, 0, 1] no longer equals T[0, 1, 0]
  CHECK_THROWS_WITH_AS(diagonalize_complex(t, cpu_options()), doctest::Contains("the tensor is not symmetric"), user_error);
  // A Hermitian matrix (a physicist's operator) is not symmetric: the line says what it is.
  HostTensor<cd> hermitian(2, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      hermitian.values()[static_cast<std::size_t>(3 * i + j)] = i == j ? cd(i + 1.0) : cd(i + j, i < j ? 1.0 : -1.0);
  CHECK_THROWS_WITH_AS(diagonalize_complex(hermitian, cpu_options()),
                       doctest::Contains("this matrix is Hermitian, T[i, j] = conj(T[j, i]): its eigendecomposition is "
                                         "numpy.linalg.eigh"),
                       user_error);
  try {  // a tensor that is neither gets no such hint
    diagonalize_complex(t, cpu_options());
    FAIL("a tensor that is not symmetric ran");
  } catch (const user_error& error) {
    CHECK(std::string(error.what()).find("Hermitian") == std::string::npos);
  }
  Options skew = cpu_options();
  skew.structure = Structure::skew;
  CHECK_THROWS_WITH_AS(diagonalize_complex(planted(3, 4, 73).tensor, skew), doctest::Contains("structure skew takes real"),
                       user_error);
}
