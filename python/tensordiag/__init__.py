"""Jacobi-type approximate orthogonal diagonalization of dense cubical tensors.

For a tensor T of order D >= 3 and size N in every mode, :func:`diagonalize` finds orthogonal
N x N factors M_1 .. M_D and a core C, as diagonal as the rule makes it, with

    T = C x_1 M_1 x_2 M_2 ... x_D M_D,   (C x_n M)[.., j, ..] = sum_i M[j, i] C[.., i, ..]

(the TensorLy / Kolda-Bader mode product; mode n is axis n-1). Equivalently
C = T x_1 M_1^T ... x_D M_D^T, so C[i, .., i] = <T, m_1i (x) m_2i (x) ... (x) m_Di>, m_ni the i-th
column of M_n. ``(core, factors)`` is a Tucker tensor: ``tensorly.tucker_to_tensor((core, factors))``
rebuilds T, and so does :func:`reconstruct` here, in plain NumPy.

The default rule, ``"max_diag"``, maximizes ||diag C||^2 = sum_i C[i, .., i]^2; ``"max_trace"``
maximizes sum_i C[i, .., i]. For a diagonalizable T (T = S x_1 Q_1 ... x_D Q_D, S diagonal, Q_n
orthogonal) the core converges to S up to sign and order of the diagonal entries.

CUDA arrays (CuPy, PyTorch, JAX through DLPack; anything with ``__cuda_array_interface__``) are read
in place on the GPU, and their core and factors stay there: see :func:`diagonalize`.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import operator
from typing import Any, Callable, Optional, Sequence

import numpy as np

from . import _tensordiag

__version__: str = _tensordiag.__version__

#: The built-in rotation rules, by name.
RULES: tuple = _tensordiag.rules

#: The kernel kinds the code generator emits, by name (see :func:`kernel_source`).
KERNEL_KINDS: tuple = _tensordiag.kernel_kinds

#: A result in CUDA device memory, for inputs whose library has no ``from_dlpack`` (a
#: ``__cuda_array_interface__`` input, e.g. Numba's): it has ``__dlpack__``, ``__dlpack_device__`` and
#: ``__cuda_array_interface__``, so ``cupy.from_dlpack(a)``, ``torch.from_dlpack(a)``,
#: ``numba.cuda.as_cuda_array(a)`` or ``cupy.asarray(a)`` take it without a copy; and ``shape``,
#: ``dtype`` (a string) and ``device`` (the CUDA ordinal).
DeviceArray = _tensordiag.DeviceArray

__all__ = ["KERNEL_KINDS", "RULES", "DeviceArray", "Result", "diagonal", "diagonalize", "diagonalize_batch",
           "diagonalize_full", "diagonalize_packed", "diagonalize_packed_batch", "generate", "generate_packed",
           "kernel_source", "pack_symmetric", "reconstruct",
           "skew_blocks", "unpack_symmetric"]


@dataclasses.dataclass(frozen=True)
class Result:
    """Everything a run computed; :func:`diagonalize_full` returns it.

    ``history[0]`` describes the input (sweep 0, off_rel 1), ``history[k]`` the core after sweep k:
    dicts ``{"sweep", "off_rel", "diag_norm2", "trace", "seconds"}`` with off_rel = off(C) / off(T),
    off(X)^2 the sum of squares of the off-diagonal entries, diag_norm2 = ||diag C||^2,
    trace = sum_i C[i, .., i] and seconds the wall time of that sweep alone. ``stop_reason`` is
    ``"tolerance"`` (off_rel <= tol), ``"stalled"`` (a sweep raised the rule's objective,
    ||diag C||^2 or the trace for max_trace, by less than stall_tol, relative, and did not halve
    off_rel: the tensor is not
    diagonalizable, or rounding has taken over), ``"max_sweeps"`` or ``"callback"``.
    ``pivot_checks`` (with ``eta > 0``) is ``{"mode_checks", "exact_norms"}``: the mode checks
    made and how many needed the exact ||Lambda||_2 (the rest were decided by its bounds); None
    without the check. ``device_memory_peak_bytes`` (GPU runs) is the most device memory the run's
    own buffers held at once, the device verification included; None on the CPU. ``distributed``
    (``devices=``) is report.json's ``"distributed"`` object: ``{"ranks", "transport", "layout",
    "stages_per_sweep", "bytes_per_sweep", "rank0_bytes_sent", "rank0_exchange_seconds",
    "overlapped_changes", "pipelined_changes"}`` (the README's Outputs), else None. ``init`` is ``{"method": "hosvd", "seconds", "computed_on"}`` for a run
    started from the HOSVD (``init="svd"``; ``computed_on`` is ``"device"`` for the general GPU
    engine's start on a tensor over 4 MiB or a CUDA array, else ``"host"``), else None. ``verification`` is ``{"reconstruction_error", "orthogonality_error"}`` (||T - C x_1 M_1 ...
    x_D M_D||_F / ||T||_F and max_n ||M_n^T M_n - I||_F, in float64; their time is
    ``timings["verification_seconds"]``), or None when the run was not verified (``verify=False``).
    ``core`` and ``factors`` are NumPy arrays for a host input, and arrays on the GPU for a CUDA input
    (see :func:`diagonalize`); ``dtype`` and ``layout`` (``"C"`` or ``"F"``, or ``"packed"`` for
    :func:`diagonalize_packed`'s core of distinct entries) describe the core.
    """

    core: Any
    factors: list
    history: list
    stop_reason: str
    max_sweeps: int
    backend: str
    engine: str
    schedule: str
    passes_per_sweep: int
    kernels: list
    device: str
    rule: str
    structure: str
    eta: float
    tol: float
    stall_tol: float
    timings: dict
    verification: Optional[dict]
    dtype: str
    layout: str
    pivot_checks: Optional[dict] = None
    init: Optional[dict] = None
    distributed: Optional[dict] = None
    device_memory_peak_bytes: Optional[int] = None

    @property
    def sweeps(self) -> int:
        """Sweeps run (history has one more entry: the input)."""
        return len(self.history) - 1

    @property
    def converged(self) -> bool:
        """True when off_rel reached tol."""
        return self.stop_reason == "tolerance"

    def summary(self) -> str:
        """One line saying how the run stopped, the line the tensordiag command prints."""
        return _tensordiag.stop_summary(self.stop_reason, self.rule, self.sweeps, self.history[-1]["off_rel"],
                                        self.tol, self.stall_tol)

    def report(self) -> dict:
        """The run as a dict with the keys and meanings of the command's report.json.

        Omits what only the command knows: the input file and its dtype. Without a verification
        (``verify=False``) the two errors give way to ``"verification": "skipped"``, as in the
        command's report. ``python3 -m tensordiag.plot`` reads it once saved as JSON.
        """
        report = {
            "tensordiag_version": __version__,
            "order": len(self.factors),  # the core's order, also for a packed core
            "size": self.factors[0].shape[0],
            "dtype": self.dtype,
            "layout": self.layout,
            "structure": self.structure,
            "backend": self.backend,
            "engine": self.engine,
            "schedule": self.schedule,
            "passes_per_sweep": self.passes_per_sweep,
            "kernels": list(self.kernels),
            "device": self.device,
            "rule": self.rule,
            "eta": self.eta,
            "tol": self.tol,
            "stall_tol": self.stall_tol,
            "max_sweeps": self.max_sweeps,
            "sweeps": self.sweeps,
            "stop_reason": self.stop_reason,
            "converged": self.converged,
            "history": [dict(record) for record in self.history],
        }
        if self.init is not None:
            report["init"] = dict(self.init)
        if self.device_memory_peak_bytes is not None:
            report["device_memory_peak_bytes"] = self.device_memory_peak_bytes
        if self.pivot_checks is not None:
            report["pivot_checks"] = dict(self.pivot_checks)
        if self.verification is None:
            report["verification"] = "skipped"
        else:
            report.update(self.verification)
        report["timings"] = dict(self.timings)
        if self.distributed is not None:
            report["distributed"] = dict(self.distributed)
        return report


def _tensor_array(tensor: Any) -> np.ndarray:
    """The tensor as a float32/float64/complex64/complex128 array in native byte order, C- or
    Fortran-contiguous.

    Arrays that already are pass through without a copy; other strided arrays become C-ordered.
    """
    array = np.asarray(tensor)
    if (array.dtype.kind, array.dtype.itemsize) not in (("f", 4), ("f", 8), ("c", 8), ("c", 16)):
        raise TypeError(f"unsupported dtype '{array.dtype}': use float32, float64, complex64 or complex128 "
                        "(convert with tensor.astype(numpy.float64))")
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    if not (array.flags.c_contiguous or array.flags.f_contiguous):
        array = np.ascontiguousarray(array)
    return array


# DLPack device types (dlpack.h) whose arrays the GPU engine reads in place: kDLCUDA, kDLCUDAManaged.
_DLPACK_CUDA_DEVICES = (2, 13)
# Host memory in DLPack terms: kDLCPU, kDLCUDAHost (pinned), kDLROCMHost. NumPy reads these.
_DLPACK_HOST_DEVICES = (1, 3, 11)


def _device_list(devices: Optional[Sequence[int]], tensor: Any, backend: str) -> list:
    """``devices=`` checked: [] for one process's engines, else the CUDA indices of the GPU ranks."""
    if devices is None:
        return []
    device_list = [operator.index(d) for d in devices]
    if not device_list:
        raise ValueError("devices= names at least one CUDA device, e.g. devices=[0, 1]")
    if backend == "cpu":
        raise ValueError("devices= runs GPU ranks: backend='cpu' contradicts it")
    if hasattr(tensor, "__dlpack__") or hasattr(tensor, "__cuda_array_interface__"):
        if not isinstance(tensor, np.ndarray):
            raise ValueError("devices= takes a host (NumPy) array: the ranks read their rows from host memory")
    return device_list


def _cuda_source(tensor: Any, backend: str):
    """What _tensordiag.diagonalize_cuda reads for a CUDA array, or None for anything else.

    An array with ``__dlpack_device__`` in CUDA memory gives its DLPack capsule; one with
    ``__cuda_array_interface__`` (and no DLPack) gives that interface's (pointer, shape, strides,
    typestr). A CUDA array with ``backend="cpu"`` is a ValueError: tensordiag copies no CUDA array
    to the host on its own.
    """
    device = getattr(tensor, "__dlpack_device__", None)
    interface = None
    device_id = 0
    if device is not None:
        device_type, device_id = device()
        if int(device_type) in _DLPACK_HOST_DEVICES:
            return None
        if int(device_type) not in _DLPACK_CUDA_DEVICES:
            raise TypeError(f"tensordiag takes host and CUDA arrays; this {type(tensor).__name__} is on DLPack "
                            f"device type {int(device_type)}")
    else:
        interface = getattr(tensor, "__cuda_array_interface__", None)
        if interface is None:
            return None
    if backend == "cpu":
        raise ValueError(f"backend='cpu' takes host arrays, and this {type(tensor).__module__}."
                         f"{type(tensor).__name__} is in CUDA memory: use backend='cuda' or 'auto' (the default), "
                         "or copy it to the host first (cupy.asnumpy(x), x.cpu().numpy())")
    if interface is None:
        # Said before __dlpack__ is asked: PyTorch refuses to export a tensor of another device
        # than its current one with a BufferError of its own.
        if int(device_id) != 0:
            raise ValueError(f"the tensor is on CUDA device {int(device_id)}, but tensordiag runs on device 0 (the "
                             "first visible one: CUDA_VISIBLE_DEVICES chooses it); move the tensor there first")
        return tensor.__dlpack__()
    if interface.get("mask") is not None:
        raise ValueError("tensordiag does not take masked CUDA arrays")
    strides = interface.get("strides")
    return (int(interface["data"][0]), tuple(interface["shape"]), None if strides is None else tuple(strides),
            str(interface["typestr"]))


def _from_dlpack_for(tensor: Any) -> Optional[Callable[[Any], Any]]:
    """The ``from_dlpack`` of the library ``tensor`` came from, or None (results stay DeviceArray)."""
    library = type(tensor).__module__.split(".")[0]
    if library == "torch":
        import torch
        return torch.from_dlpack
    if library == "cupy":
        import cupy
        return cupy.from_dlpack
    if library in ("jax", "jaxlib"):
        import jax.numpy
        return jax.numpy.from_dlpack
    namespace = getattr(tensor, "__array_namespace__", None)
    return getattr(namespace(), "from_dlpack", None) if namespace is not None else None


def _optional_float(value: Optional[float]) -> Optional[float]:
    return None if value is None else float(value)


def _printing_callback(max_sweeps: int, callback: Optional[Callable[[dict], Any]]) -> Callable[[dict], bool]:
    """``callback`` preceded by a progress line per sweep, worded as the tensordiag command's."""
    def on_sweep(record: dict) -> bool:
        print(f"tensordiag: sweep {record['sweep']}/{max_sweeps}  off_rel {record['off_rel']:.3e}  "
              f"diag_norm2 {record['diag_norm2']:.9e}  {record['seconds']:.3g} s", flush=True)
        return callback is not None and bool(callback(record))
    return on_sweep


def diagonalize_full(tensor: Any, *, max_sweeps: int = 100, tol: Optional[float] = None, eta: float = 0.0,
                     rule: str = "max_diag", backend: str = "auto", stall_tol: Optional[float] = None,
                     threads: int = 0, verbose: bool = False,
                     callback: Optional[Callable[[dict], Any]] = None, verify: bool = True,
                     schedule: str = "auto", structure: str = "general",
                     devices: Optional[Sequence[int]] = None, init: str = "identity") -> Result:
    """Diagonalize ``tensor`` and return a :class:`Result` (core, factors, history, stop reason, ...).

    Arguments are those of :func:`diagonalize` (but ``return_history``), and
    verify : bool
        Check the result against the tensor at the end of the run: the reconstruction and
        orthogonality errors of ``Result.verification``, on the device for a GPU run. It costs
        about one sweep; False skips it.
    """
    max_sweeps = operator.index(max_sweeps)
    threads = operator.index(threads)
    on_sweep = _printing_callback(max_sweeps, callback) if verbose else callback
    options = (max_sweeps, _optional_float(tol), float(eta), str(rule), str(backend), _optional_float(stall_tol),
               threads, bool(verify), str(schedule), str(structure), on_sweep)
    device_list = _device_list(devices, tensor, str(backend))
    source = None if device_list else _cuda_source(tensor, str(backend))
    if source is None:
        out = _tensordiag.diagonalize(_tensor_array(tensor), *options, device_list, str(init))
    else:
        out = _tensordiag.diagonalize_cuda(source, *options, str(init))
        convert = _from_dlpack_for(tensor)
        if convert is not None:
            out["core"] = convert(out["core"])
            out["factors"] = [convert(factor) for factor in out["factors"]]
    result = Result(max_sweeps=max_sweeps, **out)
    if verbose:
        print(f"tensordiag: {result.summary()}", flush=True)
    return result


def diagonalize(tensor: Any, *, max_sweeps: int = 100, tol: Optional[float] = None, eta: float = 0.0,
                rule: str = "max_diag", backend: str = "auto", stall_tol: Optional[float] = None,
                threads: int = 0, verbose: bool = False, callback: Optional[Callable[[dict], Any]] = None,
                return_history: bool = False, schedule: str = "auto", structure: str = "general",
                devices: Optional[Sequence[int]] = None, init: str = "identity"):
    """Orthogonal factors and a core as diagonal as possible: T = C x_1 M_1 ... x_D M_D.

    Parameters
    ----------
    tensor : array_like or CUDA array, float32 or float64 (NumPy: also complex64, complex128)
        Order D >= 3 (2 with structure symmetric or skew, below), the same size N >= 2 in every
        mode, finite. A complex NumPy array runs on the GPU engine's complex kernels (eta too) or
        the CPU's complex engine: T = C x_1 U_1 ... x_D U_D with unitary U_n (no conjugation in
        the mode products, so C = T x_1 U_1^H ... x_D U_D^H), every C[i, .., i] real and >= 0
        (the phase of index i kept in U_1's column i); rule max_diag only, structure general or
        symmetric (below), no devices. C- and Fortran-ordered NumPy
        arrays are read in place, without a copy (other strided arrays are copied to C order, other
        byte orders converted); the core comes back in the input's order and dtype. Other dtypes
        raise TypeError; other shapes, NaN or Inf raise ValueError (order 2 with structure general
        is a matrix: use numpy.linalg.svd).

        A CUDA array (CuPy, a PyTorch CUDA tensor, JAX: through ``__dlpack__``; Numba and others:
        through ``__cuda_array_interface__``) never passes through host memory: the GPU engine
        copies it device to device into its working buffer (the array is left unchanged), the
        verification (:func:`diagonalize_full`) reads it there, and the core and factors stay on
        the GPU, returned as arrays of the input's library (``cupy.from_dlpack``,
        ``torch.from_dlpack``, ``jax.numpy.from_dlpack``), or as :data:`DeviceArray` for
        ``__cuda_array_interface__`` inputs. It must be C- or Fortran-contiguous and on CUDA device
        0, the GPU tensordiag runs on (``CUDA_VISIBLE_DEVICES`` chooses it), else ValueError;
        another dtype is a TypeError. ``backend="auto"`` and ``"cuda"`` run it on the GPU with the
        general engine (no CPU fallback: a shape the GPU cannot take is a ValueError saying why);
        ``backend="cpu"`` is a ValueError: copy the array to the host yourself if that is what you
        want.
    max_sweeps : int
        Upper bound on sweeps (a sweep rotates every index pair once in every mode).
    tol : float, optional
        Stop when off_rel = off(C) / off(T) <= tol. Default 1e-12 (float64), 1e-5 (float32);
        0 means no tolerance stop (only an exactly diagonal core stops by tolerance).
    eta : float
        Pivot check threshold (seed paper, section 3); 0 rotates every pair. 0 < eta <= 2/N keeps
        the convergence guarantee.
    rule : str
        ``"max_diag"`` (maximize ||diag C||^2) or ``"max_trace"`` (maximize the trace); see RULES.
    backend : str
        ``"auto"``, ``"cpu"`` or ``"cuda"``.
    schedule : str
        The order of the pairs in a sweep: ``"round-robin"``, ``"xor"`` (several pivot groups a
        pass over the tensor; N a power of two, else ValueError) or ``"auto"`` (the engine's faster
        one for the shape; ``Result.schedule`` says which ran). See the README's Sweep schedules.
    structure : str
        ``"general"``, or ``"symmetric"``: the tensor is symmetric under every permutation of its
        indices (checked to 1e-10 of max|T| in float64, 1e-5 in float32: ValueError otherwise) and
        T = C x_1 Q ... x_D Q with one orthogonal Q, returned D times; order 2 is taken (the
        Jacobi eigenvalue method). max_diag and eta = 0 only, for now; the general GPU engine runs
        it at every order, order 2 included, from NumPy arrays (not CUDA arrays). A complex
        symmetric array (symmetric, not Hermitian: quantum states of identical subsystems) gets
        one unitary U, T = C x_1 U ... x_D U, C symmetric, every C[i, .., i] real and >= 0
        (index i's phase spread over the D modes); order 2 is the Takagi factorization
        T = U C U^T. Every order runs on the GPU's general engine or the CPU; from order 4 the
        step has no closed form and is searched over the sphere on the host's threads (on the
        GPU engine too, between its groups; docs/DESIGN.md).
        ``"skew"``: the tensor changes sign under every swap of two indices (checked alike; N >= D),
        one orthogonal Q as for symmetric, and C skew-symmetric and as close to the block form as
        max_diag on the blocks gets it: the entries C[kD, kD+1, .., kD+D-1] (k < N // D) and their
        signed permutations hold what they can, each C[kD, .., kD+D-1] >= 0 (``skew_blocks``
        reads them). Order 2 gives the Murnaghan form of a skew matrix (on the CPU); orders >= 3 run
        on the GPU engine too, from NumPy arrays (not CUDA arrays). max_diag, eta = 0.
    stall_tol : float, optional
        Stop when a sweep raises the rule's objective (||diag C||^2; the trace for max_trace) by
        less than this, relative, without halving off_rel: a tensor that is not diagonalizable
        converges to off_rel > 0.
        Default 1e-13 (float64), 1e-6 (float32).
    threads : int
        CPU threads; 0 is OpenMP's default (OMP_NUM_THREADS if set, else every hardware thread).
    verbose : bool
        Print one line per sweep, then how the run stopped, to stdout.
    callback : callable, optional
        ``callback(record)`` after every sweep, record = ``{"sweep", "off_rel", "diag_norm2",
        "trace", "seconds"}`` (see :class:`Result`); a true return value stops the run (stop reason "callback"). An exception it
        raises ends the run and propagates. Ctrl-C stops a run between sweeps (and between
        the CPU's group steps) with KeyboardInterrupt; the module stays usable.
    return_history : bool
        Also return the history: a list of records, ``history[0]`` being the input (sweep 0).
    init : str
        Where the factors start: ``"identity"``, or ``"svd"`` (also ``"hosvd"``; TensorLy's name):
        the left singular vectors Q_n of the mode unfoldings (on the GPU with cuBLAS and cuSOLVER
        when the general GPU engine runs a tensor over 4 MiB, or a CUDA array; on the host
        otherwise: TENSORDIAG_HOST_HOSVD_BYTES), the sweeps
        then running on T x_n Q_n^T; the returned factors include the Q_n, and
        ``history[0]["off_rel"]`` is already off(T x_n Q_n^T) / off(T). With structure="symmetric"
        or "skew", the one Q is G_1's, in every mode.
    devices : sequence of int, optional
        Spread the tensor over these GPUs of this machine (CUDA indices, e.g. ``[0, 1]``): one GPU
        rank a device, joined by NCCL, each holding only its rows while the sweeps run (the
        README's Distributed runs: N and the number of devices powers of two with N >= 2 x
        devices, or N = 2 on two devices; structure general). The tensor is a host (NumPy) array; the core comes
        back gathered in host memory. ``Result.engine`` is ``"cuda_distributed"``. Ctrl-C is seen
        between sweeps only through ``callback``.

    Returns
    -------
    (core, factors) or (core, factors, history)
        core: the input's shape, dtype and memory order; factors: D orthogonal N x N arrays of the
        same dtype. ``reconstruct(core, factors)`` equals the tensor to rounding. For the stop
        reason, the timings and the verification figures (``verify=True``, about one sweep's
        time, which this function does not spend), use :func:`diagonalize_full`.

    The GIL is released while the run computes.
    """
    result = diagonalize_full(tensor, max_sweeps=max_sweeps, tol=tol, eta=eta, rule=rule, backend=backend,
                              stall_tol=stall_tol, threads=threads, verbose=verbose, callback=callback,
                              verify=False, schedule=schedule, structure=structure, devices=devices,
                              init=init)
    if return_history:
        return result.core, result.factors, result.history
    return result.core, result.factors


def generate(order: int, size: int, *, seed: int = 1, noise: float = 0.0, dtype: Any = "float64",
             layout: str = "C", structure: str = "general"):
    """A seeded diagonalizable test tensor T = S x_1 Q_1 ... x_D Q_D (+ noise).

    S is diagonal with standard Gaussian entries, the Q_n Haar-random orthogonal; Gaussian noise of
    relative Frobenius size ``noise`` is added (||T_noisy - T|| = noise ||T||). The same seed gives
    the same tensor on every platform, and as ``tensordiag generate`` gives.

    Returns ``(tensor, diagonal, factors)``: tensor of the given dtype and memory layout (``"C"`` or
    ``"F"``); diagonal = S[i, .., i] (float64, length N); factors = [Q_1, .., Q_D] (float64).
    Without noise, the tensor is ``reconstruct(S, factors)``, S the order-D diagonal tensor
    holding ``diagonal``. ``structure="symmetric"``: one Q for every mode (the factors are D copies
    of it), symmetric noise, order 2 allowed. ``structure="skew"``: S is in the block form instead,
    S[pi(kD, .., kD+D-1)] = sign(pi) diagonal[k] for k < N // D (``diagonal`` has N // D entries),
    one Q, skew-symmetric noise, order 2 allowed, N >= D. ``dtype="complex64"`` or
    ``"complex128"``: S with complex Gaussian entries (``diagonal`` complex128), the factors Haar
    unitary (complex128), complex noise; structure general, or symmetric (one unitary U in every
    mode, symmetric complex noise).
    """
    seed = operator.index(seed)
    if seed < 0:
        raise ValueError(f"seed must be >= 0, not {seed}")
    if layout not in ("C", "F"):
        raise ValueError(f"layout must be 'C' or 'F', not {layout!r}")
    return _tensordiag.generate(operator.index(order), operator.index(size), seed, float(noise),
                                np.dtype(dtype).name, layout == "F", str(structure))


def diagonalize_packed(values: Any, order: int, *, max_sweeps: int = 100, tol: Optional[float] = None,
                       stall_tol: Optional[float] = None, backend: str = "auto", threads: int = 0,
                       verbose: bool = False, callback: Optional[Callable[[dict], Any]] = None, verify: bool = True,
                       schedule: str = "auto", init: str = "identity") -> Result:
    """A symmetric tensor in packed storage: T = C x_1 Q ... x_D Q with one orthogonal Q.

    ``values`` holds the binom(N + D - 1, D) distinct entries T[i_1, .., i_D], i_1 <= .. <= i_D, in
    lexicographic order (``[T[i] for i in itertools.combinations_with_replacement(range(N), D)]``;
    :func:`pack_symmetric` makes it from a full array), float32 or float64; N follows from its length
    and ``order`` = D (2 <= D <= 48). The run is :func:`diagonalize_full`'s with
    ``structure="symmetric"`` (the same rotations, to rounding) on the distinct entries alone, on the
    GPU (``backend="auto"`` with a GPU, or ``"cuda"``; order D <= 12) or the CPU. Returns a :class:`Result` whose ``core`` is packed the
    same way (``layout`` is ``"packed"``; :func:`unpack_symmetric` gives the full array) and whose
    ``factors`` are D copies of Q. The verification's mode products hold two partly symmetric
    intermediates (binom(N+k-1, k) x binom(N+D-k-1, D-k) doubles); a shape that would need more
    than 8 GiB for them is a ValueError unless ``verify=False``. ``init="svd"`` starts from Q = the
    eigenvectors of G_1 = T_(1) T_(1)^T, computed from the distinct entries, in every mode, as
    :func:`diagonalize` with ``structure="symmetric"`` does. The other arguments are
    :func:`diagonalize`'s.
    """
    array = _packed_array(values)
    max_sweeps = operator.index(max_sweeps)
    on_sweep = _printing_callback(max_sweeps, callback) if verbose else callback
    out = _tensordiag.diagonalize_packed(array, operator.index(order), max_sweeps, _optional_float(tol), "max_diag",
                                         str(backend), _optional_float(stall_tol), operator.index(threads),
                                         bool(verify), str(schedule), on_sweep, str(init))
    result = Result(max_sweeps=max_sweeps, **out)
    if verbose:
        print(f"tensordiag: {result.summary()}", flush=True)
    return result


def _packed_array(values: Any) -> np.ndarray:
    """Packed values as a contiguous float32/float64 vector in native byte order."""
    array = np.asarray(values)
    if (array.dtype.kind, array.dtype.itemsize) not in (("f", 4), ("f", 8)):
        raise TypeError(f"unsupported dtype '{array.dtype}': packed storage holds float32 or float64 values")
    if array.ndim != 1:
        raise ValueError(f"packed values are one-dimensional (the distinct entries), not of shape {array.shape}")
    return np.ascontiguousarray(array.astype(array.dtype.newbyteorder("="), copy=False))


def _batch_items(tensors: Any, convert: Callable[[Any], np.ndarray], what: str, item_ndim: int) -> list:
    """A batch as a list of converted arrays: the entries along axis 0 of one array (of at least
    item_ndim + 1 axes), or the items of a sequence; at least one, all of one dtype."""
    if not isinstance(tensors, np.ndarray) and (hasattr(tensors, "__cuda_array_interface__") or
                                                  hasattr(tensors, "__dlpack_device__")):
        raise TypeError(f"a batch takes host (NumPy) {what}: run a CUDA array alone with diagonalize(), or copy "
                        "the batch to the host")
    if isinstance(tensors, np.ndarray) and tensors.ndim <= item_ndim:
        raise ValueError(f"a batch is an array whose axis 0 counts the {what} (at least {item_ndim + 1} axes), "
                         f"or a sequence of them; got an array of shape {tensors.shape}")
    items = list(tensors)
    if not items:
        raise ValueError(f"a batch holds at least one of the {what}")
    arrays = [convert(item) for item in items]
    for b, array in enumerate(arrays):
        if array.dtype != arrays[0].dtype:
            raise TypeError(f"a batch holds {what} of one dtype: item 0 is {arrays[0].dtype}, item {b} {array.dtype}")
    return arrays


def diagonalize_batch(tensors: Any, *, max_sweeps: int = 100, tol: Optional[float] = None, eta: float = 0.0,
                      rule: str = "max_diag", backend: str = "auto", stall_tol: Optional[float] = None,
                      threads: int = 0, verify: bool = True, schedule: str = "auto", structure: str = "general",
                      init: str = "identity") -> list:
    """Many tensors of one shape and dtype, each diagonalized as :func:`diagonalize_full` would:
    a list of :class:`Result`, one a tensor, in order.

    ``tensors`` is an array whose axis 0 counts the tensors (shape ``(B, N, .., N)``; each
    ``tensors[b]`` is read in place where it is C-contiguous, as a C-ordered array is) or a sequence
    of arrays of one dtype (float32, float64, complex64 or complex128: unitary factors, as
    :func:`diagonalize` runs a complex tensor), shape and memory order (else TypeError or
    ValueError). The command's ``--batch``: on the GPU, without the pivot check, tensors that fit one
    block's shared memory run together in one launch, one block each (``Result.engine`` is
    ``"cuda_one_block"``); the others one after the other. The arguments are
    :func:`diagonalize_full`'s; there is no per-sweep callback (a batch's sweeps are not one run's),
    no ``devices`` and no CUDA arrays.
    The GIL is released while the batch computes; Ctrl-C stops it with KeyboardInterrupt.
    """
    arrays = _batch_items(tensors, _tensor_array, "tensors", 2)
    max_sweeps = operator.index(max_sweeps)
    outs = _tensordiag.diagonalize_batch(arrays, max_sweeps, _optional_float(tol), float(eta), str(rule),
                                         str(backend), _optional_float(stall_tol), operator.index(threads),
                                         bool(verify), str(schedule), str(structure), str(init))
    return [Result(max_sweeps=max_sweeps, **out) for out in outs]


def diagonalize_packed_batch(values: Any, order: int, *, max_sweeps: int = 100, tol: Optional[float] = None,
                             stall_tol: Optional[float] = None, backend: str = "auto", threads: int = 0,
                             verify: bool = True, schedule: str = "auto", init: str = "identity") -> list:
    """Many symmetric tensors of one order and size in packed storage: a list of :class:`Result`,
    one a tensor, each as :func:`diagonalize_packed` gives it alone (the same engine, the same result
    bit for bit), one after the other.

    ``values`` is a two-dimensional array ``(B, binom(N + D - 1, D))`` (row b the distinct entries of
    tensor b, the command's ``--packed D --batch`` input) or a sequence of such vectors, float32 or
    float64, of one dtype and length. The other arguments are :func:`diagonalize_packed`'s, without a
    callback.
    """
    arrays = _batch_items(values, _packed_array, "packed value vectors", 1)
    max_sweeps = operator.index(max_sweeps)
    outs = _tensordiag.diagonalize_packed_batch(arrays, operator.index(order), max_sweeps, _optional_float(tol),
                                                str(backend), _optional_float(stall_tol), operator.index(threads),
                                                bool(verify), str(schedule), str(init))
    return [Result(max_sweeps=max_sweeps, **out) for out in outs]


def generate_packed(order: int, size: int, *, seed: int = 1, noise: float = 0.0, dtype: Any = "float64"):
    """A planted symmetric tensor in packed storage, never formed in full: ``(values, diagonal, Q)``.

    The distinct entries (as :func:`diagonalize_packed` takes them) of T = sum_l S_l q_l x .. x q_l,
    with the S (``diagonal``, float64) and Q (float64) of ``generate(order, size, seed=seed,
    structure="symmetric")``: without noise, bit for bit that tensor's distinct entries. The noise is
    a Gaussian per distinct entry, scaled to ||T_noisy - T||_F = noise ||T||_F in the full norm (so
    with noise the two generators' tensors differ). ``tensordiag generate --packed`` writes the same.
    """
    seed = operator.index(seed)
    if seed < 0:
        raise ValueError(f"seed must be >= 0, not {seed}")
    return _tensordiag.generate_packed(operator.index(order), operator.index(size), seed, float(noise),
                                       np.dtype(dtype).name)


def _packed_ranks(sorted_indices: np.ndarray, size: int) -> np.ndarray:
    """Positions of sorted index rows (shape (M, D)) in the lexicographic order of packed storage.

    The rows before i are, position k by position k, those agreeing before k with a smaller
    v >= i_(k-1) at k and any non-decreasing tail of length t = D-1-k over v..N-1 after it:
    binom(N-1-v+t, t) of them, summed over v by the prefix table.
    """
    order = sorted_indices.shape[1]
    prefix = np.zeros((max(order, 1), size + 1), dtype=np.int64)
    for t in range(order):
        counts = [math.comb(size - 1 - v + t, t) for v in range(size)]
        prefix[t, 1:] = np.cumsum(counts)
    ranks = np.zeros(sorted_indices.shape[0], dtype=np.int64)
    previous = np.zeros(sorted_indices.shape[0], dtype=np.int64)
    for k in range(order):
        t = order - 1 - k
        ranks += prefix[t, sorted_indices[:, k]] - prefix[t, previous]
        previous = sorted_indices[:, k]
    return ranks


def pack_symmetric(tensor: Any) -> np.ndarray:
    """The distinct entries of a symmetric cubical array, T[i] for i in
    ``itertools.combinations_with_replacement(range(N), D)`` (a copy): :func:`diagonalize_packed`'s
    input. The symmetry is not checked (the entry at each sorted index is taken)."""
    array = np.asarray(tensor)
    if array.ndim < 2 or len(set(array.shape)) != 1:
        raise ValueError(f"pack_symmetric takes a cubical array of order >= 2, not of shape {array.shape}")
    indices = np.array(list(itertools.combinations_with_replacement(range(array.shape[0]), array.ndim)))
    return array[tuple(indices.T)]


def unpack_symmetric(values: Any, order: int) -> np.ndarray:
    """The full symmetric array of order ``order`` whose distinct entries are ``values`` (packed as
    :func:`pack_symmetric` packs them; N follows from the length): N^D entries, a copy."""
    values = np.asarray(values)
    order = operator.index(order)
    if values.ndim != 1 or order < 2:
        raise ValueError(f"unpack_symmetric takes a one-dimensional array and order >= 2, not shape {values.shape} "
                         f"and order {order}")
    size = 1
    while math.comb(size + order - 1, order) < values.shape[0]:
        size += 1
    if math.comb(size + order - 1, order) != values.shape[0]:
        raise ValueError(f"{values.shape[0]} values are no packed symmetric tensor of order {order}")
    grid = np.indices((size,) * order).reshape(order, -1).T
    return values[_packed_ranks(np.sort(grid, axis=1), size)].reshape((size,) * order)


def kernel_source(order: int, size: int, kind: str = "group_pass", *, dtype: Any = "float32", layout: str = "C",
                  rule: str = "max_diag", structure: str = "general"):
    """The CUDA C++ source that tensordiag generates for one kernel kind, as NVRTC compiles it.

    The source is specialized for order D, size N, dtype (float32, float64, complex64 or complex128),
    memory layout (``"C"`` or ``"F"``) and rule (see RULES); its header comment names the kind, the rule and its
    rotation formula, the shape and the kernels with their launch shapes. ``kind`` is one of
    KERNEL_KINDS, or ``"all"`` for a dict ``{kind: source}`` of every kind that serves the shape
    (the whole-tensor kinds, small_tensor and multi_mode_product, need the tensor to fit in one
    block's shared memory and are absent otherwise). The same text as ``tensordiag kernels``.
    ``structure="symmetric"`` gives the kinds a run with structure symmetric loads, small_tensor and
    subspace_angles as their symmetric variants (one rotation a pair in every mode);
    ``structure="skew"`` those of a skew run, small_tensor as its skew variant; a kind such a run
    does not use raises ValueError (``tensordiag kernels --structure symmetric|skew``).

    A shape, kind, dtype, layout or rule the code generator cannot serve raises ValueError with its
    reason (``codegen_error: ...``).
    """
    return _tensordiag.kernel_source(operator.index(order), operator.index(size), str(kind), np.dtype(dtype).name,
                                     str(layout), str(rule), str(structure))


def diagonal(core: np.ndarray) -> np.ndarray:
    """The diagonal entries C[i, .., i], i = 0..N-1, of a cubical array (a copy)."""
    core = np.asarray(core)
    n = core.shape[0]
    return core[(np.arange(n),) * core.ndim]


def skew_blocks(core: np.ndarray) -> np.ndarray:
    """The block entries C[kD, kD+1, .., kD+D-1], k = 0..N//D - 1, of an order-D array (a copy):
    a skew-symmetric core's "diagonal" (``structure="skew"``)."""
    core = np.asarray(core)
    order, n = core.ndim, core.shape[0]
    starts = np.arange(n // order) * order
    return core[tuple(starts + m for m in range(order))]


def reconstruct(core: np.ndarray, factors: Sequence[np.ndarray]) -> np.ndarray:
    """C x_1 M_1 x_2 M_2 ... x_D M_D in NumPy: (C x_n M)[.., j, ..] = sum_i M[j, i] C[.., i, ..].

    The same as ``tensorly.tucker_to_tensor((core, factors))``. Factors may be rectangular
    (J_n x N); the result has the dtype NumPy promotes the inputs to.
    """
    tensor = np.asarray(core)
    if len(factors) != tensor.ndim:
        raise ValueError(f"{len(factors)} factors for a core of order {tensor.ndim}: need one per mode")
    for mode, factor in enumerate(factors):
        tensor = np.moveaxis(np.tensordot(factor, tensor, axes=(1, mode)), 0, mode)
    return tensor
