#!/usr/bin/env python3
"""Multipartite entanglement of n-qubit states, read off the diagonalized amplitude tensor.

A real n-qubit state |psi> = sum psi[i_1, .., i_n] |i_1 .. i_n> is a tensor of order n and size 2.
tensordiag writes it as psi = C x_1 M_1 ... x_n M_n with orthogonal 2 x 2 factors M_k: a change of
basis on every qubit (a local real unitary, which changes no entanglement), chosen to make the core C
as diagonal as it can (rule max_diag: maximize ||diag C||^2). Each diagonal entry is an overlap with
a product state,

    C[i, .., i] = <m_1i (x) m_2i (x) .. (x) m_ni | psi>,   m_ki = column i of M_k,

and the two product states (i = 0, 1) are orthogonal on every qubit. For a normalized state:

  * max_i C[i..i]^2 is the squared overlap of psi with a product state, so it is at most
    max_phi |<phi|psi>|^2 = 1 - E_G(psi), E_G the geometric measure of entanglement:
    1 - max_i C[i..i]^2 is an upper bound on E_G.
  * ||diag C||^2 = C[0..0]^2 + C[1..1]^2 <= ||psi||^2 = 1, with equality exactly when
    psi = a |u_1 .. u_n> + b |v_1 .. v_n>, u_k orthogonal to v_k: a generalized GHZ state in some
    local basis. The share ||diag C||^2 / ||psi||^2 is how much of the state such a form captures.

GHZ_n = (|0..0> + |1..1>)/sqrt2 has that form (share 1, E_G = 1/2). W_n = (|10..0> + |010..0> + ..
+ |0..01>)/sqrt(n) lies in another SLOCC class (Duer, Vidal, Cirac 2000): no local basis makes it
diagonal, and its largest overlap with a product state is ((n-1)/n)^(n-1) (4/9 for n = 3; Wei and
Goldbart 2003). Every state is first put into a random local basis, so that tensordiag has to find
the basis rather than start in it. The run stops at a local maximum of ||diag C||^2.

Asserts what it prints; exits non-zero if a claim fails.
"""

import argparse
import sys

import numpy as np

import tensordiag


def ghz_state(n: int) -> np.ndarray:
    psi = np.zeros((2,) * n)
    psi[(0,) * n] = psi[(1,) * n] = 1 / np.sqrt(2)
    return psi


def w_state(n: int) -> np.ndarray:
    psi = np.zeros((2,) * n)
    for k in range(n):
        psi[tuple(1 if j == k else 0 for j in range(n))] = 1 / np.sqrt(n)
    return psi


def random_state(n: int, rng: np.random.Generator) -> np.ndarray:
    psi = rng.standard_normal((2,) * n)
    return psi / np.linalg.norm(psi)


def w_max_overlap2(n: int) -> float:
    """max over product states of |<phi|W_n>|^2 (Wei and Goldbart 2003)."""
    return ((n - 1) / n) ** (n - 1)


def in_random_local_basis(psi: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """psi x_1 R_1 ... x_n R_n with random 2 x 2 rotations R_k."""
    def rotation(angle: float) -> np.ndarray:
        return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    return tensordiag.reconstruct(psi, [rotation(rng.uniform(0, 2 * np.pi)) for _ in range(psi.ndim)])


def diagonalize_state(psi: np.ndarray) -> dict:
    """Diagonalize the amplitude tensor; the figures this example prints and checks."""
    result = tensordiag.diagonalize_full(psi, max_sweeps=200)
    diag2 = tensordiag.diagonal(result.core) ** 2
    norm2 = float(np.sum(psi ** 2))
    reconstruction = np.linalg.norm(tensordiag.reconstruct(result.core, result.factors) - psi) / np.sqrt(norm2)
    return {"result": result, "share": float(diag2.sum()) / norm2, "max_overlap2": float(diag2.max()) / norm2,
            "off_rel": result.history[-1]["off_rel"], "reconstruction": float(reconstruction)}


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

    print(f"{'n':>2} {'state':<6} {'sweeps':>6} {'stop':<10} {'off_rel':>9} {'share':>8} {'max C^2':>8} "
          f"{'max |<phi|psi>|^2':>17} {'E_G <=':>7}")
    for n in range(3, args.max_qubits + 1):
        known = {"GHZ": 0.5, "W": w_max_overlap2(n), "random": None}
        states = {"GHZ": ghz_state(n), "W": w_state(n), "random": random_state(n, rng)}
        for name, psi in states.items():
            figures = diagonalize_state(in_random_local_basis(psi, rng))
            result = figures["result"]
            exact = "" if known[name] is None else f"{known[name]:.6f}"
            print(f"{n:>2} {name:<6} {result.sweeps:>6} {result.stop_reason:<10} {figures['off_rel']:9.2e} "
                  f"{figures['share']:8.5f} {figures['max_overlap2']:8.5f} {exact:>17} "
                  f"{1 - figures['max_overlap2']:7.4f}")
            check(figures["reconstruction"] < 1e-12, f"{name}_{n}: reconstruction error {figures['reconstruction']:.1e}")
            check(figures["max_overlap2"] <= figures["share"] <= 1 + 1e-12, f"{name}_{n}: max C^2 <= share <= 1")
            if name == "GHZ":
                check(figures["off_rel"] < 1e-6, f"GHZ_{n}: off_rel {figures['off_rel']:.1e} >= 1e-6")
                check(abs(figures["share"] - 1) < 1e-10, f"GHZ_{n}: share {figures['share']} != 1")
                check(abs(figures["max_overlap2"] - 0.5) < 1e-10, f"GHZ_{n}: max C^2 {figures['max_overlap2']} != 1/2")
            if name == "W":
                check(figures["share"] < 0.9, f"W_{n}: share {figures['share']} is not below 0.9")
                check(figures["max_overlap2"] <= known["W"] + 1e-12,
                      f"W_{n}: a product state overlaps more than the known maximum")
                if n >= 5:
                    check(known["W"] - figures["max_overlap2"] < 1e-3, f"W_{n}: the E_G bound is not within 1e-3")
    print("""
What it says:
  GHZ: the core is diagonal (off_rel -> 0, share 1): GHZ is |u..u> + |v..v> in some local basis, and
       its two diagonal entries are 1/sqrt2 each, the largest product-state overlap: E_G = 1/2, exact.
  W:   the off-diagonal mass stays (share < 1): W is not a generalized GHZ state in any local basis.
       The largest C[i..i]^2 never exceeds the known maximum overlap ((n-1)/n)^(n-1), as it must.
       For n = 3 the run ends at share 3/4 split as 3/8 + 3/8, not at 4/9: the rule maximizes the SUM
       of two squared overlaps with product states orthogonal on every qubit, and the best product
       state (overlap^2 4/9) has an orthogonal partner with only 2/9 (sum 2/3 < 3/4). So 1 - 3/8 =
       0.625 bounds E_G(W_3) = 5/9 from above, loosely. From n = 5 on, one entry carries almost all of
       the share and the bound is within 1e-3 of the exact E_G. For n = 4 the sweeps creep along a
       nearly flat ridge and stop at max_sweeps, with share 1/2.
  random: the share of a random real state falls fast as n grows, and so does its largest overlap
       with a product state: random states are highly entangled (E_G -> 1 as n grows).""")
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
