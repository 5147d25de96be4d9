"""python3 -m tensordiag.plot: convergence from reports, runtimes from benchmark files."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tensordiag
from tensordiag import plot

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# The shape of bench/cpu_bench's JSON (values are made up: this tests the drawing, not the timing).
BENCHMARK = {"copy_bandwidth_bytes_per_second": 1e10, "results": [
    {"order": order, "size": size, "eta": eta, "dtype": "float32", "sweeps": 10,
     "seconds_median": 1e-4 * 8 ** (order - 3) * (size / 8) ** 3 * (3 if eta else 1),
     "paper_c_seconds": 7e-4 * 11 ** (order - 3) * (size / 8) ** 4 * (50 if eta else 1), "device": "test cpu"}
    for eta in (0.0, 0.00125) for order, size in [(3, 8), (4, 8), (5, 8), (6, 8), (3, 16), (3, 32), (3, 64)]]}


def write_json(path, data):
    path.write_text(json.dumps(data))
    return path


@pytest.fixture
def reports(tmp_path):
    runs = []
    for order, eta in [(3, 0.0), (5, 0.0), (4, 0.1)]:
        tensor, _, _ = tensordiag.generate(order, 6, seed=order, noise=0.01 if order == 4 else 0.0)
        runs.append(write_json(tmp_path / f"report_{order}.json",
                               tensordiag.diagonalize_full(tensor, eta=eta, max_sweeps=12).report()))
    return runs


def test_convergence_png_from_reports(tmp_path, reports, capsys):
    out = tmp_path / "convergence.png"
    assert plot.main([str(path) for path in reports] + ["-o", str(out)]) == 0
    assert out.read_bytes().startswith(PNG_MAGIC) and out.stat().st_size > 10_000
    assert f"wrote {out}" in capsys.readouterr().out


def test_convergence_reads_the_commands_report_fields():
    report = {"order": 3, "size": 8, "dtype": "float32", "rule": "max_trace", "eta": 0.00125, "tol": 1e-5,
              "history": [{"sweep": 0, "off_rel": 1.0, "diag_norm2": 0.1, "seconds": 0.0},
                          {"sweep": 1, "off_rel": 0.0, "diag_norm2": 2.0, "seconds": 0.001}]}
    assert plot.run_label(report) == "D=3, N=8, float32, eta=0.00125, max_trace"
    figure = plot.convergence_figure([report])
    assert figure.axes[0].get_yscale() == "log"


def test_runtime_png_from_a_benchmark(tmp_path):
    bench = write_json(tmp_path / "cpu.json", BENCHMARK)
    out = tmp_path / "runtimes.png"
    assert plot.main([str(bench), "-o", str(out)]) == 0
    assert out.read_bytes().startswith(PNG_MAGIC) and out.stat().st_size > 10_000
    figure = plot.runtime_figure([BENCHMARK], ["test cpu"])
    titles = [axes.get_title() for axes in figure.axes]
    assert titles == ["N = 8, with pivot checks (eta > 0)", "N = 8, no pivot checks (eta = 0)",
                      "D = 3, with pivot checks (eta > 0)", "D = 3, no pivot checks (eta = 0)"]
    assert all(len(axes.lines) == 2 and axes.get_yscale() == "log" for axes in figure.axes)
    assert [text.get_text() for text in figure.texts] == ["Runtime of 10 sweeps (float32)"]


def test_mixed_or_unknown_files_are_refused(tmp_path, reports, capsys):
    bench = write_json(tmp_path / "cpu.json", BENCHMARK)
    other = write_json(tmp_path / "other.json", {"something": 1})
    assert plot.main([str(reports[0]), str(bench), "-o", str(tmp_path / "x.png")]) == 1
    assert plot.main([str(other), "-o", str(tmp_path / "x.png")]) == 1
    err = capsys.readouterr().err
    assert "give reports or benchmark files, not both" in err
    assert "neither a report (no 'history' list) nor a benchmark" in err
    assert not (tmp_path / "x.png").exists()


def test_runs_as_a_module(tmp_path, reports):
    out = tmp_path / "module.png"
    completed = subprocess.run([sys.executable, "-m", "tensordiag.plot", str(reports[0]), "-o", str(out)],
                               capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    assert out.read_bytes().startswith(PNG_MAGIC)


def test_labels_from_the_command_line(tmp_path, reports, capsys):
    out = tmp_path / "labelled.png"
    assert plot.main([str(reports[0]), str(reports[1]), "--label", "first", "--label", "second", "-o", str(out)]) == 0
    with pytest.raises(SystemExit):
        plot.main([str(reports[0]), str(reports[1]), "--label", "only one", "-o", str(out)])
    assert "2 files: give one per file" in capsys.readouterr().err


def test_an_empty_benchmark_is_refused(tmp_path, capsys):
    empty = write_json(tmp_path / "empty.json", {"results": []})
    assert plot.main([str(empty), "-o", str(tmp_path / "x.png")]) == 1
    assert "'results' is empty" in capsys.readouterr().err


def test_the_title_names_what_the_runs_share(reports):
    runs = [json.loads(path.read_text()) for path in reports]
    assert plot.convergence_figure(runs).axes[0].get_title() == "Convergence, N = 6, float64"
    assert plot.convergence_figure(runs[:1]).axes[0].get_title() == "Convergence, D = 3, N = 6, float64"


@pytest.mark.skipif("TENSORDIAG_CLI" not in os.environ, reason="TENSORDIAG_CLI names the tensordiag command (CTest sets it)")
def test_the_commands_report_plots_and_matches_result_report(tmp_path):
    tensor, _, _ = tensordiag.generate(4, 6, seed=3, noise=0.01)
    np.save(tmp_path / "tensor.npy", tensor)
    subprocess.run([os.environ["TENSORDIAG_CLI"], "diagonalize", str(tmp_path / "tensor.npy"), "--out",
                    str(tmp_path / "run"), "--quiet"], check=True)
    report_path = tmp_path / "run" / "report.json"
    assert plot.main([str(report_path), "-o", str(tmp_path / "command.png")]) == 0

    command = json.loads(report_path.read_text())
    ours = tensordiag.diagonalize_full(tensor).report()
    only_the_command_knows = {"input", "input_dtype"}
    assert list(ours) == [key for key in command if key not in only_the_command_knows]
    assert list(ours["timings"]) == list(command["timings"])
    for key in ("order", "size", "dtype", "layout", "rule", "eta", "tol", "stall_tol", "sweeps", "stop_reason"):
        assert ours[key] == command[key], key
    assert [r["off_rel"] for r in ours["history"]] == pytest.approx([r["off_rel"] for r in command["history"]],
                                                                    rel=1e-9, abs=1e-15)
    assert np.allclose(np.load(tmp_path / "run" / "core.npy"), tensordiag.diagonalize(tensor)[0], atol=1e-13)
