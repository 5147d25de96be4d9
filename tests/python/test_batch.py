"""Batches from Python (diagonalize_batch, diagonalize_packed_batch): each tensor's result equals its
run alone bit for bit, from one array or a sequence, and the inputs a batch refuses."""

import numpy as np
import pytest

import tensordiag

KWARGS = dict(max_sweeps=5, tol=0.0, stall_tol=0.0, backend="cpu")


def assert_same_run(batch_result, alone):
    assert batch_result.engine == alone.engine and batch_result.sweeps == alone.sweeps
    assert batch_result.core.dtype == alone.core.dtype and batch_result.layout == alone.layout
    assert np.array_equal(batch_result.core, alone.core)
    assert all(np.array_equal(a, b) for a, b in zip(batch_result.factors, alone.factors))
    assert [r["off_rel"] for r in batch_result.history] == [r["off_rel"] for r in alone.history]
    assert batch_result.verification == alone.verification


def tensors(order, size, count, dtype="float64", structure="general"):
    return [tensordiag.generate(order, size, seed=40 + b, noise=0.05, dtype=dtype, structure=structure)[0]
            for b in range(count)]


@pytest.mark.parametrize("order,size,dtype,structure", [(3, 5, "float64", "general"), (4, 3, "float32", "general"),
                                                        (3, 4, "float64", "symmetric"), (2, 6, "float64", "symmetric")])
def test_each_tensor_of_a_batch_is_its_run_alone(order, size, dtype, structure):
    many = tensors(order, size, 4, dtype, structure)
    stacked = np.stack(many)
    for batch in (stacked, many):
        results = tensordiag.diagonalize_batch(batch, structure=structure, **KWARGS)
        assert len(results) == 4
        for result, tensor in zip(results, many):
            assert_same_run(result, tensordiag.diagonalize_full(tensor, structure=structure, **KWARGS))
            assert result.verification["reconstruction_error"] < (1e-5 if dtype == "float32" else 1e-13)
    # The tensors differ, and so do their results: the batch did not run one tensor four times.
    results = tensordiag.diagonalize_batch(stacked, structure=structure, **KWARGS)
    assert not np.array_equal(results[0].core, results[1].core)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_tensors_of_a_batch_are_their_runs_alone(dtype):
    many = tensors(3, 4, 3, dtype)
    results = tensordiag.diagonalize_batch(np.stack(many), **KWARGS)
    assert [r.engine for r in results] == ["cpu_complex"] * 3 and results[0].core.dtype == np.dtype(dtype)
    for result, tensor in zip(results, many):
        assert_same_run(result, tensordiag.diagonalize_full(tensor, **KWARGS))
        diagonal = tensordiag.diagonal(result.core)
        assert np.all(diagonal.imag == 0) and np.all(diagonal.real >= 0)  # the phases fixed as alone


def test_a_fortran_ordered_stack_and_fortran_tensors_keep_their_values():
    many = tensors(3, 4, 3)
    fortran_stack = np.asfortranarray(np.stack(many))  # tensors[b] strided: copied to C order
    for result, tensor in zip(tensordiag.diagonalize_batch(fortran_stack, **KWARGS), many):
        assert_same_run(result, tensordiag.diagonalize_full(tensor, **KWARGS))
    fortran_items = [np.asfortranarray(t) for t in many]
    results = tensordiag.diagonalize_batch(fortran_items, **KWARGS)
    assert results[0].layout == "F" and results[0].core.flags.f_contiguous
    for result, tensor in zip(results, fortran_items):
        assert_same_run(result, tensordiag.diagonalize_full(tensor, **KWARGS))


def test_planted_tensors_of_a_batch_are_recovered():
    planted = [tensordiag.generate(3, 6, seed=s) for s in (1, 2, 3)]
    results = tensordiag.diagonalize_batch([t for t, _, _ in planted])
    for result, (_, diagonal, _) in zip(results, planted):
        assert result.converged
        assert np.allclose(np.sort(np.abs(tensordiag.diagonal(result.core))), np.sort(np.abs(diagonal)), rtol=0,
                           atol=1e-12)


