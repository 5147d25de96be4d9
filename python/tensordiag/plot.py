"""Convergence and runtime figures, drawn as the seed paper draws its figures 1-4.

    python3 -m tensordiag.plot report.json [report2.json ...] -o convergence.png
    python3 -m tensordiag.plot bench/results/cpu.json [other.json ...] -o runtimes.png

A report (``report.json`` of ``tensordiag diagonalize``, or ``Result.report()`` saved as JSON) has a
``history`` of ``{sweep, off_rel, diag_norm2, seconds}``: the figure shows off_rel per sweep on a log
axis, one line per report (the paper's figures 1 and 2, which use a linear axis and so cannot show
the last digits). A benchmark file (``bench/cpu_bench``'s JSON) has ``results``, a list of
``{order, size, eta, seconds_median, paper_c_seconds, ...}``: the figure shows the runtime against
the order D at fixed N and against N at fixed D (log time), with pivot checks (eta > 0) and without,
beside the paper's sequential C code (figures 3 and 4).

Figures are drawn with matplotlib's Agg canvas, without pyplot, so importing this module changes no
matplotlib backend; the functions return ``matplotlib.figure.Figure`` objects.
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib
import sys
from typing import Iterable, Optional, Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter, ScalarFormatter


def run_label(report: dict) -> str:
    """'D=4, N=8, float32, eta=0' (plus the rule when it is not max_diag)."""
    parts = [f"D={report.get('order', '?')}", f"N={report.get('size', '?')}"]
    if "dtype" in report:
        parts.append(report["dtype"])
    if "eta" in report:
        parts.append(f"eta={report['eta']:g}")
    if report.get("rule", "max_diag") != "max_diag":
        parts.append(report["rule"])
    return ", ".join(parts)


def convergence_figure(reports: Sequence[dict], labels: Optional[Sequence[str]] = None) -> Figure:
    """off_rel per sweep, log scale, one line per report."""
    figure = Figure(figsize=(6.4, 4.4), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for k, report in enumerate(reports):
        sweeps = [record["sweep"] for record in report["history"]]
        # An exactly diagonal core has off_rel 0, which a log axis cannot show: masked.
        off_rel = [record["off_rel"] if record["off_rel"] > 0 else float("nan") for record in report["history"]]
        label = labels[k] if labels is not None else run_label(report)
        axes.plot(sweeps, off_rel, marker="o", markersize=3, label=label)
    tolerances = {report["tol"] for report in reports if "tol" in report}
    if len(tolerances) == 1:
        axes.axhline(tolerances.pop(), color="gray", linestyle="--", linewidth=1, label="tol")
    axes.set_yscale("log")
    axes.set_xlabel("sweep")
    axes.set_ylabel("relative off-diagonal norm  off(C) / off(T)")
    axes.set_title(", ".join(["Convergence", *_shared_setting(reports, "order", "D = {}"),
                              *_shared_setting(reports, "size", "N = {}"), *_shared_setting(reports, "dtype", "{}")]))
    axes.grid(True, which="major", linestyle="--", alpha=0.4)
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.legend(fontsize="small")
    return figure


def _series(results: Iterable[dict], vary: str, fixed: str, fixed_value: int, with_checks: bool) -> list:
    """(x, ours, paper) triples, sorted by x, for one panel."""
    rows = [r for r in results if r[fixed] == fixed_value and (r["eta"] > 0) == with_checks]
    return sorted((r[vary], r["seconds_median"], r.get("paper_c_seconds")) for r in rows)


def _most_varied(results: Sequence[dict], fixed: str, vary: str) -> int:
    """The value of `fixed` that has the most distinct values of `vary` (N = 8 and D = 3 in the paper)."""
    spread = collections.defaultdict(set)
    for r in results:
        spread[r[fixed]].add(r[vary])
    return max(spread, key=lambda value: (len(spread[value]), -value))


def runtime_figure(benchmarks: Sequence[dict], labels: Sequence[str]) -> Figure:
    """Runtime vs D (fixed N) and vs N (fixed D), with and without pivot checks, log time.

    ``benchmarks``: parsed benchmark files, each with ``results``; ``labels``: one per file. The
    paper's C times are taken from the first file that has them.
    """
    figure = Figure(figsize=(10, 7.5), layout="constrained")
    FigureCanvasAgg(figure)
    grid = figure.subplots(2, 2)
    everything = [r for bench in benchmarks for r in bench["results"]]
    symbol = {"order": "D", "size": "N"}
    for row, (vary, fixed) in enumerate((("order", "size"), ("size", "order"))):
        fixed_value = _most_varied(everything, fixed, vary)
        for column, with_checks in enumerate((True, False)):
            axes = grid[row][column]
            paper_drawn = False
            for bench, label in zip(benchmarks, labels):
                series = _series(bench["results"], vary, fixed, fixed_value, with_checks)
                if not series:
                    continue
                xs = [x for x, _, _ in series]
                axes.plot(xs, [ours for _, ours, _ in series], marker="o", label=label)
                paper = [(x, c) for x, _, c in series if c is not None]
                if paper and not paper_drawn:
                    axes.plot([x for x, _ in paper], [c for _, c in paper], marker="s", linestyle="--",
                              color="green", label="paper: sequential C")
                    paper_drawn = True
            axes.set_yscale("log")
            if vary == "size":
                axes.set_xscale("log", base=2)
                axes.xaxis.set_major_formatter(ScalarFormatter())
                axes.xaxis.set_minor_formatter(NullFormatter())
            axes.set_xticks(sorted({x for line in axes.lines for x in line.get_xdata()}))
            axes.set_xlabel(f"{vary} {symbol[vary]}")
            axes.set_ylabel("seconds")
            checks = "with pivot checks (eta > 0)" if with_checks else "no pivot checks (eta = 0)"
            axes.set_title(f"{symbol[fixed]} = {fixed_value}, {checks}", fontsize="medium")
            axes.grid(True, which="major", linestyle="--", alpha=0.4)
            if axes.lines:
                axes.legend(fontsize="small")
    figure.suptitle(" ".join(["Runtime", *_shared_setting(everything, "sweeps", "of {} sweeps"),
                              *_shared_setting(everything, "dtype", "({})")]))
    return figure


def _shared_setting(results: Sequence[dict], key: str, pattern: str) -> list:
    """[pattern with the value] when every result has the same value under key, else []."""
    values = {r.get(key) for r in results}
    return [pattern.format(values.pop())] if len(values) == 1 and None not in values else []


def _kind(data: object) -> str:
    if isinstance(data, dict) and isinstance(data.get("history"), list):
        return "report"
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        return "benchmark"
    return "unknown"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tensordiag.plot", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=pathlib.Path,
                        help="report.json files (convergence) or benchmark JSON files (runtimes), not both")
    parser.add_argument("-o", "--output", type=pathlib.Path, required=True, help="image to write (.png, .svg, .pdf)")
    parser.add_argument("--label", action="append", dest="labels", metavar="TEXT",
                        help="legend text, once per file in order (default: from each file)")
    args = parser.parse_args(argv)
    if args.labels is not None and len(args.labels) != len(args.files):
        parser.error(f"{len(args.labels)} --label for {len(args.files)} files: give one per file")

    loaded = []
    for path in args.files:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            print(f"tensordiag.plot: {path}: {error}", file=sys.stderr)
            return 1
        loaded.append((path, data, _kind(data)))
    kinds = {kind for _, _, kind in loaded}
    if kinds == {"report"}:
        figure = convergence_figure([data for _, data, _ in loaded], args.labels)
    elif kinds == {"benchmark"}:
        empty = [str(path) for path, data, _ in loaded if not data["results"]]
        if empty:
            print(f"tensordiag.plot: {', '.join(empty)}: 'results' is empty", file=sys.stderr)
            return 1
        labels = args.labels or [data["results"][0].get("device", path.stem) for path, data, _ in loaded]
        figure = runtime_figure([data for _, data, _ in loaded], labels)
    else:
        unknown = [str(path) for path, _, kind in loaded if kind == "unknown"]
        what = (f"{', '.join(unknown)}: neither a report (no 'history' list) nor a benchmark (no 'results' list)"
                if unknown else "give reports or benchmark files, not both")
        print(f"tensordiag.plot: {what}", file=sys.stderr)
        return 1
    figure.savefig(args.output, dpi=120)
    print(f"tensordiag.plot: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
