"""CUDA arrays read in place (issue 13): CuPy and PyTorch through DLPack, anything else through
__cuda_array_interface__. The tensor never passes through host memory, the caller's array is left
as it was, and the core and the factors come back on the same device as arrays of the caller's
library (DeviceArray for an array-interface input). The GPU tests skip without CuPy or PyTorch, or
without a GPU; the error paths that need neither run everywhere."""

import gc

import numpy as np
import pytest

import tensordiag
from tensordiag import _tensordiag

# A fixed number of sweeps on every path (no tolerance or stall stop), so that runs compare; on
# Gaussian tensors, which are not diagonalizable, no sweep stalls at the rounding level in three.
FIXED = dict(max_sweeps=3, tol=0.0, stall_tol=0.0)


def _gaussian(shape, dtype=np.float64, seed=5):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _relative_difference(x, y):
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return np.linalg.norm(x - y) / np.linalg.norm(y)


class ArrayInterfaceOnly:
    """An object that speaks __cuda_array_interface__ and nothing else (as a Numba array does)."""

    def __init__(self, interface, keep=None):
        self.__cuda_array_interface__ = interface
        self._keep = keep  # the array that owns the memory


def _fake_interface(shape=(4, 4, 4), typestr="<f8", strides=None):
    return ArrayInterfaceOnly({"shape": shape, "typestr": typestr, "data": (4096, False), "strides": strides,
                               "version": 3})


# ---- everywhere: the checks made before any device is touched ----

def test_a_cuda_array_with_backend_cpu_is_refused():
    with pytest.raises(ValueError, match=r"backend='cpu' takes host arrays, and this .*ArrayInterfaceOnly is in "
                                         r"CUDA memory: use backend='cuda' or 'auto'"):
        tensordiag.diagonalize(_fake_interface(), backend="cpu")


@pytest.mark.parametrize("typestr", ["<i8", "<f2", ">f8", "<c16"])
def test_a_cuda_array_of_another_dtype_is_a_type_error(typestr):
    with pytest.raises(TypeError, match=r"unsupported dtype '.*' of a CUDA array: use float32 or float64"):
        tensordiag.diagonalize(_fake_interface(typestr=typestr))


def test_a_strided_cuda_array_is_refused_not_copied():
    with pytest.raises(ValueError, match=r"neither C- nor Fortran-contiguous \(strides \(32, 4, 1\) in entries\): "
                                         r"tensordiag reads CUDA arrays in place"):
        tensordiag.diagonalize(_fake_interface(strides=(256, 32, 8)))


def test_a_cuda_array_of_a_bad_shape_gets_the_runtime_message():
    with pytest.raises(ValueError, match=r"shape \(4, 5, 4\) is not cubical"):
        tensordiag.diagonalize(_fake_interface(shape=(4, 5, 4)))


def test_a_dlpack_capsule_of_host_memory_is_refused_by_the_module():
    capsule = np.ones((3, 3, 3)).__dlpack__()
    with pytest.raises(ValueError, match=r"the DLPack array is not in CUDA device memory \(DLPack device type 1\)"):
        _tensordiag.diagonalize_cuda(capsule, 5, None, 0.0, "max_diag", "auto", None, 0, False, "auto", "general", None)


def test_numpy_arrays_keep_the_host_path():
    tensor, _, _ = tensordiag.generate(3, 4, seed=2)
    core, factors = tensordiag.diagonalize(tensor, backend="cpu")
    assert isinstance(core, np.ndarray) and all(isinstance(f, np.ndarray) for f in factors)


# ---- on a GPU: CuPy and PyTorch ----

