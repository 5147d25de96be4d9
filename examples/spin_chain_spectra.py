#!/usr/bin/env python3
"""Level statistics of the spin-1/2 XXZ chain, integrable and chaotic, by tensordiag's Jacobi engine.

    H = sum_{r = 1, 2} J_r sum_i (Sx_i Sx_{i+r} + Sy_i Sy_{i+r} + Delta Sz_i Sz_{i+r}),   S = sigma / 2,

J_1 = J (nearest neighbours, --j), J_2 = J2 (next-nearest neighbours, --j2): the NNN term has the same
XXZ form and the same Delta as the NN term (Santos and Rigol, PRE 81, 036206 (2010)). L sites, open
boundaries (bonds i, i+r for i = 0..L-1-r). J2 = 0 is the integrable XXZ chain (Bethe ansatz): its
levels are uncorrelated, Poisson. J2 ~ 0.5 breaks integrability: the levels repel as in the Gaussian
orthogonal ensemble (H is real).

Level statistics are only meaningful inside one symmetry block: levels of different blocks do not
repel, and mixing blocks makes a chaotic spectrum look Poisson. H conserves
  - the total Sz (U(1)): one block per Sz (--sz),
  - the reflection i -> L-1-i (open boundaries): parity P = +-1,
  - at Sz = 0 the global spin flip: Z = +-1.
These are all at Delta != 1 (at Delta = 1 the total spin S is conserved too, which this example
does not resolve: --delta 1 is refused). With periodic boundaries the momentum would make the blocks
complex (k != 0, pi), so the chain is open. Each block is a dense real symmetric matrix, built as
B^T H B with B the orthonormal symmetry-adapted basis (sparse projections of the Sz basis).

Each block is diagonalized by tensordiag's symmetric engine at D = 2 (structure="symmetric": the
classical Jacobi eigenvalue method, A = Q C Q^T; --backend cuda runs it on the GPU) and its eigenvalues checked against
numpy.linalg.eigh (LAPACK syevd) to 1e-10 of the block's spectral norm. The level-spacing ratio
(Oganesyan and Huse, PRB 75, 155111 (2007)), r_n = min(s_n, s_{n+1}) / max(s_n, s_{n+1}) with
s_n = E_{n+1} - E_n inside one block, averaged over the middle half of each block's spectrum
(--middle), is printed beside Poisson 2 ln 2 - 1 = 0.386 and GOE 0.5307 (Atas et al., PRL 110,
084101 (2013)). --plot DIR writes the eigenvalue density and P(r) beside P_Poisson(r) = 2/(1+r)^2
and the GOE surmise P_W(r) = 2 (27/8) (r + r^2) / (1 + r + r^2)^(5/2) on 0 <= r <= 1.

Checks (non-zero exit if one fails): the blocks (B orthonormal, the dimensions adding up to the Sz
sector's, H B = B (B^T H B), so that the symmetries hold and the blocks' spectra are the sector's);
tensordiag's eigenvalues against eigh; <r> of the integrable chain within --r-tolerance of Poisson
and of the chaotic one within it of GOE, each nearer its own prediction than the other's. The
default tolerance is three standard errors of the mean of the n ratios, max(0.02, 0.85/sqrt(n))
(r_tolerance below): 0.058 for the 216 ratios of the default L = 10 run that CTest makes, where the
measured differences are 0.011 (Poisson) and 0.019 (GOE); at L = 14, Sz = 0 it is 0.021 against
0.007 and 0.010. The Hamiltonian has no randomness: every run gives the same levels.
"""

import argparse
import dataclasses
import math
import os
import sys
import time

import numpy as np
import scipy.sparse

import tensordiag

POISSON_R = 2 * math.log(2) - 1  # 0.3863
GOE_R = 0.5307                     # Atas et al. 2013 (large-N numerics; the 3 x 3 surmise gives 0.5359)
EIGENVALUE_TOLERANCE = 1e-10       # relative to the block's spectral norm


@dataclasses.dataclass
class Block:
    label: str
    matrix: np.ndarray  # dense, real symmetric


def sector_states(sites: int, ups: int) -> np.ndarray:
    """The basis states with `ups` spins up, ascending; spin up on site i is bit (sites-1-i)."""
    states = np.arange(2 ** sites, dtype=np.int64)
    counts = np.zeros_like(states)
    for bit in range(sites):
        counts += (states >> bit) & 1
    return states[counts == ups]


