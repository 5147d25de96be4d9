#pragma once
// The unitary Jacobi step of a complex symmetric tensor at any order D >= 2 (issue 11, item 3;
// docs/DESIGN.md section 7): the rotation G = [[a, -conj(b)], [b, conj(a)]] of the pair (p, q),
// the same in every mode (C <- C x_n G^H, U <- U G), that maximizes
//   f(G) = |C'_{p..p}|^2 + |C'_{q..q}|^2.
// At orders 2 and 3 f is a quadratic form on the Bloch sphere and dsl/symmetric_unitary_angle.hpp
// takes its maximizer in closed form; from order 4 it is a polynomial of degree 4 and more there,
// and this step climbs to a maximum by Newton's method on the sphere (to rounding), from the
// identity and from wherever a branch and bound over the sphere finds higher ground, until that
// search proves no point is more than 1e-7 (relative) above the best climb. Near a converged pivot
// bands of latitude prove it for the identity's climb without the cells (microseconds). Host
// only: the general GPU engine takes it on the host from its symmetric_pivot_sums.
#include <complex>
#include <span>
#include <string>
#include <vector>

#include "dsl/unitary_rotation.hpp"

namespace tensordiag::runtime {

// The values t_0 .. t_D of a symmetric pivot subtensor: t_k is the entry with k indices equal to q.
using SymmetricPivotValues = std::span<const std::complex<double>>;

// f of the rotation [[a, -conj(b)], [b, conj(a)]] (|a|^2 + |b|^2 = 1) in every mode.
double symmetric_unitary_objective(SymmetricPivotValues t, std::complex<double> a, std::complex<double> b);

// The pivot values after that rotation in every mode: t'_j = C'_{p^(D-j) q^j}.
std::vector<std::complex<double>> rotated_symmetric_pivot(SymmetricPivotValues t, std::complex<double> a,
                                                          std::complex<double> b);

// The maximizing rotation, al real and >= |be| (of the twins G and G [[0, -1], [1, 0]], which give
// the same f, the one nearer the identity), exactly the identity where the pivot's first-order
// change is under 2^-60 of its diagonal. Any order >= 2 (the tests compare it with the closed form
// at 2 and 3); t all zero gives the identity.
dsl::UnitaryGivens<double> symmetric_unitary_search(SymmetricPivotValues t);

// The steps of `count` pivots at once (t holds count x (order + 1) values, pivot k's from
// t[k (order + 1)]), on up to `threads` threads (0: OpenMP's default), each symmetric_unitary_search
// of its pivot: far from convergence a step takes milliseconds, so a group's pairs pay for the
// threads (near it, microseconds; measured: doing those one after another first was slower). One
// pivot (N = 2 and 3) shares its sphere's cells out to the threads instead. The same steps bit for
// bit whatever the threads.
std::vector<dsl::UnitaryGivens<double>> symmetric_unitary_searches(std::span<const std::complex<double>> t, int order,
                                                                   int threads);

}  // namespace tensordiag::runtime