class Library:
    """What the tests need of an array library, on CUDA device 0."""

    def __init__(self, name):
        self.name = name
        if name == "cupy":
            self.module = pytest.importorskip("cupy")
            try:
                count = self.module.cuda.runtime.getDeviceCount()
            except self.module.cuda.runtime.CUDARuntimeError as error:
                pytest.skip(f"CuPy is installed but finds no GPU ({error})")
            if count == 0:
                pytest.skip("CuPy is installed but finds no GPU")
            self.array_type = self.module.ndarray
        else:
            self.module = pytest.importorskip("torch")
            if not self.module.cuda.is_available():
                pytest.skip("PyTorch is installed but has no CUDA device (no GPU, or a CPU-only build)")
            self.array_type = self.module.Tensor

    def device_count(self):
        if self.name == "cupy":
            return self.module.cuda.runtime.getDeviceCount()
        return self.module.cuda.device_count()

    def to_device(self, array, device=0):
        if self.name == "cupy":
            with self.module.cuda.Device(device):
                return self.module.asarray(array)
        return self.module.from_numpy(array).to(f"cuda:{device}")

    def to_host(self, x):
        return self.module.asnumpy(x) if self.name == "cupy" else x.cpu().numpy()

    def device_of(self, x):
        return x.device.id if self.name == "cupy" else x.device.index

    def is_cuda(self, x):
        return isinstance(x, self.array_type) and (self.name == "cupy" or x.is_cuda)

    def copy(self, x):
        return x.copy() if self.name == "cupy" else x.clone()

    def equal(self, x, y):
        return bool((x == y).all())


@pytest.fixture(params=["cupy", "torch"])
def library(request):
    return Library(request.param)


def _orthogonality(factor):
    return np.abs(factor.T.astype(np.float64) @ factor.astype(np.float64) - np.eye(factor.shape[0])).max()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("backend", ["auto", "cuda"])
def test_a_cuda_array_runs_in_place_and_its_result_stays_on_the_device(library, dtype, backend):
    tensor = _gaussian((12, 12, 12), dtype)
    x = library.to_device(tensor)
    before = library.copy(x)
    result = tensordiag.diagonalize_full(x, backend=backend, verify=True, **FIXED)
    assert result.backend == "cuda" and result.engine == "cuda"
    assert library.is_cuda(result.core) and library.device_of(result.core) == library.device_of(x) == 0
    assert tuple(result.core.shape) == tensor.shape and result.dtype == np.dtype(dtype).name
    assert len(result.factors) == 3
    for factor in result.factors:
        assert library.is_cuda(factor) and library.device_of(factor) == 0 and tuple(factor.shape) == (12, 12)
    assert library.equal(x, before), "the input was written"

    tight = 1e-12 if dtype == np.float64 else 1e-5
    assert result.verification["reconstruction_error"] < 10 * tight
    assert result.verification["orthogonality_error"] < 10 * tight
    core = library.to_host(result.core)
    factors = [library.to_host(f) for f in result.factors]
    assert core.dtype == dtype and all(f.dtype == dtype for f in factors)
    assert max(_orthogonality(f) for f in factors) < 10 * tight
    rebuilt = tensordiag.reconstruct(core.astype(np.float64), [f.astype(np.float64) for f in factors])
    assert np.linalg.norm(rebuilt - tensor) / np.linalg.norm(tensor) < 10 * tight

    # The same sweeps from the host on the CPU: the same core and factors, to the dtype's rounding
    # (the bounds of the C++ GPU-against-CPU tests).
    reference = tensordiag.diagonalize_full(tensor, backend="cpu", **FIXED)
    assert result.sweeps == reference.sweeps == 3
    bound = 1e-10 if dtype == np.float64 else 1e-4
    assert _relative_difference(core, reference.core) < bound
    for mine, theirs in zip(factors, reference.factors):
        assert _relative_difference(mine, theirs) < bound


def test_diagonalize_returns_arrays_of_the_callers_library(library):
    tensor, _, _ = tensordiag.generate(4, 6, seed=8)
    core, factors, history = tensordiag.diagonalize(library.to_device(tensor), return_history=True)
    assert library.is_cuda(core) and all(library.is_cuda(f) for f in factors)
    assert history[-1]["off_rel"] < 1e-10


