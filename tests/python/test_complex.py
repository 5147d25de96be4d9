"""Complex NumPy arrays: unitary factors, C[i, .., i] real and >= 0, on the CPU's complex engine."""

import numpy as np
import pytest

import tensordiag


@pytest.mark.parametrize("dtype, tolerance", [("complex128", 1e-12), ("complex64", 2e-5)])
def test_a_planted_complex_tensor_is_recovered(dtype, tolerance):
    tensor, diagonal, factors = tensordiag.generate(3, 6, seed=4, dtype=dtype)
    assert tensor.dtype == np.dtype(dtype) and diagonal.dtype == np.complex128
    assert np.allclose(tensordiag.reconstruct(np.diag(diagonal)[:, :, None] * np.eye(6)[None, :, :], factors), tensor,
                       atol=10 * tolerance)
    result = tensordiag.diagonalize_full(tensor, backend="cpu")
    assert result.converged and result.engine == "cpu_complex" and result.dtype == dtype
    core = result.core
    assert core.dtype == np.dtype(dtype)
    found = np.array([core[i, i, i] for i in range(6)])
    assert np.all(found.imag == 0) and np.all(found.real >= 0)
    assert np.allclose(np.sort(found.real), np.sort(np.abs(diagonal)), rtol=tolerance, atol=0)
    for u in result.factors:
        assert np.allclose(u.conj().T @ u, np.eye(6), atol=10 * tolerance)
    assert np.allclose(tensordiag.reconstruct(core, result.factors), tensor, atol=10 * tolerance)
    assert result.verification["reconstruction_error"] < tolerance


def test_a_ghz_state_with_local_phases_is_one_diagonal_pair():
    # |GHZ> = (|000> + |111>) / sqrt(2) with a random local unitary on each qubit: C has two
    # diagonal entries 1/sqrt(2) and nothing else.
    rng = np.random.default_rng(7)
    ghz = np.zeros((2, 2, 2), dtype=complex)
    ghz[0, 0, 0] = ghz[1, 1, 1] = 1 / np.sqrt(2)
    unitaries = [np.linalg.qr(rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2)))[0] for _ in range(3)]
    state = tensordiag.reconstruct(ghz, unitaries)
    core, factors = tensordiag.diagonalize(state, backend="cpu")
    assert np.allclose([core[0, 0, 0], core[1, 1, 1]], [1 / np.sqrt(2)] * 2, atol=1e-12)
    off_diagonal = np.abs(core) ** 2
    off_diagonal[0, 0, 0] = off_diagonal[1, 1, 1] = 0
    assert off_diagonal.sum() < 1e-24  # summed directly: total - diagonal would cancel to rounding
    assert np.allclose(tensordiag.reconstruct(core, factors), state, atol=1e-13)


# Orders 2 and 3 take the closed-form step, 4 and 5 the searched one (on the CPU here; the GPU engine takes it on its host).
@pytest.mark.parametrize("order, size", [(2, 7), (3, 5), (4, 4), (5, 3)])
def test_a_planted_complex_symmetric_tensor_is_recovered_with_one_unitary(order, size):
    tensor, diagonal, factors = tensordiag.generate(order, size, seed=5, dtype="complex128", structure="symmetric")
    assert all(np.array_equal(f, factors[0]) for f in factors)
    assert np.array_equal(tensor, np.transpose(tensor, list(range(order))[::-1]))  # exactly symmetric
    result = tensordiag.diagonalize_full(tensor, structure="symmetric", backend="cpu")
    assert result.converged and result.engine == "cpu_complex"
    u = result.factors[0]
    assert all(np.array_equal(f, u) for f in result.factors)
    assert np.allclose(u.conj().T @ u, np.eye(size), atol=1e-13)
    found = result.core[(np.arange(size),) * order]
    assert np.all(found.imag == 0) and np.all(found.real >= 0)
    assert np.allclose(np.sort(found.real), np.sort(np.abs(diagonal)), rtol=1e-12, atol=0)
    assert np.allclose(result.core, np.transpose(result.core, list(range(order))[::-1]), atol=1e-14)
    assert result.verification["reconstruction_error"] < 1e-13


# Backend "auto" from order 4: the general GPU engine where there is a GPU (the steps searched on
# its host between groups), else the CPU's; the same recovery either way.
@pytest.mark.parametrize("order, size", [(4, 5), (6, 3)])
def test_a_complex_symmetric_tensor_from_order_4_is_recovered_where_auto_runs_it(order, size):
    tensor, diagonal, _ = tensordiag.generate(order, size, seed=9, dtype="complex128", structure="symmetric")
    result = tensordiag.diagonalize_full(tensor, structure="symmetric")
    assert result.converged and result.engine == ("cuda" if result.backend == "cuda" else "cpu_complex")
    assert all(np.array_equal(f, result.factors[0]) for f in result.factors)
    found = result.core[(np.arange(size),) * order]
    assert np.all(found.imag == 0) and np.all(found.real >= 0)
    assert np.allclose(np.sort(found.real), np.sort(np.abs(diagonal)), rtol=1e-12, atol=0)
    assert result.verification["reconstruction_error"] < 1e-13


@pytest.mark.parametrize("qubits", [3, 5])
def test_a_ghz_state_under_one_local_unitary_is_diagonalized_with_one_unitary(qubits):
    # The same random unitary on each qubit keeps the state symmetric (identical subsystems):
    # structure symmetric finds one U with C = GHZ's two entries 1/sqrt(2), U = V up to phases.
    rng = np.random.default_rng(8)
    ghz = np.zeros((2,) * qubits, dtype=complex)
    ghz[(0,) * qubits] = ghz[(1,) * qubits] = 1 / np.sqrt(2)
    v = np.linalg.qr(rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2)))[0]
    state = tensordiag.reconstruct(ghz, [v] * qubits)
    core, factors = tensordiag.diagonalize(state, structure="symmetric", backend="cpu")
    assert np.allclose([core[(0,) * qubits], core[(1,) * qubits]], [1 / np.sqrt(2)] * 2, atol=1e-12)
    off_diagonal = np.abs(core) ** 2
    off_diagonal[(0,) * qubits] = off_diagonal[(1,) * qubits] = 0
    assert off_diagonal.sum() < 1e-24
    assert all(np.array_equal(f, factors[0]) for f in factors)
    assert np.allclose(np.abs(v.conj().T @ factors[0]) @ np.ones(2), np.ones(2), atol=1e-12)


def test_complex_options_it_refuses():
    tensor, _, _ = tensordiag.generate(3, 4, seed=1, dtype="complex128")
    with pytest.raises(ValueError, match="real-only"):
        tensordiag.diagonalize(tensor, rule="max_trace")
    with pytest.raises(ValueError, match="is not symmetric"):
        tensordiag.diagonalize(tensor, structure="symmetric")
    with pytest.raises(ValueError, match="structure skew takes real tensors"):
        tensordiag.diagonalize(tensor, structure="skew")
    with pytest.raises(TypeError, match="complex64 or complex128"):
        tensordiag.diagonalize(np.ones((3, 3, 3), dtype=np.int32))
