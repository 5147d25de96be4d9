"""The physics examples' claims, checked on the examples' own functions (CTest also runs each script)."""

import importlib.util
import pathlib

import numpy as np
import pytest

# NumPy 2 renamed trapz (Debian 12 has 1.24, the GPU machine 2.x).
trapezoid = getattr(np, "trapezoid", None) or np.trapz

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def load_example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def quantum_states():
    return load_example("quantum_states")


@pytest.fixture(scope="module")
def spin_chain():
    return load_example("spin_chain")


@pytest.mark.parametrize("n", range(3, 9))
def test_ghz_is_diagonalizable_in_any_local_basis(quantum_states, n):
    rng = np.random.default_rng(n)
    figures = quantum_states.diagonalize_state(quantum_states.in_random_local_basis(quantum_states.ghz_state(n), rng))
    assert figures["off_rel"] < 1e-6
    assert figures["share"] == pytest.approx(1.0, abs=1e-12)
    assert figures["max_overlap2"] == pytest.approx(0.5, abs=1e-12)  # E_G(GHZ) = 1/2


@pytest.mark.parametrize("n", range(3, 9))
def test_w_keeps_off_diagonal_mass_and_never_beats_the_known_overlap(quantum_states, n):
    rng = np.random.default_rng(n)
    figures = quantum_states.diagonalize_state(quantum_states.in_random_local_basis(quantum_states.w_state(n), rng))
    assert figures["share"] < 0.9
    assert figures["max_overlap2"] <= quantum_states.w_max_overlap2(n) + 1e-12
    assert figures["reconstruction"] < 1e-12


def test_w3_known_overlap_is_four_ninths(quantum_states):
    assert quantum_states.w_max_overlap2(3) == pytest.approx(4 / 9)
    # The product state (sqrt(2/3)|0> + sqrt(1/3)|1>)^(x)3 attains it.
    qubit = np.array([np.sqrt(2 / 3), np.sqrt(1 / 3)])
    assert np.einsum("ijk,i,j,k->", quantum_states.w_state(3), qubit, qubit, qubit) ** 2 == pytest.approx(4 / 9)


def test_the_examples_run_and_pass_their_own_checks(quantum_states, spin_chain, monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["quantum_states.py", "--max-qubits", "5"])
    assert quantum_states.main() == 0
    monkeypatch.setattr("sys.argv", ["spin_chain.py", "--sites", "8", "--modes", "4", "--deltas", "1"])
    assert spin_chain.main() == 0
    assert "FAILED" not in capsys.readouterr().err


def test_xxz_hamiltonian_against_dense_eigh_and_the_known_energy(spin_chain):
    small = spin_chain.xxz_hamiltonian(8, 0.7, periodic=True)
    assert abs(small - small.T).max() == 0
    assert spin_chain.ground_state(small)[0] == pytest.approx(np.linalg.eigvalsh(small.toarray())[0], abs=1e-10)
    energy, psi = spin_chain.ground_state(spin_chain.xxz_hamiltonian(12, 1.0))
    assert energy == pytest.approx(spin_chain.HEISENBERG_OPEN_L12_ENERGY, abs=1e-9)
    assert energy == pytest.approx(spin_chain.sz_zero_block_energy(12, 1.0), abs=1e-10)
    figures = spin_chain.block_structure(psi, 12, 3)
    assert figures["reconstruction"] < 1e-12
    assert figures["diag2"][0] > 10 * figures["diag2"][1]  # one dominant block-product state


@pytest.fixture(scope="module")
def spectra():
    return load_example("spin_chain_spectra")


@pytest.mark.parametrize("sites, sz", [(10, 0.0), (10, 1.0), (11, 0.5), (12, 0.0)])
def test_the_symmetry_blocks_hold_the_sector_spectrum(spectra, sites, sz):
    # The union of the blocks' eigenvalues is the whole Sz sector's spectrum, and the checks hold.
    failures = []
    blocks = spectra.symmetry_blocks(sites, 1.0, 0.5, 0.55, [sz], lambda claim, text: claim or failures.append(text))
    assert failures == []
    states = spectra.sector_states(sites, int(round(sites / 2 + sz)))
    sector = spectra.sector_hamiltonian(sites, states, 1.0, 0.5, 0.55).toarray()
    assert np.array_equal(sector, sector.T)
    together = np.sort(np.concatenate([np.linalg.eigvalsh(b.matrix) for b in blocks]))
    np.testing.assert_allclose(together, np.linalg.eigvalsh(sector), rtol=0, atol=1e-12)
    assert len(blocks) == (4 if sz == 0 and sites % 2 == 0 else 2)


