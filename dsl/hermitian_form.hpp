#pragma once
// The complex lift of a rule (issue 11, item 3; docs/DESIGN.md section 7): unitary factors for
// complex tensors, derived from the same objective the real rule is written as.
//
// A complex rotation in the plane (p, q) is G = [[al, -conj(be)], [be, conj(al)]], |al|^2 + |be|^2
// = 1; the core takes C <- C x_n G^H and the factor U_n <- U_n G, so rows p and q of mode n become
//   C'[.. p@n ..] = conj(al) C[.. p@n ..] + conj(be) C[.. q@n ..],
//   C'[.. q@n ..] =     al  C[.. q@n ..] -      be  C[.. p@n ..],
// the real rotation's c a + s b and c d - s e with (c, s) -> (conj(al), conj(be)) on row p (the
// pivot entries a, b) and (c, s) -> (al, be) on row q (d, e). An objective written as a sum of
// squares of linear forms in (c, s), sum_k sq(x_k c + y_k s), lifts to sum_k |x_k al + y_k be|^2
// (a row-p term through |conj(z)| = |z|: |conj(x_k) al + conj(y_k) be|^2), a Hermitian quadratic
// form v^H H v in v = (al, be):
//   H11 = sum_k |x_k|^2,  H22 = sum_k |y_k|^2,  H12 = sum_k conj(x_k) y_k   (row p: x_k, y_k conjugated).
// Its maximizer on the sphere is the dominant eigenvector of H (unitary_rotation.hpp). For real
// entries H is the real rule's form: H11 - H22 = alpha - beta, 2 H12 = gamma (rule.hpp).
// max_diag lifts to H = [[|a|^2 + |d|^2, a conj(b) - conj(d) e], [.., |b|^2 + |e|^2]]. A linear
// objective (max_trace) has no such lift: its terms are not squares (complex_rule_terms refuses it).
#include <boost/hana/all_of.hpp>
#include <boost/hana/at.hpp>
#include <boost/hana/concat.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/keys.hpp>
#include <boost/hana/tuple.hpp>
#include <complex>
#include <type_traits>

#include "dsl/evaluate.hpp"
#include "dsl/polynomial.hpp"
#include "dsl/unitary_rotation.hpp"

namespace tensordiag::dsl {

// One squared linear form |x al + y be|^2; on_row_p: x and y are conjugated first.
template <class X, class Y>
struct HermitianTerm {
  X x;
  Y y;
  bool on_row_p;
};

// What an objective that is not a sum of squared one-row linear forms lifts to: nothing.
struct NoLift {};

// True when the expression mentions the symbol.
template <Symbol S, class T>
struct mentions_symbol : std::false_type {};
template <Symbol S, Symbol V>
struct mentions_symbol<S, Var<V>> : std::bool_constant<S == V> {};
template <Symbol S, class Op, class... Args>
struct mentions_symbol<S, Node<Op, Args...>> : std::bool_constant<(mentions_symbol<S, Args>::value || ...)> {};

template <class T>
inline constexpr bool mentions_row_p = mentions_symbol<Symbol::a, T>::value || mentions_symbol<Symbol::b, T>::value;
template <class T>
inline constexpr bool mentions_row_q = mentions_symbol<Symbol::d, T>::value || mentions_symbol<Symbol::e, T>::value;

template <class T>
constexpr NoLift hermitian_terms_of(const T&) {
  return {};
}

// The terms of sq(x c + y s) + ..., or NoLift: a term that is not a square, a square of a form that
// is not linear in (c, s), or one that mixes the rows (the rows take conjugate rotations).
template <class Op, class... Args>
constexpr auto hermitian_terms_of(const Node<Op, Args...>& node) {
  namespace hana = boost::hana;
  if constexpr (std::is_same_v<Op, op::add>) {
    const auto left = hermitian_terms_of(hana::at_c<0>(node.args));
    const auto right = hermitian_terms_of(hana::at_c<1>(node.args));
    if constexpr (std::is_same_v<decltype(left), const NoLift> || std::is_same_v<decltype(right), const NoLift>)
      return NoLift{};
    else
      return hana::concat(left, right);
  } else if constexpr (std::is_same_v<Op, op::sq>) {
    using Form = std::remove_cvref_t<decltype(hana::at_c<0>(node.args))>;
    const auto p = expand(hana::at_c<0>(node.args));
    using Keys = decltype(hana::keys(p));
    constexpr bool linear = decltype(hana::all_of(Keys{}, [](auto key) {
      return hana::bool_c<degree_of<decltype(key)> == 1>;
    }))::value;
    if constexpr (!linear || mentions_row_p<Form> == mentions_row_q<Form>) {
      return NoLift{};
    } else {
      const auto x = coefficient(p, monomial<1, 0>);
      const auto y = coefficient(p, monomial<0, 1>);
      return hana::make_tuple(HermitianTerm<decltype(x), decltype(y)>{x, y, mentions_row_p<Form>});
    }
  } else {
    return NoLift{};
  }
}

// Whether the rule has a complex lift: the complex engine takes exactly these rules.
template <class Rule>
inline constexpr bool has_hermitian_lift =
    !std::is_same_v<decltype(hermitian_terms_of(std::declval<const Rule&>().objective)), NoLift>;

// The terms of a rule's objective.
template <class Rule>
constexpr auto complex_rule_terms(const Rule& rule) {
  static_assert(has_hermitian_lift<Rule>,
                "tensordiag complex rule: the objective must be a sum of sq(x*c + y*s) terms, each holding "
                "the entries of one row (a, b or d, e)");
  return hermitian_terms_of(rule.objective);
}

// H of the lift (HermitianForm: unitary_rotation.hpp), at the pivot entries v (complex).
template <class R, class Terms>
HermitianForm<R> hermitian_form(const Terms& terms, const PivotValues<std::complex<R>>& v) {
  HermitianForm<R> h;
  boost::hana::for_each(terms, [&](const auto& term) {
    std::complex<R> x = evaluate(term.x, v), y = evaluate(term.y, v);
    if (term.on_row_p) {
      x = std::conj(x);
      y = std::conj(y);
    }
    add_hermitian_term(x, y, h.h11, h.h22, h.h12);
  });
  return h;
}

}  // namespace tensordiag::dsl
