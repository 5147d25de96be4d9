"""The physics examples' claims, checked on the examples' own functions (CTest also runs each script)."""

import importlib.util
import pathlib

import numpy as np
import pytest

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