def test_the_hamiltonian_matches_pauli_matrices(spectra):
    # H from Kronecker products of S = sigma / 2 on L = 5 sites (all of them: the 2^5 states).
    sites, j1, j2, delta = 5, 0.8, 0.45, 0.55
    sx = np.array([[0, 1], [1, 0]]) / 2
    sy = np.array([[0, -1j], [1j, 0]]) / 2
    sz = np.array([[1, 0], [0, -1]]) / 2

    def site_op(op, i):
        out = np.array([[1.0]])
        for k in range(sites):
            out = np.kron(out, op if k == i else np.eye(2))
        return out

    h = np.zeros((2 ** sites, 2 ** sites), dtype=complex)
    for r, coupling in ((1, j1), (2, j2)):
        for i in range(sites - r):
            h += coupling * (site_op(sx, i) @ site_op(sx, i + r) + site_op(sy, i) @ site_op(sy, i + r)
                             + delta * site_op(sz, i) @ site_op(sz, i + r))
    for ups in range(sites + 1):
        states = spectra.sector_states(sites, ups)
        # Site 0 is the most significant bit, spin up = bit set; kron's first factor is site 0, |0> = up.
        kron_index = (2 ** sites - 1) - states
        expected = h[np.ix_(kron_index, kron_index)]
        np.testing.assert_allclose(spectra.sector_hamiltonian(sites, states, j1, j2, delta).toarray(), expected.real,
                                   atol=1e-14)


def test_mixed_blocks_hide_the_level_repulsion(spectra):
    # The point of resolving the symmetries: the chaotic chain's Sz = 0 levels, blocks merged, look
    # far less GOE-like than block by block (the check on <r> would fail).
    blocks = spectra.symmetry_blocks(12, 1.0, 0.5, 0.55, [0.0])
    per_block = np.concatenate([spectra.spacing_ratios(np.linalg.eigvalsh(b.matrix), 0.5) for b in blocks]).mean()
    merged = spectra.spacing_ratios(np.concatenate([np.linalg.eigvalsh(b.matrix) for b in blocks]), 0.5).mean()
    assert abs(per_block - spectra.GOE_R) < spectra.r_tolerance(len(blocks) * 100)
    assert merged < spectra.GOE_R - 0.08


def test_the_ratio_densities_are_normalized_with_the_known_means(spectra):
    r = np.linspace(0, 1, 200001)
    for density, mean in ((spectra.poisson_ratio_density, spectra.POISSON_R), (spectra.goe_ratio_density, 0.5359)):
        assert trapezoid(density(r), r) == pytest.approx(1.0, abs=1e-8)
        assert trapezoid(r * density(r), r) == pytest.approx(mean, abs=1e-4)


def test_spacing_ratios_of_known_levels(spectra):
    # Spacings 1, 2, 1, 1: ratios 1/2, 1/2, 1; a triple degeneracy (0/0) is dropped.
    np.testing.assert_allclose(spectra.spacing_ratios(np.array([0.0, 1, 3, 4, 5]), 1.0), [0.5, 0.5, 1.0])
    assert spectra.spacing_ratios(np.array([0.0, 1, 1, 1, 2]), 1.0).tolist() == [0.0, 0.0]


def test_spectra_example_runs_and_fails_when_the_eigenvalues_are_loose(spectra, capsys):
    assert spectra.main(["--sites", "10"]) == 0
    out = capsys.readouterr().out
    assert "cuSOLVER" in out and "Poisson" in out
    # An off_rel tolerance of 1e-4 leaves eigenvalue errors far above 1e-10 of ||H||.
    assert spectra.main(["--sites", "10", "--tol", "1e-4"]) == 1
    assert "differ from eigh" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--sites", "9"], ["--delta", "1"], ["--sz", "0.5"], ["--tol", "0"]])