def sector_hamiltonian(sites: int, states: np.ndarray, j1: float, j2: float, delta: float) -> scipy.sparse.csr_matrix:
    """H on the span of `states` (one Sz sector: H maps it into itself), open boundaries."""
    index = {int(x): n for n, x in enumerate(states)}
    size = len(states)
    diagonal = np.zeros(size)
    rows, cols, values = [np.arange(size)], [np.arange(size)], []
    for distance, coupling in ((1, j1), (2, j2)):
        if coupling == 0:
            continue
        for i in range(sites - distance):
            bit_i, bit_j = sites - 1 - i, sites - 1 - (i + distance)
            antiparallel = ((states >> bit_i) ^ (states >> bit_j)) & 1
            diagonal += coupling * delta * (0.25 - 0.5 * antiparallel)  # Sz Sz = +-1/4
            flippable = np.nonzero(antiparallel)[0]  # (S+S- + S-S+)/2 swaps antiparallel spins
            flipped = states[flippable] ^ ((1 << bit_i) | (1 << bit_j))
            rows.append(np.array([index[int(x)] for x in flipped], dtype=np.int64))
            cols.append(flippable)
            values.append(np.full(len(flippable), 0.5 * coupling))
    data = np.concatenate([diagonal, *values])
    return scipy.sparse.csr_matrix((data, (np.concatenate(rows), np.concatenate(cols))), shape=(size, size))


def reflect(states: np.ndarray, sites: int) -> np.ndarray:
    """Site i -> L-1-i: the bits reversed."""
    out = np.zeros_like(states)
    for bit in range(sites):
        out |= ((states >> bit) & 1) << (sites - 1 - bit)
    return out


def symmetry_adapted_bases(sites: int, states: np.ndarray) -> list:
    """[(label, B)] with B (sector size x block size, sparse) the orthonormal basis of each irrep.

    The group is {1, R} (reflection), and {1, R, F, RF} with the spin flip F at Sz = 0; its irreps
    are one-dimensional, chi(R) = P, chi(F) = Z. B's columns are the projections
    sum_g chi(g) |g x> of the orbit representatives x (the smallest state of the orbit), normalized;
    a projection that vanishes (x = R x with P = -1, say) gives no column.
    """
    index = {int(x): n for n, x in enumerate(states)}
    reflected = reflect(states, sites)
    images = {"R": reflected}
    if 2 * int(bin(int(states[0])).count("1")) == sites:
        flip = (1 << sites) - 1
        images["F"] = states ^ flip
        images["RF"] = reflected ^ flip
    elements = ["1", *images]
    image_index = np.array([np.arange(len(states))] + [[index[int(y)] for y in images[g]] for g in images])
    representative = image_index.min(axis=0) == np.arange(len(states))
    reps = np.nonzero(representative)[0]
    irreps = [(p, z) for p in (1, -1) for z in ((1, -1) if "F" in images else (None,))]
    bases = []
    for p, z in irreps:
        chi = {"1": 1.0, "R": p, "F": z, "RF": None if z is None else p * z}
        rows = np.concatenate([image_index[k][reps] for k in range(len(elements))])
        cols = np.tile(np.arange(len(reps)), len(elements))
        data = np.concatenate([np.full(len(reps), chi[g]) for g in elements])
        b = scipy.sparse.csc_matrix((data, (rows, cols)), shape=(len(states), len(reps)))  # duplicates add
        b.eliminate_zeros()
        norms = np.sqrt(np.asarray(b.multiply(b).sum(axis=0)).ravel())
        keep = np.nonzero(norms > 0.5)[0]  # a column is 0 or has norm >= 1
        b = b[:, keep] @ scipy.sparse.diags(1.0 / norms[keep])
        label = f"P={p:+d}" + ("" if z is None else f" Z={z:+d}")
        bases.append((label, b.tocsc()))
    return bases


def symmetry_blocks(sites: int, j1: float, j2: float, delta: float, sz_values, check=None) -> list:
    """The dense blocks of H, one per Sz in sz_values and irrep; `check(claim, text)` gets the checks."""
    blocks = []
    for sz in sz_values:
        ups = int(round(sites / 2 + sz))
        states = sector_states(sites, ups)
        h = sector_hamiltonian(sites, states, j1, j2, delta)
        dims = 0
        for label, b in symmetry_adapted_bases(sites, states):
            block = (b.T @ h @ b).toarray()
            block = (block + block.T) / 2  # exactly symmetric (the sparse products round alike, up to order)
            dims += block.shape[0]
            if check is not None:
                scale = max(1.0, float(abs(h).sum(axis=1).max()))
                ortho = abs(b.T @ b - scipy.sparse.identity(b.shape[1])).max()
                leak = abs(h @ b - b @ scipy.sparse.csc_matrix(block)).max()
                check(ortho < 1e-12, f"Sz = {sz} {label}: the basis is not orthonormal ({ortho:.1e})")
                check(leak < 1e-12 * scale, f"Sz = {sz} {label}: H leaves the block ({leak:.1e}): not a symmetry")
            if block.shape[0]:
                blocks.append(Block(f"Sz={format_sz(sz)} {label}", block))
        if check is not None:
            check(dims == len(states), f"Sz = {sz}: the blocks have {dims} states, the sector {len(states)}")
    return blocks


