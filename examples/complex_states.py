#!/usr/bin/env python3
"""Complex n-qubit states diagonalized with unitary factors: GHZ and W under random local unitaries,
and random complex states.

A state |psi> = sum psi[i_1, .., i_n] |i_1 .. i_n> is a complex tensor of order n and size 2.
tensordiag writes it as psi = C x_1 U_1 ... x_n U_n with unitary 2 x 2 factors U_k (a local change
of basis on every qubit, which changes no entanglement; no conjugation in the mode products, so
C = psi x_1 U_1^H ... x_n U_n^H), with sum_i |C[i..i]|^2 as large as the Jacobi sweeps make it, and
every C[i..i] real and >= 0 (the phase of index i is moved into U_1). Each diagonal entry is an
overlap with a product state, C[i..i] = <u_1i (x) .. (x) u_ni | psi> with u_ki = conj of column i of
U_k, the two product states orthogonal on every qubit; so

  * max_i |C[i..i]|^2 <= max_phi |<phi|psi>|^2 = 1 - E_G(psi) (geometric measure of entanglement),
  * the share sum_i |C[i..i]|^2 / ||psi||^2 is 1 exactly for a generalized GHZ state
    a|u_1..u_n> + b|v_1..v_n>, u_k orthogonal to v_k.

The local unitaries here are Haar-random on U(2): they carry complex phases, which no real
(orthogonal) factor can undo, so the real engine cannot take these states at all. GHZ_n comes back
diagonal (share 1, both entries 1/sqrt2); W_n keeps mass off the diagonal, and its largest overlap
stays below the known maximum ((n-1)/n)^(n-1) (Wei and Goldbart 2003). Asserts what it prints;
exits non-zero if a claim fails.

Last, states of identical subsystems (the same unitary on every qubit, so the state stays
symmetric) with structure="symmetric": one U for every qubit (orders 2, 3 and 5; from order 4 the
step is the CPU's search over the Bloch sphere).
"""

import argparse
import sys

import numpy as np

import tensordiag


def ghz_state(n: int) -> np.ndarray:
    psi = np.zeros((2,) * n, dtype=complex)
    psi[(0,) * n] = psi[(1,) * n] = 1 / np.sqrt(2)
    return psi


def w_state(n: int) -> np.ndarray:
    psi = np.zeros((2,) * n, dtype=complex)
    for k in range(n):
        psi[tuple(1 if j == k else 0 for j in range(n))] = 1 / np.sqrt(n)
    return psi


def random_state(n: int, rng: np.random.Generator) -> np.ndarray:
    psi = rng.standard_normal((2,) * n) + 1j * rng.standard_normal((2,) * n)
    return psi / np.linalg.norm(psi)


