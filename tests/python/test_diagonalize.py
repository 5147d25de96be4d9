"""diagonalize: the convention, recovery of generated tensors, dtypes, memory orders, the GIL."""

import sys
import threading

import numpy as np
import pytest

import tensordiag


def orthogonality_error(factors):
    return max(np.linalg.norm(m.T.astype(np.float64) @ m - np.eye(m.shape[0])) for m in factors)


@pytest.mark.parametrize("order,size", [(3, 2), (3, 7), (4, 6), (5, 4), (6, 3)])
def test_recovers_the_generated_diagonal_up_to_sign_and_order(order, size):
    tensor, diagonal, _ = tensordiag.generate(order, size, seed=11)
    core, factors = tensordiag.diagonalize(tensor)
    assert np.allclose(np.sort(np.abs(tensordiag.diagonal(core))), np.sort(np.abs(diagonal)), rtol=0, atol=1e-10)
    assert np.linalg.norm(tensordiag.reconstruct(core, factors) - tensor) < 1e-12 * np.linalg.norm(tensor)
    assert orthogonality_error(factors) < 1e-12


def test_convention_is_the_tensorly_mode_product():
    # T[i, j, k] = sum_abc C[a, b, c] M1[i, a] M2[j, b] M3[k, c], and C = T x_n M_n^T.
    tensor, _, _ = tensordiag.generate(3, 5, seed=2, noise=0.3)
    core, (m1, m2, m3) = tensordiag.diagonalize(tensor)
    assert np.allclose(np.einsum("abc,ia,jb,kc->ijk", core, m1, m2, m3), tensor, atol=1e-13)
    assert np.allclose(np.einsum("ijk,ia,jb,kc->abc", tensor, m1, m2, m3), core, atol=1e-13)
    assert np.allclose(tensordiag.reconstruct(core, [m1, m2, m3]), tensor, atol=1e-13)


def test_generate_follows_the_same_convention():
    tensor, diagonal, factors = tensordiag.generate(4, 3, seed=5)
    s = np.zeros((3,) * 4)
    s[(np.arange(3),) * 4] = diagonal
    assert np.allclose(np.einsum("abcd,ia,jb,kc,ld->ijkl", s, *factors), tensor, atol=1e-14)
    assert np.allclose(tensordiag.reconstruct(s, factors), tensor, atol=1e-14)


def test_generate_is_seeded_and_honours_dtype_layout_and_noise():
    a, da, _ = tensordiag.generate(3, 4, seed=9)
    b, db, _ = tensordiag.generate(3, 4, seed=9)
    assert np.array_equal(a, b) and np.array_equal(da, db)
    assert not np.array_equal(a, tensordiag.generate(3, 4, seed=10)[0])
    single, _, factors = tensordiag.generate(3, 4, seed=9, dtype=np.float32, layout="F")
    assert single.dtype == np.float32 and single.flags.f_contiguous and not single.flags.c_contiguous
    assert factors[0].dtype == np.float64
    assert np.allclose(single, a, atol=1e-6)
    noisy, _, _ = tensordiag.generate(3, 4, seed=9, noise=0.25)
    assert np.linalg.norm(noisy - a) == pytest.approx(0.25 * np.linalg.norm(a), rel=1e-12)


def test_float32_in_float32_out():
    tensor, diagonal, _ = tensordiag.generate(4, 5, seed=3, dtype="float32")
    result = tensordiag.diagonalize_full(tensor)
    assert result.core.dtype == np.float32
    assert all(m.dtype == np.float32 for m in result.factors)
    assert result.converged and result.tol == 1e-5
    assert np.allclose(np.sort(np.abs(tensordiag.diagonal(result.core))), np.sort(np.abs(diagonal)), atol=1e-5)


def test_fortran_order_is_kept_and_matches_its_c_twin():
    tensor, _, _ = tensordiag.generate(4, 6, seed=4, noise=0.1)
    fortran = np.asfortranarray(tensor)
    c_result = tensordiag.diagonalize_full(tensor)
    f_result = tensordiag.diagonalize_full(fortran)
    assert c_result.core.flags.c_contiguous
    assert f_result.core.flags.f_contiguous and not f_result.core.flags.c_contiguous
    assert f_result.sweeps == c_result.sweeps
    assert np.allclose(f_result.core, c_result.core, rtol=0, atol=1e-12)
    for f_factor, c_factor in zip(f_result.factors, c_result.factors):
        assert np.allclose(f_factor, c_factor, rtol=0, atol=1e-12)


