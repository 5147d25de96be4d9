"""Packed symmetric storage: the format against itertools, the run against the full symmetric run,
recovery of planted tensors never formed in full, and the inputs refused."""

import itertools

import numpy as np
import pytest

import tensordiag


def random_symmetric(order, size, seed):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(len(list(itertools.combinations_with_replacement(range(size), order))))
    return tensordiag.unpack_symmetric(values, order)


@pytest.mark.parametrize("order,size", [(2, 5), (3, 4), (4, 3), (5, 2)])
def test_the_format_is_combinations_with_replacement_and_unpack_inverts_pack(order, size):
    tensor = random_symmetric(order, size, seed=order)
    for index in itertools.product(range(size), repeat=order):  # symmetric under every permutation
        assert tensor[index] == tensor[tuple(sorted(index))]
    packed = tensordiag.pack_symmetric(tensor)
    want = [tensor[i] for i in itertools.combinations_with_replacement(range(size), order)]
    assert packed.tolist() == want
    assert np.array_equal(tensordiag.unpack_symmetric(packed, order), tensor)


@pytest.mark.parametrize("order,size", [(3, 6), (4, 5), (2, 8), (5, 4)])
def test_a_packed_run_is_the_full_symmetric_run(order, size):
    tensor, _, _ = tensordiag.generate(order, size, seed=9, noise=0.05, structure="symmetric")
    kwargs = dict(max_sweeps=6, tol=0.0, stall_tol=0.0, backend="cpu")
    full = tensordiag.diagonalize_full(tensor, structure="symmetric", **kwargs)
    packed = tensordiag.diagonalize_packed(tensordiag.pack_symmetric(tensor), order, **kwargs)
    # Float64 orders <= 3 on the CPU run through full storage where it is small (the full engine's run).
    assert packed.layout == "packed" and packed.engine == ("cpu" if order <= 3 else "cpu_packed")
    assert packed.structure == "symmetric"
    assert packed.sweeps == full.sweeps
    assert np.allclose(tensordiag.unpack_symmetric(packed.core, order), full.core, rtol=0,
                       atol=1e-12 * np.abs(full.core).max())
    assert np.allclose(packed.factors[0], full.factors[0], rtol=0, atol=1e-12)
    assert len(packed.factors) == order
    report = packed.report()
    assert (report["order"], report["size"], report["layout"]) == (order, size, "packed")
    assert packed.verification["reconstruction_error"] < 1e-13


def test_planted_tensors_generated_packed_are_recovered():
    values, diagonal, q = tensordiag.generate_packed(5, 6, seed=4)
    full, full_diagonal, factors = tensordiag.generate(5, 6, seed=4, structure="symmetric")
    assert np.array_equal(values, tensordiag.pack_symmetric(full))  # bit for bit without noise
    assert np.array_equal(diagonal, full_diagonal) and np.array_equal(q, factors[0])
    result = tensordiag.diagonalize_packed(values, 5)
    assert result.converged
    core = tensordiag.unpack_symmetric(result.core, 5)
    # odd order: C[i..i] = +-S up to order
    assert np.allclose(np.sort(np.abs(tensordiag.diagonal(core))), np.sort(np.abs(diagonal)), rtol=0, atol=1e-12)
    assert result.verification["reconstruction_error"] < 1e-13


def test_the_svd_start_is_the_full_symmetric_runs():
    tensor, _, _ = tensordiag.generate(4, 5, seed=3, noise=0.05, structure="symmetric")
    kwargs = dict(max_sweeps=8, backend="cpu", init="svd")
    full = tensordiag.diagonalize_full(tensor, structure="symmetric", **kwargs)
    packed = tensordiag.diagonalize_packed(tensordiag.pack_symmetric(tensor), 4, **kwargs)
    assert packed.init["method"] == "hosvd" and packed.sweeps == full.sweeps
    assert np.isclose(packed.history[0]["off_rel"], full.history[0]["off_rel"], rtol=1e-10)
    assert np.allclose(tensordiag.unpack_symmetric(packed.core, 4), full.core, rtol=0,
                       atol=1e-10 * np.abs(full.core).max())


def test_float32_values_run_in_float32():
    values, _, _ = tensordiag.generate_packed(3, 7, seed=2, noise=1e-3, dtype="float32")
    assert values.dtype == np.float32
    result = tensordiag.diagonalize_packed(values, 3, max_sweeps=20)
    assert result.core.dtype == np.float32 and result.dtype == "float32"
    assert result.verification["reconstruction_error"] < 1e-5


def test_refused_inputs_raise_with_the_reason():
    values, _, _ = tensordiag.generate_packed(3, 6, seed=1)
    with pytest.raises(ValueError, match="57 values are no packed symmetric tensor of order 3"):
        tensordiag.diagonalize_packed(np.ones(57), 3)
    with pytest.raises(ValueError, match="one-dimensional"):
        tensordiag.diagonalize_packed(np.ones((6, 6, 6)), 3)
    with pytest.raises(TypeError, match="float32 or float64"):
        tensordiag.diagonalize_packed(values.astype(np.complex128), 3)
    high, _, _ = tensordiag.generate_packed(13, 2, seed=1)
    with pytest.raises(ValueError, match=r"packed storage on the GPU takes order D <= 12 \(order 13\)"):
        tensordiag.diagonalize_packed(high, 13, backend="cuda")
    with pytest.raises(ValueError, match="N a power of two"):
        tensordiag.diagonalize_packed(values, 3, schedule="xor")
    bad = values.copy()
    bad[3] = np.inf
    with pytest.raises(ValueError, match="Inf at entry 3"):
        tensordiag.diagonalize_packed(bad, 3)
    with pytest.raises(ValueError, match="no packed symmetric tensor of order 4"):
        tensordiag.unpack_symmetric(values, 4)
    with pytest.raises(ValueError, match="cubical"):
        tensordiag.pack_symmetric(np.ones((3, 4)))
