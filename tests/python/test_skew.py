"""structure="skew": one Q for every mode, C skew and in the block form, order 2 the Murnaghan form."""

import numpy as np
import pytest

import tensordiag


def test_a_planted_skew_tensor_is_recovered_in_block_form():
    tensor, blocks, factors = tensordiag.generate(3, 7, seed=3, structure="skew")
    assert len(blocks) == 7 // 3
    assert all(np.array_equal(f, factors[0]) for f in factors)
    assert np.allclose(tensor, -np.transpose(tensor, (1, 0, 2)), rtol=0, atol=1e-15)
    assert np.allclose(tensor, np.transpose(tensor, (1, 2, 0)), rtol=0, atol=1e-15)  # an even permutation
    result = tensordiag.diagonalize_full(tensor, structure="skew", backend="cpu")
    assert result.converged and result.structure == "skew"
    assert result.report()["structure"] == "skew"
    assert all(np.array_equal(f, result.factors[0]) for f in result.factors)
    found = tensordiag.skew_blocks(result.core)
    assert np.all(found >= 0)
    assert np.allclose(np.sort(found), np.sort(np.abs(blocks)), rtol=0, atol=1e-12)
    assert np.allclose(tensordiag.reconstruct(result.core, result.factors), tensor, rtol=0, atol=1e-13)
    assert np.allclose(result.core, -np.transpose(result.core, (0, 2, 1)), rtol=0, atol=1e-14)


def test_a_skew_matrix_gives_its_murnaghan_form():
    rng = np.random.default_rng(5)
    g = rng.standard_normal((11, 11))
    a = (g - g.T) / 2
    core, factors = tensordiag.diagonalize(a, structure="skew", backend="cpu")
    q = factors[0]
    assert np.allclose(q @ core @ q.T, a, rtol=0, atol=1e-13)  # A = Q C Q^T
    # Everything in the 2 x 2 blocks, which hold the eigenvalues' imaginary parts.
    blocks = tensordiag.skew_blocks(core)
    murnaghan = np.zeros_like(core)
    for k, x in enumerate(blocks):
        murnaghan[2 * k, 2 * k + 1], murnaghan[2 * k + 1, 2 * k] = x, -x
    assert np.allclose(core, murnaghan, rtol=0, atol=1e-13)
    imaginary = np.sort(np.linalg.eigvals(a).imag)[-len(blocks):]
    assert np.allclose(np.sort(blocks), imaginary, rtol=0, atol=1e-12)


def test_a_tensor_that_is_not_skew_is_refused():
    tensor, _, _ = tensordiag.generate(3, 4, seed=1)
    with pytest.raises(ValueError, match="the tensor is not skew-symmetric"):
        tensordiag.diagonalize(tensor, structure="skew")
    skew, _, _ = tensordiag.generate(3, 4, seed=1, structure="skew")
    with pytest.raises(ValueError, match="on the blocks"):
        tensordiag.diagonalize(skew, structure="skew", rule="max_trace")
    with pytest.raises(ValueError, match="size >= order"):
        tensordiag.generate(4, 3, seed=1, structure="skew")
