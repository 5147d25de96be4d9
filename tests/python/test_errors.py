"""Bad input: TypeError for dtypes, ValueError with the C++ runtime's messages for the rest."""

import numpy as np
import pytest

import tensordiag


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.float16, np.clongdouble, np.bool_, object])
def test_unsupported_dtypes_raise_type_error(dtype):
    with pytest.raises(TypeError, match=r"unsupported dtype '.*': use float32, float64, complex64 or complex128"):
        tensordiag.diagonalize(np.ones((3, 3, 3), dtype=dtype))


def test_integer_nested_lists_raise_type_error_and_float_lists_work():
    with pytest.raises(TypeError, match="unsupported dtype 'int64'"):
        tensordiag.diagonalize([[[1, 0], [0, 0]], [[0, 0], [0, 1]]])
    core, _ = tensordiag.diagonalize([[[1.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]]])
    assert core.dtype == np.float64


def test_a_matrix_is_pointed_to_the_svd():
    with pytest.raises(ValueError, match=r"shape \(4, 4\): order 2 is a matrix; .* the SVD \(numpy.linalg.svd\)"):
        tensordiag.diagonalize(np.eye(4))


@pytest.mark.parametrize("shape,message", [
    ((3, 4, 3), r"shape \(3, 4, 3\) is not cubical; tensordiag needs a cubical tensor of order >= 3"),
    ((2, 2, 2, 3), r"shape \(2, 2, 2, 3\) is not cubical"),
    ((5,), r"shape \(5,\) is a vector"),
    ((), r"shape \(\) is a scalar"),
    ((0, 0, 0), r"shape \(0, 0, 0\) is empty; tensordiag needs size N >= 2"),
    ((1, 1, 1), r"shape \(1, 1, 1\) has a single entry, which is trivially diagonal"),
])
def test_shapes_the_runtime_refuses(shape, message):
    with pytest.raises(ValueError, match=message):
        tensordiag.diagonalize(np.ones(shape))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_values(bad):
    tensor = np.ones((3, 3, 3), dtype=np.float32)
    tensor[1, 0, 2] = bad
    with pytest.raises(ValueError, match=r"the tensor contains NaN or Inf at flat index 11$"):
        tensordiag.diagonalize(tensor)


@pytest.mark.parametrize("options,message", [
    ({"max_sweeps": 0}, "max_sweeps must be at least 1"),
    ({"eta": -0.1}, "eta must be a finite number >= 0"),
    ({"eta": float("inf")}, "eta must be a finite number >= 0"),
    ({"tol": -1e-3}, "tol must be a finite number >= 0"),
    ({"tol": float("nan")}, "tol must be a finite number >= 0"),
    ({"tol": float("inf")}, "tol must be a finite number >= 0"),
    ({"stall_tol": -1.0}, "stall_tol must be a finite number >= 0"),
    ({"stall_tol": float("nan")}, "stall_tol must be a finite number >= 0"),
    ({"eta": float("nan")}, "eta must be a finite number >= 0"),
    ({"threads": -2}, "threads must be >= 0"),
    ({"rule": "max_everything"}, "unknown rule 'max_everything': use max_diag or max_trace"),
    ({"backend": "gpu"}, "unknown backend 'gpu': use auto, cpu or cuda"),
])
def test_bad_options_raise_value_error(options, message):
    tensor, _, _ = tensordiag.generate(3, 3)
    with pytest.raises(ValueError, match=message):
        tensordiag.diagonalize(tensor, **options)


@pytest.mark.parametrize("options", [{"max_sweeps": 2.5}, {"threads": "4"}])
def test_non_integer_counts_raise_type_error(options):
    tensor, _, _ = tensordiag.generate(3, 3)
    with pytest.raises(TypeError):
        tensordiag.diagonalize(tensor, **options)


@pytest.mark.parametrize("arguments,message", [
    ({"order": 2, "size": 3}, r"generate needs order >= 3 \(order 2 is a matrix: use an SVD\)"),
    ({"order": 3, "size": 1}, "generate needs size >= 2"),
    ({"order": 3, "size": 3, "noise": -1.0}, "noise must be a finite number >= 0"),
    ({"order": 3, "size": 3, "dtype": "int32"}, "unsupported dtype 'int32': use float32, float64, complex64 or complex128"),
    ({"order": 3, "size": 3, "layout": "K"}, "layout must be 'C' or 'F', not 'K'"),
    ({"order": 3, "size": 3, "seed": -1}, "seed must be >= 0, not -1"),
])
def test_generate_rejects_bad_arguments(arguments, message):
    with pytest.raises(ValueError, match=message):
        tensordiag.generate(**arguments)


def test_reconstruct_needs_one_factor_per_mode():
    with pytest.raises(ValueError, match="2 factors for a core of order 3: need one per mode"):
        tensordiag.reconstruct(np.ones((2, 2, 2)), [np.eye(2), np.eye(2)])