def format_sz(sz: float) -> str:
    return f"{sz:g}" if float(sz).is_integer() else f"{int(round(2 * sz))}/2"


def spacing_ratios(energies: np.ndarray, middle: float) -> np.ndarray:
    """r_n of the middle fraction `middle` of one block's sorted levels (triple degeneracies, 0/0, dropped)."""
    e = np.sort(energies)
    drop = int(round(len(e) * (1 - middle) / 2))
    e = e[drop:len(e) - drop]
    s = np.diff(e)
    if len(s) < 2:
        return np.zeros(0)
    low, high = np.minimum(s[:-1], s[1:]), np.maximum(s[:-1], s[1:])
    ok = high > 0
    return low[ok] / high[ok]


def r_tolerance(count: int) -> float:
    """The default check on <r>: three standard errors of a mean of `count` ratios, at least 0.02.

    A single r has standard deviation 0.280 under Poisson (0.254 under the GOE surmise), so the mean
    of n independent ratios is off by 0.28 / sqrt(n) typically: 3 x that is 0.85 / sqrt(n), 0.058 for
    the 216 ratios of the default L = 10 run. Neighbouring ratios share a spacing, and small chains
    approach the predictions only as L grows; the floor 0.02 covers that drift at L = 13, 14 (measured:
    within 0.011 of both predictions).
    """
    return max(0.02, 0.85 / math.sqrt(max(count, 1)))


def poisson_ratio_density(r):
    return 2 / (1 + r) ** 2


def goe_ratio_density(r):
    """Atas et al.'s Wigner-like surmise for beta = 1, folded onto 0 <= r <= 1 (hence the 2)."""
    return 2 * (27 / 8) * (r + r * r) / (1 + r + r * r) ** 2.5


def tensordiag_eigenvalues(matrix: np.ndarray, tol: float, threads: int, backend: str):
    """(eigenvalues, seconds, result) from the symmetric D = 2 engine: C's diagonal, A = Q C Q^T.
    backend "auto" takes the general GPU engine where there is a device, else the CPU's."""
    start = time.perf_counter()
    result = tensordiag.diagonalize_full(matrix, structure="symmetric", backend=backend, tol=tol, max_sweeps=50,
                                         threads=threads, verify=False)
    seconds = time.perf_counter() - start
    return np.sort(tensordiag.diagonal(result.core)), seconds, result


def cusolver_timer():
    """A function timing cupy.linalg.eigh (cuSOLVER syevd) on a matrix, or the reason there is none."""
    try:
        import cupy  # noqa: PLC0415 (optional)
    except ImportError:
        return None, "CuPy is not installed" if os.path.exists("/dev/nvidiactl") else "no GPU"
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None, "no GPU"
    except Exception as error:  # CUDA failing to start: no driver, no device
        return None, f"no GPU ({type(error).__name__})"

    def run(matrix: np.ndarray) -> float:
        device = cupy.asarray(matrix)
        cupy.linalg.eigh(device)  # warm-up: the handle and the workspace
        cupy.cuda.Device().synchronize()
        start = time.perf_counter()
        cupy.linalg.eigh(device)
        cupy.cuda.Device().synchronize()
        return time.perf_counter() - start

    return run, None


