"""init="svd": the HOSVD start (issue 11 item 4), against the identity start."""

import numpy as np
import pytest

import tensordiag


@pytest.mark.parametrize("order,size,noise", [(5, 6, 0.0), (4, 8, 0.1)])
def test_svd_start_reconstructs_the_tensor_and_reports_the_start(order, size, noise):
    tensor, diagonal, _ = tensordiag.generate(order, size, seed=17, noise=noise)
    result = tensordiag.diagonalize_full(tensor, init="svd", backend="cpu")
    plain = tensordiag.diagonalize_full(tensor, backend="cpu")
    assert result.init["method"] == "hosvd" and result.init["seconds"] >= 0
    assert result.init["computed_on"] == "host"
    assert plain.init is None
    rebuilt = tensordiag.reconstruct(result.core, result.factors)
    assert np.linalg.norm(rebuilt - tensor) <= 30 * order * size * np.finfo(np.float64).eps * np.linalg.norm(tensor)
    assert result.history[0]["off_rel"] < 1.0
    assert result.sweeps <= plain.sweeps
    assert result.report()["init"] == result.init
    if noise == 0:
        assert np.allclose(np.sort(np.abs(tensordiag.diagonal(result.core))), np.sort(np.abs(diagonal)), rtol=0,
                           atol=1e-10)


def test_an_unknown_init_is_a_value_error():
    tensor, _, _ = tensordiag.generate(3, 4, seed=2)
    with pytest.raises(ValueError, match="use identity or hosvd"):
        tensordiag.diagonalize(tensor, init="tucker")


def test_svd_start_with_structure_symmetric_keeps_one_factor():
    tensor, diagonal, _ = tensordiag.generate(4, 5, seed=23, structure="symmetric")
    result = tensordiag.diagonalize_full(tensor, init="svd", structure="symmetric", backend="cpu")
    assert result.init["method"] == "hosvd"
    assert all(np.array_equal(factor, result.factors[0]) for factor in result.factors)
    rebuilt = tensordiag.reconstruct(result.core, result.factors)
    assert np.linalg.norm(rebuilt - tensor) <= 30 * 4 * 5 * np.finfo(np.float64).eps * np.linalg.norm(tensor)
    assert np.allclose(np.sort(np.abs(tensordiag.diagonal(result.core))), np.sort(np.abs(diagonal)), rtol=0,
                       atol=1e-10)