def test_a_fortran_ordered_cuda_array_keeps_its_order():
    cupy = Library("cupy").module
    tensor = np.asfortranarray(_gaussian((10, 10, 10), seed=6))
    x = cupy.asfortranarray(cupy.asarray(tensor))
    assert x.flags.f_contiguous and not x.flags.c_contiguous
    result = tensordiag.diagonalize_full(x, verify=True, **FIXED)
    assert result.layout == "F" and result.core.flags.f_contiguous
    reference = tensordiag.diagonalize_full(tensor, backend="cpu", **FIXED)
    assert reference.layout == "F"
    assert _relative_difference(cupy.asnumpy(result.core), reference.core) < 1e-10
    assert result.verification["reconstruction_error"] < 1e-12


def test_bad_cuda_arrays_get_one_clear_line(library):
    tensor, _, _ = tensordiag.generate(3, 6, seed=3)
    x = library.to_device(tensor)
    with pytest.raises(ValueError, match="neither C- nor Fortran-contiguous"):
        tensordiag.diagonalize(x.transpose(1, 0, 2) if library.name == "cupy" else x.permute(1, 0, 2))
    with pytest.raises(TypeError, match="unsupported dtype 'int32' of a CUDA array"):
        tensordiag.diagonalize(library.to_device(tensor.astype(np.int32)))
    with pytest.raises(ValueError, match="backend='cpu' takes host arrays"):
        tensordiag.diagonalize(x, backend="cpu")
    bad = tensor.copy()
    bad[1, 2, 3] = np.nan
    with pytest.raises(ValueError, match="the tensor contains NaN or Inf"):
        tensordiag.diagonalize(library.to_device(bad))
    with pytest.raises(ValueError, match=r"shape \(6, 6\): order 2 is a matrix"):
        tensordiag.diagonalize(library.to_device(tensor[0]))


def test_a_cuda_array_on_another_device_is_refused(library):
    if library.device_count() < 2:
        pytest.skip("needs two GPUs: tensordiag runs on device 0, and the test puts the tensor on device 1")
    tensor, _, _ = tensordiag.generate(3, 6, seed=3)
    with pytest.raises(ValueError, match="the tensor is on CUDA device 1, but tensordiag runs on device 0"):
        tensordiag.diagonalize(library.to_device(tensor, device=1))


def test_an_array_interface_input_gives_device_arrays_that_every_library_takes():
    cupy = Library("cupy").module
    tensor, _, _ = tensordiag.generate(3, 8, seed=9)
    x = cupy.asarray(tensor)
    through_interface = ArrayInterfaceOnly(x.__cuda_array_interface__, keep=x)
    result = tensordiag.diagonalize_full(through_interface, verify=True, **FIXED)
    assert isinstance(result.core, tensordiag.DeviceArray)
    assert result.core.shape == (8, 8, 8) and result.core.dtype == "float64" and result.core.device == 0
    assert result.core.__dlpack_device__() == (2, 0)
    from_dlpack = tensordiag.diagonalize_full(x, **FIXED)
    # CuPy through the array interface, and through DLPack, read the same memory.
    assert bool((cupy.asarray(result.core) == from_dlpack.core).all())
    assert bool((cupy.from_dlpack(result.factors[0]) == from_dlpack.factors[0]).all())
    assert result.verification["reconstruction_error"] < 1e-12


def test_results_outlive_each_other_in_any_order(library):
    tensor, _, _ = tensordiag.generate(3, 8, seed=10)
    core, factors = tensordiag.diagonalize(library.to_device(tensor), **FIXED)
    expected = [library.to_host(f) for f in factors]
    del core
    gc.collect()
    # The factors share one allocation: it lives while any of them does.
    last = factors[-1]
    del factors
    gc.collect()
    assert np.array_equal(library.to_host(last), expected[-1])