def test_other_strides_and_byte_orders_are_accepted():
    tensor, _, _ = tensordiag.generate(3, 5, seed=6, noise=0.2)
    expected, _ = tensordiag.diagonalize(tensor)
    permuted = np.transpose(tensor, (1, 0, 2))  # neither C- nor Fortran-contiguous: copied to C order
    assert not permuted.flags.c_contiguous and not permuted.flags.f_contiguous
    core, factors = tensordiag.diagonalize(permuted)
    assert np.allclose(tensordiag.reconstruct(core, factors), permuted, atol=1e-13)
    big_endian = tensor.astype(">f8")
    core, _ = tensordiag.diagonalize(big_endian)
    assert core.dtype == np.float64 and core.dtype.isnative
    assert np.array_equal(core, expected)


def test_input_is_not_modified_and_outputs_own_their_memory():
    tensor, _, _ = tensordiag.generate(3, 4, seed=8, noise=0.2)
    before = tensor.copy()
    core, factors = tensordiag.diagonalize(tensor)
    assert np.array_equal(tensor, before)
    assert not np.shares_memory(core, tensor)
    core[...] = 0  # writable, and freed by NumPy when dropped
    assert core.flags.writeable and all(m.flags.writeable for m in factors)


def test_already_diagonal_input_stops_at_once():
    tensor = np.zeros((3, 3, 3))
    tensor[(np.arange(3),) * 3] = [3.0, -1.0, 2.0]
    result = tensordiag.diagonalize_full(tensor)
    assert result.sweeps == 0 and result.stop_reason == "tolerance"
    assert np.array_equal(result.core, tensor)


@pytest.mark.parametrize("rule", tensordiag.RULES)
def test_every_rule_diagonalizes_a_diagonalizable_tensor(rule):
    tensor, diagonal, _ = tensordiag.generate(3, 6, seed=12)
    result = tensordiag.diagonalize_full(tensor, rule=rule)
    assert result.rule == rule and result.converged
    assert np.allclose(np.sort(np.abs(tensordiag.diagonal(result.core))), np.sort(np.abs(diagonal)), atol=1e-10)


def test_the_gil_is_released_while_the_run_computes():
    # With a switch interval of an hour, a thread waiting for the GIL gets it only when the holder
    # releases it. The helper, released by the first callback as it returns, can therefore set `ran`
    # before the last callback only if the sweeps in between run without the GIL.
    tensor, _, _ = tensordiag.generate(5, 16, seed=1, noise=0.5)  # sweeps of some 30 ms
    go, ran = threading.Event(), threading.Event()
    seen_by_last_callback = []

    def helper():
        go.wait()
        ran.set()

    def callback(record):
        if record["sweep"] == 1:
            threading.Thread(target=helper).start()
            go.set()
        if record["sweep"] == 4:
            seen_by_last_callback.append(ran.is_set())

    interval = sys.getswitchinterval()
    sys.setswitchinterval(3600)
    try:
        tensordiag.diagonalize(tensor, max_sweeps=4, tol=1e-300, stall_tol=0, callback=callback)
    finally:
        sys.setswitchinterval(interval)
    assert seen_by_last_callback == [True]


def test_schedule_xor_runs_the_subspace_passes_and_converges_like_the_round_robin():
    tensor, _, _ = tensordiag.generate(5, 8, seed=44)
    by_xor = tensordiag.diagonalize_full(tensor, backend="cpu", schedule="xor")
    round_robin = tensordiag.diagonalize_full(tensor, backend="cpu", schedule="round-robin")
    assert by_xor.schedule == "xor" and by_xor.passes_per_sweep == 3
    assert round_robin.schedule == "round-robin" and round_robin.passes_per_sweep == 7
    assert by_xor.converged and by_xor.sweeps <= round_robin.sweeps + 1
    assert by_xor.verification["reconstruction_error"] < 1e-13
    with pytest.raises(ValueError, match="the xor schedule takes N a power of two"):
        tensordiag.diagonalize(tensordiag.generate(3, 6, seed=1)[0], backend="cpu", schedule="xor")
    with pytest.raises(ValueError, match="unknown schedule 'spiral'"):
        tensordiag.diagonalize(tensor, backend="cpu", schedule="spiral")