def haar_unitary(rng: np.random.Generator) -> np.ndarray:
    q, r = np.linalg.qr(rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2)))
    return q * (np.diag(r) / np.abs(np.diag(r)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-qubits", type=int, default=8, help="largest n (3..12, default 8)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if not 3 <= args.max_qubits <= 12:
        parser.error("--max-qubits must be within 3..12")
    rng = np.random.default_rng(args.seed)
    failures = []

    def check(claim: bool, text: str) -> None:
        if not claim:
            failures.append(text)

    print(f"{'n':>2} {'state':<6} {'sweeps':>6} {'stop':<10} {'off_rel':>9} {'share':>8} {'max|C|^2':>8} "
          f"{'known max':>9} {'reconstruction':>14} {'unitarity':>9}")
    for n in range(3, args.max_qubits + 1):
        known = {"GHZ": 0.5, "W": ((n - 1) / n) ** (n - 1), "random": None}
        for name, psi in {"GHZ": ghz_state(n), "W": w_state(n), "random": random_state(n, rng)}.items():
            state = tensordiag.reconstruct(psi, [haar_unitary(rng) for _ in range(n)])
            result = tensordiag.diagonalize_full(state, max_sweeps=200, backend="cpu")
            diag = np.array([result.core[(i,) * n] for i in range(2)])
            share = float(np.sum(np.abs(diag) ** 2))
            top = float(np.max(np.abs(diag) ** 2))
            reconstruction = float(np.linalg.norm(tensordiag.reconstruct(result.core, result.factors) - state))
            unitarity = result.verification["orthogonality_error"]
            exact = "" if known[name] is None else f"{known[name]:.6f}"
            print(f"{n:>2} {name:<6} {result.sweeps:>6} {result.stop_reason:<10} {result.history[-1]['off_rel']:9.2e} "
                  f"{share:8.5f} {top:8.5f} {exact:>9} {reconstruction:14.2e} {unitarity:9.2e}")
            check(result.engine == "cpu_complex", f"{name}_{n}: engine {result.engine}")
            check(np.all(diag.imag == 0) and np.all(diag.real >= 0), f"{name}_{n}: diagonal not real >= 0")
            check(reconstruction < 1e-12, f"{name}_{n}: reconstruction error {reconstruction:.1e}")
            check(unitarity < 1e-13, f"{name}_{n}: unitarity error {unitarity:.1e}")
            check(top <= share <= 1 + 1e-12, f"{name}_{n}: max |C|^2 <= share <= 1")
            if name == "GHZ":
                check(abs(share - 1) < 1e-10, f"GHZ_{n}: share {share} != 1")
                check(np.allclose(diag, 1 / np.sqrt(2), atol=1e-10), f"GHZ_{n}: diagonal {diag} != 1/sqrt2")
            if name == "W":
                check(share < 0.9, f"W_{n}: share {share} is not below 0.9")
                check(top <= known["W"] + 1e-12, f"W_{n}: a product state overlaps more than the known maximum")
    # Identical subsystems: the same local unitary on every qubit keeps a state symmetric, and
    # structure="symmetric" takes one U for all of them (any order; from 4 a searched step). Two qubits: the Takagi
    # factorization psi = U C U^T, C's diagonal the Schmidt coefficients (the singular values).
    print(f"\n{'n':>2} {'symmetric':<9} {'sweeps':>6} {'share':>8} {'max|C|^2':>8} {'known max':>9} "
          f"{'reconstruction':>14} {'unitarity':>9}")
    pair = rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2))
    pair = (pair + pair.T) / np.linalg.norm(pair + pair.T)
    for n, name, psi in [(2, "random", pair), (3, "GHZ", ghz_state(3)), (3, "W", w_state(3)), (5, "GHZ", ghz_state(5)),
                         (5, "W", w_state(5))]:
        v = haar_unitary(rng)
        state = tensordiag.reconstruct(psi, [v] * n)
        result = tensordiag.diagonalize_full(state, structure="symmetric", max_sweeps=200, backend="cpu")
        diag = np.array([result.core[(i,) * n] for i in range(2)])
        share = float(np.sum(np.abs(diag) ** 2))
        top = float(np.max(np.abs(diag) ** 2))
        reconstruction = float(np.linalg.norm(tensordiag.reconstruct(result.core, result.factors) - state))
        unitarity = result.verification["orthogonality_error"]
        known = {"random": None, "GHZ": 0.5, "W": ((n - 1) / n) ** (n - 1)}[name]
        exact = "" if known is None else f"{known:.6f}"
        print(f"{n:>2} {name:<9} {result.sweeps:>6} {share:8.5f} {top:8.5f} {exact:>9} {reconstruction:14.2e} "
              f"{unitarity:9.2e}")
        check(all(np.array_equal(u, result.factors[0]) for u in result.factors), f"symmetric {name}_{n}: factors differ")
        check(np.all(diag.imag == 0) and np.all(diag.real >= 0), f"symmetric {name}_{n}: diagonal not real >= 0")
        check(reconstruction < 1e-12, f"symmetric {name}_{n}: reconstruction error {reconstruction:.1e}")
        check(unitarity < 1e-13, f"symmetric {name}_{n}: unitarity error {unitarity:.1e}")
        if n == 2:
            schmidt = np.linalg.svd(state, compute_uv=False)
            check(np.allclose(np.sort(diag.real)[::-1], schmidt, rtol=1e-12, atol=0),
                  f"symmetric pair: diagonal {diag} != Schmidt coefficients {schmidt}")
        if name == "GHZ":
            check(np.allclose(diag, 1 / np.sqrt(2), atol=1e-10), f"symmetric GHZ_{n}: diagonal {diag} != 1/sqrt2")
        if name == "W":
            check(top <= known + 1e-12, f"symmetric W_{n}: a product state overlaps more than {known:.6f}")
    print("""
What it says:
  GHZ: the unitary factors undo the random local unitaries, phases included: the core is diagonal
       (share 1) with both entries 1/sqrt2, real and >= 0.
  W:   no local unitary makes it diagonal (share < 1), and no diagonal entry beats the known largest
       overlap of W with a product state.
  random: random complex states are far from both forms; their share falls as n grows.
  symmetric (one U on every qubit, identical subsystems): a symmetric two-qubit state's diagonal is
       its Schmidt coefficients (Takagi); GHZ_3 and GHZ_5 come back diagonal with one U; W_3 and W_5
       stay below their largest product overlaps, 4/9 and (4/5)^4.""")
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