def analyse(name: str, sites: int, j1: float, j2: float, delta: float, args, check, gpu_eigh) -> dict:
    blocks = symmetry_blocks(sites, j1, j2, delta, args.sz, check)
    print(f"\n{name}: L = {sites}, J = {j1:g}, J2 = {j2:g}, Delta = {delta:g}, open; "
          f"{len(blocks)} blocks, {sum(b.matrix.shape[0] for b in blocks)} states")
    print(f"  {'block':<18} {'size':>5} {'sweeps':>6} {'stop':<9} {'max|dE|/||H||':>13} "
          f"{'tensordiag':>10} {'numpy eigh':>10} {'cuSOLVER':>9}  <r>")
    ratios, levels, totals = [], [], {"tensordiag": 0.0, "numpy": 0.0, "cusolver": 0.0}
    for block in blocks:
        a = block.matrix
        start = time.perf_counter()
        reference = np.linalg.eigh(a)[0]
        numpy_seconds = time.perf_counter() - start
        norm = max(abs(reference[0]), abs(reference[-1]), np.finfo(float).tiny)
        if a.shape[0] == 1:  # nothing to rotate: the engine needs N >= 2
            ours, seconds, sweeps, stop = a.diagonal().copy(), 0.0, 0, "-"
        else:
            ours, seconds, result = tensordiag_eigenvalues(a, args.tol, args.threads, args.backend)
            sweeps, stop = result.sweeps, result.stop_reason
        error = float(np.max(np.abs(ours - reference)) / norm)
        check(error <= EIGENVALUE_TOLERANCE,
              f"{name} {block.label}: tensordiag's eigenvalues differ from eigh by {error:.1e} of ||H|| "
              f"(> {EIGENVALUE_TOLERANCE:g}; stop: {stop})")
        gpu_seconds = gpu_eigh(a) if gpu_eigh is not None else None
        r = spacing_ratios(reference, args.middle)
        ratios.append(r)
        levels.append(reference)
        totals["tensordiag"] += seconds
        totals["numpy"] += numpy_seconds
        totals["cusolver"] += gpu_seconds or 0.0
        gpu_text = f"{gpu_seconds:8.4f}s" if gpu_seconds is not None else f"{'-':>9}"
        r_text = f"{r.mean():.3f} ({len(r)})" if len(r) else "-"
        print(f"  {block.label:<18} {a.shape[0]:>5} {sweeps:>6} {stop:<9} {error:13.1e} "
              f"{seconds:9.4f}s {numpy_seconds:9.4f}s {gpu_text}  {r_text}")
    r = np.concatenate(ratios)
    mean = float(r.mean()) if len(r) else float("nan")
    print(f"  time, all blocks: tensordiag {totals['tensordiag']:.3f} s, numpy eigh {totals['numpy']:.3f} s, "
          + (f"cuSOLVER syevd {totals['cusolver']:.4f} s" if gpu_eigh is not None else
             f"cuSOLVER: not measured ({args.no_gpu_reason})"))
    print(f"  <r> = {mean:.4f} +- {r.std() / math.sqrt(max(len(r), 1)):.4f} over {len(r)} ratios "
          f"(middle {args.middle:g} of each block);  Poisson {POISSON_R:.3f}, GOE {GOE_R:.3f}")
    return {"name": name, "ratios": r, "mean_r": mean, "levels": levels, "j2": j2}


def plot(figures: list, directory: str, sites: int) -> list:
    import matplotlib  # noqa: PLC0415 (only with --plot)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    os.makedirs(directory, exist_ok=True)
    written = []
    fig, axes = plt.subplots(1, len(figures), figsize=(5 * len(figures), 3.8), squeeze=False)
    for ax, f in zip(axes[0], figures):
        levels = np.concatenate(f["levels"])
        ax.hist(levels / sites, bins=60, density=True, color="tab:gray")
        ax.set_xlabel("E / L")
        ax.set_ylabel("density of states")
        ax.set_title(f"{f['name']} (J2 = {f['j2']:g}), L = {sites}")
    fig.tight_layout()
    written.append(os.path.join(directory, "eigenvalue_density.png"))
    fig.savefig(written[-1], dpi=120)
    plt.close(fig)

    fig, axes = plt.subplots(1, len(figures), figsize=(5 * len(figures), 3.8), squeeze=False)
    r = np.linspace(0, 1, 201)
    for ax, f in zip(axes[0], figures):
        ax.hist(f["ratios"], bins=20, range=(0, 1), density=True, color="tab:gray",
                label=f"L = {sites}: <r> = {f['mean_r']:.3f}")
        ax.plot(r, poisson_ratio_density(r), "b-", label=f"Poisson 2/(1+r)^2, <r> = {POISSON_R:.3f}")
        ax.plot(r, goe_ratio_density(r), "r-", label=f"GOE surmise, <r> = {GOE_R:.3f}")
        ax.set_xlabel("r")
        ax.set_ylabel("P(r)")
        ax.set_title(f"{f['name']} (J2 = {f['j2']:g})")
        ax.legend(fontsize=8)
    fig.tight_layout()
    written.append(os.path.join(directory, "spacing_ratio.png"))
    fig.savefig(written[-1], dpi=120)
    plt.close(fig)
    return written