def test_spectra_example_refuses_bad_arguments(spectra, argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        spectra.main(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err


@pytest.fixture(scope="module")
def symmetric_recovery():
    return load_example("symmetric_recovery")


@pytest.fixture(scope="module")
def bss():
    return load_example("blind_source_separation")


@pytest.mark.parametrize("order, size", [(3, 4), (4, 5), (5, 4), (6, 4)])
def test_planted_symmetric_tensor_is_symmetric_and_recovered(symmetric_recovery, order, size):
    rng = np.random.default_rng(10 * order + size)
    tensor, s, q = symmetric_recovery.planted(order, size, rng)
    assert symmetric_recovery.asymmetry(tensor) < 1e-14
    np.testing.assert_allclose(q.T @ q, np.eye(size), atol=1e-14)
    # T = sum_i s_i q_i (x) .. (x) q_i, term by term.
    direct = np.zeros_like(tensor)
    for i in range(size):
        term = q[:, i]
        for _ in range(order - 1):
            term = np.multiply.outer(term, q[:, i])
        direct += s[i] * term
    np.testing.assert_allclose(tensor, direct, atol=1e-13)
    figures = symmetric_recovery.recovery(tensor, s, q, threads=1)
    assert figures["one_factor"] and figures["permutation"]
    assert figures["diag_error"] <= 1e-12 and figures["factor_error"] <= 1e-10
    assert figures["asymmetry"] <= 1e-14 and figures["reconstruction"] <= figures["bound"]


def test_factor_matching_finds_signs_and_permutation(symmetric_recovery):
    rng = np.random.default_rng(3)
    q = symmetric_recovery.haar_orthogonal(5, rng)
    pi = np.array([2, 0, 4, 1, 3])
    sigma = np.array([1.0, -1, -1, 1, -1])
    found_pi, found_sigma = symmetric_recovery.match_factor(q[:, pi] * sigma, q)
    assert found_pi.tolist() == pi.tolist() and found_sigma.tolist() == sigma.tolist()
    # Two columns near the same q_i: not a permutation.
    twice = q.copy()
    twice[:, 1] = q[:, 0]
    assert symmetric_recovery.match_factor(twice, q) == (None, None)


def test_symmetrize_and_asymmetry(symmetric_recovery):
    rng = np.random.default_rng(4)
    t = rng.standard_normal((3, 3, 3, 3))
    assert symmetric_recovery.asymmetry(t) > 0.1
    sym = symmetric_recovery.symmetrize(t)
    assert symmetric_recovery.asymmetry(sym) < 1e-15
    assert sym[0, 1, 2, 2] == pytest.approx(sym[2, 0, 2, 1], abs=1e-15)


def test_cumulant_tensor_against_the_direct_formula(bss):
    # Sample cumulant of zero-mean data, entry by entry from its definition (no whitening: R != I).
    rng = np.random.default_rng(5)
    z = rng.standard_normal((3, 40)) ** 3
    z -= z.mean(axis=1, keepdims=True)
    k = bss.cumulant_tensor(z)
    mean = lambda *rows: float(np.mean(np.prod(rows, axis=0)))  # noqa: E731
    for i, j, l, m in np.ndindex(3, 3, 3, 3):
        a, b, c, d = z[i], z[j], z[l], z[m]
        expected = mean(a, b, c, d) - mean(a, b) * mean(c, d) - mean(a, c) * mean(b, d) - mean(a, d) * mean(b, c)
        assert k[i, j, l, m] == pytest.approx(expected, abs=1e-12)
    assert np.max(np.abs(k - k.transpose(2, 1, 0, 3))) < 1e-12


def test_cumulants_of_independent_sources_are_diagonal_with_their_kurtosis(bss):
    rng = np.random.default_rng(6)
    s = bss.make_sources(4, 400000, rng)
    np.testing.assert_allclose(s.mean(axis=1), 0, atol=0.01)
    np.testing.assert_allclose(s.var(axis=1), 1, atol=0.02)
    k = bss.cumulant_tensor(s - s.mean(axis=1, keepdims=True))
    diagonal = np.array([k[i, i, i, i] for i in range(4)])
    np.testing.assert_allclose(diagonal, bss.SOURCE_KURTOSIS[:4], atol=0.1)
    off = k.copy()
    for i in range(4):
        off[i, i, i, i] = 0
    assert np.max(np.abs(off)) < 0.05
    np.testing.assert_allclose(bss.excess_kurtosis(s), diagonal, atol=0.02)


def test_amari_index(bss):
    rng = np.random.default_rng(7)
    perm = np.eye(4)[[2, 0, 3, 1]]
    scaled = perm * np.array([1.5, -2.0, 0.3, -7.0])
    assert bss.amari_index(scaled) == 0
    assert bss.amari_index(np.eye(3)) == 0
    assert bss.amari_index(scaled + 1e-3 * rng.standard_normal((4, 4))) > 0
    assert bss.amari_index(np.ones((4, 4))) == pytest.approx(1.0)  # the worst case
    # 2 x 2 by hand: rows (1 + 0.5 - 1) + (1 + 0.5 - 1), columns the same: 2 / (2 * 2 * 1).
    assert bss.amari_index(np.array([[1.0, 0.5], [0.5, 1.0]])) == pytest.approx(0.5)
    g = rng.standard_normal((5, 5))
    assert 0 < bss.amari_index(g) <= 1


def test_whitening_gives_identity_covariance(bss):
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 3)) @ rng.standard_normal((3, 5000)) + 4.0
    z, w = bss.whitening(x)
    np.testing.assert_allclose(z @ z.T / z.shape[1], np.eye(3), atol=1e-12)
    np.testing.assert_allclose(w, w.T, atol=1e-12)


def test_new_examples_run_and_fail_when_they_should(symmetric_recovery, bss, capsys):
    assert symmetric_recovery.main(["--max-order", "4", "--sizes", "4,5", "--seeds", "2"]) == 0
    assert "random symmetric" in capsys.readouterr().out
    assert bss.main(["--sources", "3", "--samples", "20000"]) == 0
    out = capsys.readouterr().out
    assert "Amari index of Q^T W A" in out and "FastICA" in out
    # A threshold no finite sample meets fails the run.
    assert bss.main(["--sources", "3", "--samples", "20000", "--threshold", "1e-9"]) == 1
    assert "FAILED: Amari index" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--sources", "1"], ["--sources", "7"], ["--samples", "5000"], ["--threshold", "0"]])
def test_bss_example_refuses_bad_arguments(bss, argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        bss.main(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err
