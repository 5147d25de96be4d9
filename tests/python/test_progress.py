"""The per-sweep callback, the history, verbose output and the Result record."""

import _thread
import json
import signal
import time

import numpy as np
import pytest

import tensordiag


@pytest.fixture(scope="module")
def noisy():
    # Not diagonalizable: it takes more than a handful of sweeps to stall.
    return tensordiag.generate(4, 8, seed=21, noise=0.2)[0]


def test_a_free_run_takes_more_than_two_sweeps(noisy):
    assert tensordiag.diagonalize_full(noisy).sweeps > 3


def test_callback_returning_true_at_sweep_2_stops_after_exactly_2_sweeps(noisy):
    seen = []

    def stop_at_2(record):
        seen.append(record)
        return record["sweep"] == 2

    result = tensordiag.diagonalize_full(noisy, callback=stop_at_2)
    assert result.sweeps == 2 and len(result.history) == 3
    assert result.stop_reason == "callback" and not result.converged
    assert seen == result.history[1:]


@pytest.mark.parametrize("answer,stops", [(None, False), (False, False), (0, False), (1, True),
                                          (np.bool_(True), True), ("stop", True)])
def test_the_callback_answer_is_read_as_a_truth_value(noisy, answer, stops):
    result = tensordiag.diagonalize_full(noisy, callback=lambda record: answer)
    assert (result.sweeps == 1) == stops


def test_an_exception_in_the_callback_ends_the_run_and_reaches_the_caller(noisy):
    def fail(record):
        raise ZeroDivisionError(f"at sweep {record['sweep']}")

    with pytest.raises(ZeroDivisionError, match="at sweep 1"):
        tensordiag.diagonalize(noisy, callback=fail)
    assert tensordiag.diagonalize_full(noisy, max_sweeps=1).sweeps == 1  # still usable


def test_history_records(noisy):
    core, _, history = tensordiag.diagonalize(noisy, return_history=True)
    assert [record["sweep"] for record in history] == list(range(len(history)))
    assert all(set(record) == {"sweep", "off_rel", "diag_norm2", "trace", "seconds"} for record in history)
    assert history[0]["off_rel"] == 1.0 and history[0]["seconds"] == 0.0
    assert history[0]["diag_norm2"] == pytest.approx(np.sum(tensordiag.diagonal(noisy) ** 2), rel=1e-12)
    assert history[-1]["diag_norm2"] == pytest.approx(np.sum(tensordiag.diagonal(core) ** 2), rel=1e-12)
    assert history[-1]["trace"] == pytest.approx(np.sum(tensordiag.diagonal(core)), rel=1e-12)
    off = np.sum(core ** 2) - np.sum(tensordiag.diagonal(core) ** 2)
    off_input = np.sum(noisy ** 2) - np.sum(tensordiag.diagonal(noisy) ** 2)
    assert history[-1]["off_rel"] == pytest.approx(np.sqrt(off / off_input), rel=1e-9)
    gains = np.diff([record["diag_norm2"] for record in history])
    assert np.all(gains >= 0)  # max_diag never lowers ||diag C||^2
    assert all(record["seconds"] > 0 for record in history[1:])


def test_result_fields_and_report(noisy):
    result = tensordiag.diagonalize_full(noisy, max_sweeps=3, eta=0.01, stall_tol=0.0)
    assert result.stop_reason == "max_sweeps" and result.sweeps == 3 and result.max_sweeps == 3
    # auto: the CPU here, the GPU on a machine with one (the device names itself either way).
    if result.backend == "cpu":
        assert result.engine == "cpu" and "threads" in result.device
    else:
        assert result.backend == "cuda" and result.engine.startswith("cuda") and "NVIDIA" in result.device
    assert result.eta == 0.01 and result.tol == 1e-12 and result.stall_tol == 0.0
    assert set(result.timings) == {"setup_seconds", "sweeps_seconds", "total_seconds", "compile_seconds",
                                   "verification_seconds"}
    report = json.loads(json.dumps(result.report()))
    assert report["order"] == 4 and report["size"] == 8 and report["dtype"] == "float64"
    assert report["layout"] == "C" and report["sweeps"] == 3 and report["converged"] is False
    assert report["history"] == result.history
    assert result.summary() == f"stopped at max_sweeps (3): off_rel {result.history[-1]['off_rel']:.3e} > tol 1e-12"


def test_the_run_is_verified_unless_verify_is_false(noisy):
    verified = tensordiag.diagonalize_full(noisy)
    assert set(verified.verification) == {"reconstruction_error", "orthogonality_error"}
    assert 0 <= verified.verification["reconstruction_error"] < 1e-13
    assert 0 <= verified.verification["orthogonality_error"] < 1e-13
    report = verified.report()
    keys = list(report)
    # As in report.json: the errors, then the timings, last (a GPU run's device_memory_peak_bytes
    # comes between them and the history).
    assert keys[-3:] == ["reconstruction_error", "orthogonality_error", "timings"]
    assert keys.index("history") < keys.index("reconstruction_error")
    assert ("device_memory_peak_bytes" in report) == (verified.backend == "cuda")
    assert report["timings"]["verification_seconds"] == verified.timings["verification_seconds"] >= 0

    skipped = tensordiag.diagonalize_full(noisy, verify=False)
    assert skipped.verification is None
    assert "verification_seconds" not in skipped.timings
    report = json.loads(json.dumps(skipped.report()))
    assert report["verification"] == "skipped"
    assert "reconstruction_error" not in report and "orthogonality_error" not in report
    assert "verification_seconds" not in report["timings"]
    assert np.array_equal(skipped.core, verified.core)
    core, factors = tensordiag.diagonalize(noisy)  # returns no figures, so spends no time on them
    assert np.array_equal(core, verified.core)


