// DESIGN.md section 4: a DSL rule is the one source of truth. The rule functions codegen emits into
// the kernels are compiled here by the host compiler (tests/tools/emit_rule_header.cpp writes them
// at build time) and must agree with the DSL's host evaluation, dsl::rotation, on random inputs.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>

#include "codegen/builtin_rules.hpp"
#include "codegen/codegen_error.hpp"
#include "codegen/rule_function.hpp"
#include "dsl/builtin_rules.hpp"
#include "dsl/hermitian_form.hpp"
#include "tests/custom_rules.hpp"
#include "tests/generated_rules.hpp"

using namespace tensordiag;

namespace {

// Pivot entries (a, b, d, e) over many scales, with the special cases the closed forms branch
// on: zeros (r = 0 gives the identity), repeated values, opposite values.
template <class T>
dsl::PivotValues<T> random_pivot(std::mt19937_64& random) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> exponent(-3.0, 3.0);
  std::uniform_int_distribution<int> special(0, 9);
  T v[4];
  for (T& x : v) x = static_cast<T>(normal(random) * std::pow(10.0, exponent(random)));
  switch (special(random)) {
    case 0: v[0] = v[1] = v[2] = v[3] = T(0); break;
    case 1: v[1] = v[3]; break;            // b = e
    case 2: v[2] = -v[0]; break;           // d = -a
    case 3: v[1] = T(0); v[3] = T(0); break;  // no coupling
    default: break;
  }
  return {v[0], v[1], v[2], v[3]};
}

// |generated - host| <= 4 ulp on both c and s (|c|, |s| <= 1); with the same operations in the
// same order, the two are equal bit for bit unless the compiler contracts to FMA.
template <class T, class Rule, class Generated>
void check_agreement(const Rule& rule, Generated generated, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const T tolerance = 4 * std::numeric_limits<T>::epsilon();
  int disagreements = 0;
  for (int i = 0; i < 4000; ++i) {
    const dsl::PivotValues<T> v = random_pivot<T>(random);
    const dsl::Givens<T> host = dsl::rotation(rule, v);
    const dsl::Givens<T> emitted = generated(v.a, v.b, v.d, v.e);
    if (std::abs(host.c - emitted.c) > tolerance || std::abs(host.s - emitted.s) > tolerance) {
      if (++disagreements <= 3)
        MESSAGE(rule.name, ": (a, b, d, e) = (", v.a, ", ", v.b, ", ", v.d, ", ", v.e, ") host (", host.c, ", ",
                host.s, ") emitted (", emitted.c, ", ", emitted.s, ")");
    }
  }
  CHECK_MESSAGE(disagreements == 0, rule.name);
}

template <class T>
void check_all_rules(std::uint64_t seed) {
  check_agreement<T>(dsl::rules::max_diag,
                     [](T a, T b, T d, T e) { return generated::max_diag::rule_rotation(a, b, d, e); }, seed);
  check_agreement<T>(dsl::rules::max_trace,
                     [](T a, T b, T d, T e) { return generated::max_trace::rule_rotation(a, b, d, e); }, seed + 1);
  check_agreement<T>(test_rules::every_operation,
                     [](T a, T b, T d, T e) { return generated::every_operation::rule_rotation(a, b, d, e); }, seed + 2);
  check_agreement<T>(test_rules::weighted,
                     [](T a, T b, T d, T e) { return generated::weighted::rule_rotation(a, b, d, e); }, seed + 3);
  check_agreement<T>(test_rules::without_d,
                     [](T a, T b, T d, T e) { return generated::without_d::rule_rotation(a, b, d, e); }, seed + 4);
}

}  // namespace

TEST_CASE("the emitted rule functions agree with dsl::rotation in float64") { check_all_rules<double>(20240611); }

TEST_CASE("the emitted rule functions agree with dsl::rotation in float32") { check_all_rules<float>(20240612); }

TEST_CASE("an emitted rule maps zero pivot entries to the identity, as the host does") {
  const auto g = generated::max_diag::rule_rotation(0.0, 0.0, 0.0, 0.0);
  CHECK(g.c == 1.0);
  CHECK(g.s == 0.0);
  const auto h = generated::max_trace::rule_rotation(0.0f, 0.0f, 0.0f, 0.0f);
  CHECK(h.c == 1.0f);
  CHECK(h.s == 0.0f);
}

