"""structure="symmetric": one Q for every mode, order 2 allowed, the input checked symmetric."""

import numpy as np
import pytest

import tensordiag


def test_a_planted_symmetric_tensor_is_recovered_with_one_q():
    tensor, diagonal, factors = tensordiag.generate(4, 5, seed=3, structure="symmetric")
    assert all(np.array_equal(f, factors[0]) for f in factors)
    assert np.allclose(tensor, np.transpose(tensor, (2, 0, 3, 1)), rtol=0, atol=1e-14)
    result = tensordiag.diagonalize_full(tensor, structure="symmetric", backend="cpu")
    assert result.converged and result.structure == "symmetric"
    assert result.report()["structure"] == "symmetric"
    assert all(np.array_equal(f, result.factors[0]) for f in result.factors)
    # D = 4 is even: the diagonal equals S up to order, signs included.
    assert np.allclose(np.sort(tensordiag.diagonal(result.core)), np.sort(diagonal), rtol=0, atol=1e-12)
    assert np.allclose(tensordiag.reconstruct(result.core, result.factors), tensor, rtol=0, atol=1e-13)


def test_a_symmetric_matrix_gives_its_eigendecomposition():
    rng = np.random.default_rng(5)
    g = rng.standard_normal((12, 12))
    a = (g + g.T) / 2
    core, factors = tensordiag.diagonalize(a, structure="symmetric", backend="cpu")
    assert np.allclose(np.sort(np.diag(core)), np.linalg.eigvalsh(a), rtol=0, atol=1e-12)
    q = factors[0]
    assert np.allclose(q @ core @ q.T, a, rtol=0, atol=1e-13)  # A = Q C Q^T
    with pytest.raises(ValueError, match="SVD"):
        tensordiag.diagonalize(a)


def test_a_tensor_that_is_not_symmetric_is_refused():
    tensor, _, _ = tensordiag.generate(3, 4, seed=1)
    with pytest.raises(ValueError, match="the tensor is not symmetric"):
        tensordiag.diagonalize(tensor, structure="symmetric")
    with pytest.raises(ValueError, match="unknown structure"):
        tensordiag.diagonalize(tensor, structure="antisymmetric")
