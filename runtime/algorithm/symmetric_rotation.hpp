#pragma once
// The Jacobi step of a symmetric tensor (DESIGN.md section 7; Comon 1994, Li, Usevich and Comon,
// SIMAX 2018): every mode rotated in the plane (p, q) by one Givens rotation G(phi),
//   A[.. p@n ..] <- c A_p + s A_q,  A[.. q@n ..] <- -s A_p + c A_q  for all n.
// The pivot subtensor A[{p,q}^D] of a symmetric A holds D + 1 distinct values t_k, k = the number
// of indices equal to q. Expanding the D mode products,
//   C'_{p..p}(phi) = sum_k binom(D, k) t_k c^(D-k) s^k,
//   C'_{q..q}(phi) = sum_k binom(D, k) t_k (-s)^(D-k) c^k,
// and the pair's share of ||diag C||^2 is f(phi) = C'_{p..p}^2 + C'_{q..q}^2, homogeneous of degree
// 2D in (c, s). Its maximizer is a stationary point, a real root of df/dphi (companion matrix,
// homogeneous_polynomial.hpp), polished by Newton steps on df/dphi; phi = 0 (the identity) is a
// candidate too, so the step never lowers the objective. D = 2 (the classical Jacobi eigenvalue
// step) takes the closed form tan 2phi = 2 t_1 / (t_0 - t_2) instead.
//
// f(phi + pi/2) = f(phi): c -> -s, s -> c swaps C'_{p..p} and C'_{q..q} (up to sign). Every
// maximizer therefore has a twin in (-pi/4, pi/4], and that one is taken: the smallest rotation,
// so the factor converges as the core does (as in the classical Jacobi eigenvalue method, D = 2).
#include <span>

#include "dsl/givens.hpp"
#include "runtime/algorithm/homogeneous_polynomial.hpp"

namespace tensordiag::runtime {

// C'_{p..p} and C'_{q..q} as polynomials of degree D in (c, s), from t_0 .. t_D.
HomogeneousPolynomial rotated_diagonal_p(std::span<const double> t);
HomogeneousPolynomial rotated_diagonal_q(std::span<const double> t);
// f = C'_{p..p}^2 + C'_{q..q}^2, degree 2D.
HomogeneousPolynomial symmetric_diag_objective(std::span<const double> t);

struct SymmetricRotation {
  dsl::Givens<double> rotation;  // phi in [-pi/4, pi/4]
  double objective_before = 0.0;  // f(0) = t_0^2 + t_D^2
  double objective_after = 0.0;   // f(phi) >= f(0)
};

// The maximizer of f over the circle from t_0 .. t_D (D >= 2), by the companion matrix: the
// independent reference the tests hold the engines' angle to.
SymmetricRotation best_symmetric_rotation(std::span<const double> t);

// The engines' maximizer: dsl/symmetric_angle.hpp (f's Fourier coefficients in 4 phi, then a closed
// form at D <= 3 or the real roots of a polynomial of degree 2 floor(D/2)), the kernels' code, for
// the run-time D = t.size() - 1 <= max_dsl_symmetric_order; the companion matrix above it.
// 10-90x faster than best_symmetric_rotation (D = 3: 0.09 us against 7.8 us a pivot, one core).
inline constexpr int max_dsl_symmetric_order = 31;
dsl::Givens<double> symmetric_angle(std::span<const double> t);

// The rotation the engines take for a tensor of real type T (the kernels' symmetric_angle_in):
// from order 3 (to max_dsl_symmetric_order) in T's precision, float for float32 (as the general
// engine's rules run in the tensor's type: the closed form's and the search's chains in double were
// each symmetric group step's latency on the GPU); order 2, or double, symmetric_angle.
template <class T>
dsl::Givens<double> symmetric_angle_for(std::span<const double> t);

}  // namespace tensordiag::runtime
