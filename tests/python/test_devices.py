"""devices=: one tensor over GPU ranks of this process (NCCL). The GPU cases skip without two GPUs."""

import numpy as np
import pytest

import tensordiag


def _on_two_gpus(tensor, **options):
    """diagonalize_full on devices 0 and 1, or skip when the machine has not two GPUs."""
    try:
        return tensordiag.diagonalize_full(tensor, devices=[0, 1], **options)
    except ValueError as error:
        text = str(error)
        if "GPU ranks need CUDA devices" in text or "there is no CUDA device" in text:
            pytest.skip(f"needs two GPUs ({text})")
        raise


def test_devices_arguments_are_checked_before_any_gpu_is_asked():
    tensor, _, _ = tensordiag.generate(4, 8, seed=3)
    with pytest.raises(ValueError, match="at least one CUDA device"):
        tensordiag.diagonalize(tensor, devices=[])
    with pytest.raises(ValueError, match="backend='cpu' contradicts it"):
        tensordiag.diagonalize(tensor, devices=[0], backend="cpu")
    with pytest.raises(TypeError):
        tensordiag.diagonalize(tensor, devices=[0.5])


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