def test_a_packed_batch_is_each_packed_run_alone():
    rows = [tensordiag.generate_packed(4, 5, seed=s, noise=0.05)[0] for s in (5, 6, 7)]
    for batch in (np.stack(rows), rows):
        results = tensordiag.diagonalize_packed_batch(batch, 4, **KWARGS)
        assert [r.layout for r in results] == ["packed"] * 3
        for result, values in zip(results, rows):
            assert_same_run(result, tensordiag.diagonalize_packed(values, 4, **KWARGS))
    float32 = [r.astype(np.float32) for r in rows]
    result = tensordiag.diagonalize_packed_batch(float32, 4, **KWARGS)[2]
    assert result.core.dtype == np.float32
    assert_same_run(result, tensordiag.diagonalize_packed(float32[2], 4, **KWARGS))


def test_refused_batches_raise_with_the_reason():
    many = tensors(3, 4, 2)
    with pytest.raises(ValueError, match="at least one of the tensors"):
        tensordiag.diagonalize_batch([])
    with pytest.raises(ValueError, match=r"at least 3 axes.*shape \(4, 4\)"):
        tensordiag.diagonalize_batch(np.ones((4, 4)))
    with pytest.raises(TypeError, match="one dtype: item 0 is float64, item 1 float32"):
        tensordiag.diagonalize_batch([many[0], many[1].astype(np.float32)])
    with pytest.raises(ValueError, match="real-only"):
        tensordiag.diagonalize_batch([m.astype(np.complex128) for m in many], rule="max_trace")
    with pytest.raises(ValueError, match="one shape and layout"):
        tensordiag.diagonalize_batch([many[0], tensors(3, 5, 1)[0]])
    with pytest.raises(TypeError, match="unsupported dtype 'int64'"):
        tensordiag.diagonalize_batch(np.ones((2, 3, 3, 3), dtype=np.int64))
    bad = np.stack(many)
    bad[1, 0, 1, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        tensordiag.diagonalize_batch(bad)
    rows = [tensordiag.generate_packed(3, 4, seed=s)[0] for s in (1, 2)]
    with pytest.raises(ValueError, match=r"at least 2 axes.*shape \(20,\)"):
        tensordiag.diagonalize_packed_batch(rows[0], 3)
    with pytest.raises(ValueError, match="at least one of the packed value vectors"):
        tensordiag.diagonalize_packed_batch([], 3)
    with pytest.raises(ValueError):
        tensordiag.diagonalize_packed_batch([rows[0], tensordiag.generate_packed(3, 5, seed=1)[0]], 3)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_a_batch_on_the_gpu_runs_in_one_launch_and_equals_its_tensors_alone(dtype):
    many = tensors(3, 6, 8, dtype)
    probe = tensordiag.diagonalize_full(many[0], max_sweeps=1)
    if probe.backend != "cuda":
        pytest.skip("no GPU: backend auto ran on the CPU")
    kwargs = dict(max_sweeps=6, tol=0.0, stall_tol=0.0, backend="cuda")
    results = tensordiag.diagonalize_batch(np.stack(many), **kwargs)
    assert [r.engine for r in results] == ["cuda_one_block"] * 8
    for result, tensor in zip(results, many):
        alone = tensordiag.diagonalize_full(tensor, **kwargs)
        assert result.sweeps == alone.sweeps
        # The one-block engine, alone or in a batch: the same arithmetic, bit for bit (no eta).
        assert np.array_equal(result.core, alone.core)
        assert all(np.array_equal(a, b) for a, b in zip(result.factors, alone.factors))
        cpu = tensordiag.diagonalize_full(tensor, **dict(kwargs, backend="cpu"))
        assert np.allclose(result.core, cpu.core, rtol=0, atol=1e-10 * np.abs(cpu.core).max())