def parse_arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=int, default=10, help="L, 10..14 (default 10: the CTest run)")
    parser.add_argument("--j", type=float, default=1.0, help="J, nearest neighbours (default 1)")
    parser.add_argument("--j2", type=float, default=0.5, help="J2 of the chaotic chain (default 0.5; the integrable one has 0)")
    parser.add_argument("--delta", type=float, default=0.55, help="Delta, both terms (default 0.55; 1 is refused)")
    parser.add_argument("--sz", type=float, nargs="+", default=None,
                        help="total Sz of the blocks (default 0 1, or 0.5 1.5 for odd L; -Sz mirrors Sz by the spin "
                             "flip); L/2 + Sz must be an integer within 0..L")
    parser.add_argument("--middle", type=float, default=0.5, help="fraction of each block's levels in <r> (default 0.5)")
    parser.add_argument("--r-tolerance", type=float, default=None,
                        help="|<r> - prediction| allowed (default max(0.02, 0.85 / sqrt(number of ratios)))")
    parser.add_argument("--tol", type=float, default=1e-13, help="tensordiag's off_rel tolerance (default 1e-13)")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads for tensordiag (default 0: all)")
    parser.add_argument("--backend", choices=("auto", "cpu", "cuda"), default="cpu",
                        help="tensordiag's engine (default cpu; auto: the GPU where there is one, cuda: the GPU "
                             "or an error)")
    parser.add_argument("--plot", metavar="DIR", default=None, help="write eigenvalue_density.png and spacing_ratio.png there")
    args = parser.parse_args(argv)
    if not 10 <= args.sites <= 14:
        parser.error(f"--sites must be within 10..14, not {args.sites}")
    if not math.isfinite(args.delta) or args.delta == 1.0:
        parser.error("--delta must be finite and not 1 (at Delta = 1 the total spin is a symmetry this example does not resolve)")
    if not (math.isfinite(args.j) and math.isfinite(args.j2)) or args.j == 0:
        parser.error("--j must be finite and non-zero, --j2 finite")
    if args.sz is None:
        args.sz = [0.0, 1.0] if args.sites % 2 == 0 else [0.5, 1.5]
    for sz in args.sz:
        ups = args.sites / 2 + sz
        if not (math.isfinite(sz) and ups == round(ups) and 0 <= ups <= args.sites):
            parser.error(f"--sz {sz:g}: L/2 + Sz must be an integer within 0..L (L = {args.sites})")
    if not 0 < args.middle <= 1:
        parser.error("--middle must be within (0, 1]")
    if args.r_tolerance is not None and not 0 < args.r_tolerance < 1:
        parser.error("--r-tolerance must be within (0, 1)")
    if not 0 < args.tol < 1:
        parser.error("--tol must be within (0, 1)")
    if args.threads < 0:
        parser.error("--threads must be >= 0")
    return args


def main(argv=None) -> int:
    args = parse_arguments(argv)
    failures = []

    def check(claim: bool, text: str) -> None:
        if not claim:
            failures.append(text)

    gpu_eigh, args.no_gpu_reason = cusolver_timer()
    try:
        figures = [analyse("integrable", args.sites, args.j, 0.0, args.delta, args, check, gpu_eigh),
                   analyse("chaotic", args.sites, args.j, args.j2, args.delta, args, check, gpu_eigh)]
    except ValueError as error:  # tensordiag refused the run (--backend cuda without a GPU): its one line
        print(f"spin_chain_spectra: error: {error}", file=sys.stderr)
        return 2
    print()
    for f, own, other, name in ((figures[0], POISSON_R, GOE_R, "Poisson"), (figures[1], GOE_R, POISSON_R, "GOE")):
        distance = abs(f["mean_r"] - own)
        allowed = args.r_tolerance if args.r_tolerance is not None else r_tolerance(len(f["ratios"]))
        print(f"{f['name']}: <r> = {f['mean_r']:.4f}, {name} {own:.4f}: |difference| {distance:.4f} "
              f"(allowed {allowed:.3f})")
        check(distance <= allowed, f"{f['name']}: <r> = {f['mean_r']:.4f} is not within {allowed:.3f} of {name} {own:.4f}")
        check(distance < abs(f["mean_r"] - other), f"{f['name']}: <r> = {f['mean_r']:.4f} is nearer the other prediction")
    if args.plot:
        for path in plot(figures, args.plot, args.sites):
            print(f"wrote {path}")
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
