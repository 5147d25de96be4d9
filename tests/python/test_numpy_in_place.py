"""NumPy input read in place (issue 13): a C- or Fortran-contiguous float32/float64 array is handed
to the engine without a copy, and left as it was; other arrays are converted as before."""

import subprocess
import sys

import numpy as np
import pytest

import tensordiag

# One process per measurement: ru_maxrss is a peak over the process's whole life. A 4^12 float64
# tensor (128 MiB), one sweep on the CPU: the run holds its working core (one tensor) and little
# else; a copy of the input would add another tensor to the peak.
_PEAK_SCRIPT = """
import resource, numpy as np, tensordiag
t = np.random.default_rng(0).standard_normal((4,) * 12){convert}
t.sum()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tensordiag.diagonalize(t, max_sweeps=1, backend="cpu", threads=1)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024 / t.nbytes)
"""


def _peak_growth_in_tensors(convert: str) -> float:
    out = subprocess.run([sys.executable, "-c", _PEAK_SCRIPT.format(convert=convert)], check=True,
                         capture_output=True, text=True)
    return float(out.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB is Linux's")
@pytest.mark.parametrize("convert", ["", ".T"], ids=["C", "F"])
def test_a_contiguous_array_is_not_copied(convert):
    # In place: the working core and the returned one (the same buffer) and some slack, about 2
    # tensors; a copy of the input into a vector first, as before issue 13, made it 3.
    assert _peak_growth_in_tensors(convert) < 2.5


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", ["C", "F"])
def test_the_run_in_place_equals_the_run_on_a_copy_and_leaves_the_array(dtype, layout):
    tensor, _, _ = tensordiag.generate(4, 5, seed=21, noise=0.1, dtype=dtype, layout=layout)
    before = tensor.copy(order="K")
    core, factors = tensordiag.diagonalize(tensor, backend="cpu", threads=1, max_sweeps=6)
    # A strided view is copied to C order first: the same values through the other path.
    strided = np.empty((5, 5, 5, 10), dtype=dtype)[..., ::2]
    strided[...] = tensor
    core_copied, factors_copied = tensordiag.diagonalize(strided, backend="cpu", threads=1, max_sweeps=6)
    assert np.array_equal(tensor, before) and tensor.flags.writeable
    assert (core.flags.f_contiguous if layout == "F" else core.flags.c_contiguous)
    np.testing.assert_allclose(core, core_copied, rtol=0, atol=1e-5 if dtype == np.float32 else 1e-12)
    for mine, theirs in zip(factors, factors_copied):
        np.testing.assert_allclose(mine, theirs, rtol=0, atol=1e-5 if dtype == np.float32 else 1e-12)


def test_a_read_only_array_is_read_in_place():
    tensor, _, _ = tensordiag.generate(3, 6, seed=4)
    tensor.flags.writeable = False
    result = tensordiag.diagonalize_full(tensor, backend="cpu")
    assert result.verification["reconstruction_error"] < 1e-13