def test_return_history_is_off_by_default(noisy):
    assert len(tensordiag.diagonalize(noisy, max_sweeps=1)) == 2
    assert len(tensordiag.diagonalize(noisy, max_sweeps=1, return_history=True)) == 3


def test_verbose_prints_a_line_per_sweep_and_how_it_stopped(capsys):
    tensor, _, _ = tensordiag.generate(3, 6, seed=2)
    result = tensordiag.diagonalize_full(tensor, verbose=True, callback=lambda record: False)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == result.sweeps + 1
    for line, record in zip(lines, result.history[1:]):
        assert line.startswith(f"tensordiag: sweep {record['sweep']}/100  off_rel {record['off_rel']:.3e}  ")
    assert lines[-1] == f"tensordiag: {result.summary()}"
    assert lines[-1].startswith(f"tensordiag: converged after {result.sweeps} sweeps: off_rel ")


def test_quiet_by_default(capsys):
    tensor, _, _ = tensordiag.generate(3, 4)
    tensordiag.diagonalize(tensor)
    assert capsys.readouterr().out == ""


class Interrupted(Exception):
    pass


def test_a_signal_stops_the_run_at_the_next_sweep():
    # Python runs signal handlers between sweeps: Ctrl-C (KeyboardInterrupt) works the same way.
    # Its one off-diagonal entry has three distinct indices, so it is neither b nor e of any pivot:
    # every rotation is the identity, and with stall_tol 0 the run would go on for all of its
    # 10^5 sweeps (over a minute) unless something stops it.
    tensor = np.zeros((8,) * 6)
    tensor[(np.arange(8),) * 6] = np.arange(1.0, 9.0)
    tensor[0, 0, 1, 1, 2, 2] = 1.0

    def interrupt(signum, frame):
        raise Interrupted

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.1)
        start = time.perf_counter()
        with pytest.raises(Interrupted):
            tensordiag.diagonalize(tensor, max_sweeps=10 ** 5, stall_tol=0)
        assert time.perf_counter() - start < 20
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_ctrl_c_raises_keyboard_interrupt_between_sweeps_and_the_module_stays_usable(noisy):
    # _thread.interrupt_main() is what a Ctrl-C does: it marks SIGINT pending for the main thread,
    # whose default handler raises KeyboardInterrupt. Marked at sweep 3, it must end the run there
    # (by the time sweep 4 would start), whichever check notices it first.
    swept = []

    def ctrl_c_at_sweep_3(record):
        swept.append(record["sweep"])
        if record["sweep"] == 3:
            _thread.interrupt_main()
        return False

    with pytest.raises(KeyboardInterrupt):
        tensordiag.diagonalize(noisy, max_sweeps=10 ** 5, tol=0, stall_tol=0, callback=ctrl_c_at_sweep_3)
    assert swept == [1, 2, 3]
    # Nothing is left pending or half-done: the next run is the same as a run before the interrupt.
    after = tensordiag.diagonalize_full(noisy, max_sweeps=3, tol=0, stall_tol=0)
    again = tensordiag.diagonalize_full(noisy, max_sweeps=3, tol=0, stall_tol=0)
    assert after.sweeps == 3 and after.stop_reason == "max_sweeps"
    np.testing.assert_array_equal(after.core, again.core)


def test_tol_0_means_no_tolerance_stop():
    # A diagonalizable tensor reaches off_rel ~1e-16 in a few sweeps: the default tol stops there,
    # tol=0 goes on until the gain stalls or max_sweeps.
    tensor, _, _ = tensordiag.generate(3, 6, seed=5)
    assert tensordiag.diagonalize_full(tensor).stop_reason == "tolerance"
    result = tensordiag.diagonalize_full(tensor, tol=0, stall_tol=0, max_sweeps=12)
    assert result.tol == 0
    assert result.stop_reason in ("stalled", "max_sweeps")
    assert result.history[-1]["off_rel"] > 0


@pytest.mark.parametrize("rule,objective", [("max_diag", "||diag C||^2"), ("max_trace", "the trace")])
def test_a_stall_is_reported_against_the_rules_objective(noisy, rule, objective):
    result = tensordiag.diagonalize_full(noisy, rule=rule)
    assert result.stop_reason == "stalled"
    assert f"(a sweep raised {objective} by less than stall_tol 1e-13, relative, and did not halve off_rel)" in result.summary()