namespace {

// Complex pivot entries over many scales, with the cases the closed form branches on: zeros (the
// identity), no coupling (h12 = 0), purely imaginary entries, and dominant row q (delta / r near -1).
template <class R>
dsl::PivotValues<std::complex<R>> random_complex_pivot(std::mt19937_64& random) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> exponent(-3.0, 3.0);
  std::uniform_int_distribution<int> special(0, 9);
  std::complex<R> v[4];
  for (std::complex<R>& x : v) {
    const double scale = std::pow(10.0, exponent(random));
    x = {static_cast<R>(normal(random) * scale), static_cast<R>(normal(random) * scale)};
  }
  switch (special(random)) {
    case 0: v[0] = v[1] = v[2] = v[3] = R(0); break;
    case 1: v[1] = v[3] = R(0); break;                         // no coupling
    case 2: for (auto& x : v) x = {R(0), x.imag()}; break;      // purely imaginary
    case 3: v[0] = v[2] = R(0); break;                         // the swap side
    default: break;
  }
  return {v[0], v[1], v[2], v[3]};
}

// The emitted complex function against the host's lift (dsl/hermitian_form.hpp, unitary_rotation)
// to 8 ulp of the real type: the same operations but for the compiler's contractions.
template <class R, class Rule, class Generated>
void check_complex_agreement(const Rule& rule, Generated generated, std::uint64_t seed) {
  const auto terms = dsl::complex_rule_terms(rule);
  std::mt19937_64 random(seed);
  const R tolerance = 8 * std::numeric_limits<R>::epsilon();
  int disagreements = 0, swaps = 0;
  for (int i = 0; i < 4000; ++i) {
    const dsl::PivotValues<std::complex<R>> v = random_complex_pivot<R>(random);
    const dsl::UnitaryGivens<R> host = dsl::unitary_rotation(dsl::hermitian_form(terms, v));
    using C = dsl::Complex<R>;
    const auto as_device = [](std::complex<R> z) { return C(z.real(), z.imag()); };
    const dsl::Givens<C> emitted = generated(as_device(v.a), as_device(v.b), as_device(v.d), as_device(v.e));
    swaps += host.al < R(0.5);
    const bool agrees = emitted.c.im == R(0) && std::abs(host.al - emitted.c.re) <= tolerance &&
                        std::abs(host.be - std::complex<R>(emitted.s.re, emitted.s.im)) <= tolerance;
    if (!agrees && ++disagreements <= 3)
      MESSAGE(rule.name, ": host (", host.al, ", ", host.be.real(), "+", host.be.imag(), "i) emitted (", emitted.c.re,
              ", ", emitted.s.re, "+", emitted.s.im, "i)");
  }
  CHECK_MESSAGE(disagreements == 0, rule.name);
  CHECK(swaps > 0);  // the near-swap branch was reached
}

}  // namespace

TEST_CASE("the emitted complex rule functions agree with the host's complex lift") {
  using C64 = dsl::Complex<float>;
  using C128 = dsl::Complex<double>;
  check_complex_agreement<double>(
      dsl::rules::max_diag, [](C128 a, C128 b, C128 d, C128 e) { return generated::max_diag::rule_rotation(a, b, d, e); },
      20261124);
  check_complex_agreement<float>(
      dsl::rules::max_diag, [](C64 a, C64 b, C64 d, C64 e) { return generated::max_diag::rule_rotation(a, b, d, e); },
      20261125);
  check_complex_agreement<double>(
      test_rules::scaled_rows,
      [](C128 a, C128 b, C128 d, C128 e) { return generated::scaled_rows::rule_rotation(a, b, d, e); }, 20261126);
  check_complex_agreement<float>(
      test_rules::scaled_rows,
      [](C64 a, C64 b, C64 d, C64 e) { return generated::scaled_rows::rule_rotation(a, b, d, e); }, 20261127);
}

TEST_CASE("a rule without a complex lift has no complex kernel function") {
  const codegen::LoweredRule trace = codegen::lower_builtin_rule("max_trace");
  CHECK(trace.hermitian_terms.empty());
  CHECK_THROWS_WITH_AS(codegen::rule_function(trace, codegen::ScalarType::complex64),
                       doctest::Contains("real-only"), codegen::codegen_error);
  CHECK(codegen::lower_builtin_rule("max_diag").hermitian_terms.size() == 2);
}
