"""devices=: one tensor over GPU ranks of this process (NCCL). The GPU cases skip without two GPUs."""

import json
import os
import re
import subprocess

import numpy as np
import pytest

import tensordiag


def _on_gpus(tensor, devices, **options):
    """diagonalize_full on those devices, or skip when the machine lacks them."""
    try:
        return tensordiag.diagonalize_full(tensor, devices=devices, **options)
    except ValueError as error:
        text = str(error)
        if "GPU ranks need CUDA devices" in text or "there is no CUDA device" in text:
            pytest.skip(f"needs {len(devices)} GPU(s) ({text})")
        raise


def _without_nccl_version(distributed):
    """A "distributed" report with its transport's NCCL version left out. The transport names the
    NCCL the process loaded (libnccl.so.2 by its soname), and a Python process may find another build
    of it than the command does: 2.28.9 against 2.28.3 on one GPU machine (2026-11-29)."""
    return {**distributed, "transport": re.sub(r"^NCCL [0-9.]+,", "NCCL,", distributed["transport"])}


def _on_two_gpus(tensor, **options):
    """diagonalize_full on devices 0 and 1, or skip when the machine has not two GPUs."""
    return _on_gpus(tensor, [0, 1], **options)


def test_devices_arguments_are_checked_before_any_gpu_is_asked():
    tensor, _, _ = tensordiag.generate(4, 8, seed=3)
    with pytest.raises(ValueError, match="at least one CUDA device"):
        tensordiag.diagonalize(tensor, devices=[])
    with pytest.raises(ValueError, match="backend='cpu' contradicts it"):
        tensordiag.diagonalize(tensor, devices=[0], backend="cpu")
    with pytest.raises(TypeError):
        tensordiag.diagonalize(tensor, devices=[0.5])


@pytest.mark.skipif("TENSORDIAG_CLI" not in os.environ, reason="TENSORDIAG_CLI names the tensordiag command (CTest sets it)")
@pytest.mark.parametrize("devices", [[0], [0, 1]])
def test_result_distributed_is_the_commands_distributed_report(tmp_path, devices):
    # The same tensor and sweeps through Python's devices= and the command's --devices: the same
    # "distributed" object, key for key, all but rank 0's seconds in the exchanges equal.
    tensor, _, _ = tensordiag.generate(4, 8, seed=41, noise=0.01)
    result = _on_gpus(tensor, devices, max_sweeps=4, tol=1e-300, stall_tol=0)
    np.save(tmp_path / "tensor.npy", tensor)
    subprocess.run([os.environ["TENSORDIAG_CLI"], "diagonalize", str(tmp_path / "tensor.npy"), "--out",
                    str(tmp_path / "run"), "--devices", ",".join(map(str, devices)), "--max-sweeps", "4", "--tol",
                    "1e-300", "--stall-tol", "0", "--quiet"], check=True)
    command = json.loads((tmp_path / "run" / "report.json").read_text())["distributed"]
    ours = result.distributed
    assert list(ours) == list(command)
    compared, expected = _without_nccl_version(ours), _without_nccl_version(command)
    for key in ours:
        if key != "rank0_exchange_seconds":
            assert compared[key] == expected[key], key
    assert ours["ranks"] == len(devices)
    assert re.match(r"NCCL [0-9]+[.][0-9]+[.][0-9]+, ", ours["transport"])
    if len(devices) == 1:
        assert ours["bytes_per_sweep"] == 0 and ours["rank0_bytes_sent"] == 0
    else:
        assert ours["bytes_per_sweep"] > 0 and ours["rank0_bytes_sent"] > 0
    assert result.report()["distributed"] == ours
    # One process's engines have no distribution.
    assert tensordiag.diagonalize_full(tensor, max_sweeps=1).distributed is None
    assert "distributed" not in tensordiag.diagonalize_full(tensor, max_sweeps=1).report()


def test_two_gpu_ranks_reconstruct_the_tensor_and_recover_its_diagonal():
    tensor, diagonal, _ = tensordiag.generate(5, 8, seed=29)
    result = _on_two_gpus(tensor, max_sweeps=30)
    assert result.engine == "cuda_distributed"
    assert result.core.shape == tensor.shape and result.core.dtype == tensor.dtype
    rebuilt = tensordiag.reconstruct(result.core, result.factors)
    assert np.linalg.norm(rebuilt - tensor) <= 30 * 8 * 5 * np.finfo(np.float64).eps * np.linalg.norm(tensor)
    assert np.allclose(np.sort(np.abs(tensordiag.diagonal(result.core))), np.sort(np.abs(diagonal)), rtol=0,
                       atol=1e-10)
    assert result.verification["reconstruction_error"] <= 1e-12


def test_two_gpu_ranks_in_float32_and_fortran_order():
    tensor, diagonal, _ = tensordiag.generate(4, 16, seed=31, dtype="float32")
    tensor = np.asfortranarray(tensor)
    calls = []
    result = _on_two_gpus(tensor, max_sweeps=30, callback=lambda record: calls.append(record["sweep"]))
    assert result.core.dtype == np.float32 and result.core.flags.f_contiguous
    # The callback runs once a sweep (rank 0's), not once a rank.
    assert calls == list(range(1, len(result.history)))
    assert np.allclose(np.sort(np.abs(tensordiag.diagonal(result.core))), np.sort(np.abs(diagonal)), rtol=0,
                       atol=1e-4 * np.abs(diagonal).max())


def test_n_equal_2_on_two_gpu_ranks_equals_one_gpu():
    # N = 2, D = 21 float32 (8 MB): the qubit path split over two GPU ranks; its factors equal one
    # GPU's qubit engine bit for bit, the core to rounding.
    tensor, _, _ = tensordiag.generate(21, 2, seed=37, dtype="float32", noise=0.01)
    result = _on_two_gpus(tensor, max_sweeps=10)
    assert result.engine == "cuda_distributed"
    one = tensordiag.diagonalize_full(tensor, backend="cuda", max_sweeps=10)
    assert one.engine == "cuda_qubit"
    assert len(result.history) == len(one.history)
    assert all(np.array_equal(a, b) for a, b in zip(result.factors, one.factors))
    assert np.abs(result.core - one.core).max() <= 1e-5 * np.abs(one.core).max()
    # The pivot check accepts every rotation of an N = 2 tensor below eta = 1.5 (the same run);
    # from there the N = 2 path on GPU ranks refuses it.
    checked = _on_two_gpus(tensor, max_sweeps=10, eta=0.001)
    assert all(np.array_equal(a, b) for a, b in zip(checked.factors, result.factors))
    with pytest.raises(ValueError, match="eta < 1.5"):
        tensordiag.diagonalize(tensor, devices=[0, 1], eta=2.5)
