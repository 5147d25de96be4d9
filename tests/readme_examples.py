"""Runs the shell examples of README.md and python/README.md, so that the manual cannot drift.

A shell example is a fenced block tagged ``sh``, ``bash`` or ``console``; a synopsis with
placeholders is tagged ``text`` and is not run. In ``sh``/``bash`` blocks every line is a command
(backslash continuations joined, blank and comment lines dropped); in ``console`` blocks a line
starting with ``$ `` is a command and the lines after it are its output, shown to the reader but not
compared (timings, paths and machine names differ). Every command must exit 0.

The commands of one README run in order, one ``bash -eo pipefail -c`` each, in one scratch
directory set up as a clone is after ``bash scripts/setup.sh``: ``build/`` (a link to this build),
``bench/`` and ``examples/`` (links to the sources), ``tensordiag`` and Debian's ``python3`` first on
PATH, the module importable, and a kernel cache of its own. Later examples may use the files of
earlier ones (``result/report.json``). Commands that match SKIPPED are not run, each printed with
the reason. A shell command left in an indented (unfenced) block fails the test: fence it, so it is
run.

    python3 tests/readme_examples.py --source-dir . --build-dir build --cli build/tensordiag
"""

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

# (pattern searched in the command, why it is not run here)
SKIPPED = [
    (r"^bash scripts/setup\.sh", "the whole set-up (apt-get, a full build); CI runs it as its first step"),
    (r"^bash scripts/test\.sh", "the whole test suite, this test among them"),
    (r"\b(apt-get|sudo)\b", "system set-up: installs Debian packages"),
    (r"^cmake -S \. -B build", "a full build: this test runs in the build it would make"),
    (r"python3 -m venv|venv/bin/pip|pip install", "a second full build, by pip into a venv (setup.py)"),
    (r"--backend cuda", "needs a GPU"),
    (r"--devices", "needs GPUs"),
    (r"scripts/gpu-", "a device-machine script"),
]

SHELL_TAGS = {"sh", "bash", "console"}
# The first words of a command: what an indented block must not start with.
LOOKS_LIKE_A_COMMAND = re.compile(r"^(\$ |tensordiag |build/|bash |python3 |cmake |make |apt-get |sudo |"
                                  r"PYTHONPATH=|venv/|pip )")


def fenced_blocks(text):
    """(tag, lines, first line number) of every fenced block."""
    blocks, tag, lines, start = [], None, [], 0
    for number, line in enumerate(text.splitlines(), 1):
        fence = re.match(r"^```(\w*)\s*$", line)
        if fence and tag is None:
            tag, lines, start = fence.group(1), [], number + 1
        elif line.startswith("```") and tag is not None:
            blocks.append((tag, lines, start))
            tag = None
        elif tag is not None:
            lines.append(line)
    if tag is not None:
        raise SystemExit(f"an unclosed ``` block starts at line {start - 1}")
    return blocks


def unfenced_commands(text):
    """Line numbers of indented blocks, outside fences, whose first line reads as a shell command."""
    found, in_fence, previous = [], False, ""
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and previous.strip() == "" and line.startswith("    ") and \
                LOOKS_LIKE_A_COMMAND.match(line[4:]):
            found.append(number)
        previous = line
    return found


def commands(tag, lines):
    """The commands of one block, with their line offsets in it."""
    out, pending, pending_at = [], "", 0
    for offset, line in enumerate(lines):
        if tag == "console":
            if line.startswith("$ "):
                out.append((line[2:], offset))
            continue
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if not pending:
            pending_at = offset
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        out.append((pending + stripped, pending_at))
        pending = ""
    return out


def skip_reason(command):
    for pattern, reason in SKIPPED:
        if re.search(pattern, command):
            return reason
    return None


def scratch_directory(root, source, build, cli):
    """A directory laid out as a set-up clone (see the module's docstring), and its environment."""
    (root / "build").symlink_to(build)
    for name in ("bench", "examples"):
        (root / name).symlink_to(source / name)
    tools = root / ".tools"
    tools.mkdir()
    (tools / "tensordiag").symlink_to(cli)
    (tools / "python3").symlink_to(sys.executable)
    env = dict(os.environ)
    env["PATH"] = f"{tools}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(build / "python")
    env["TENSORDIAG_CACHE_DIR"] = str(root / ".kernel-cache")
    env.pop("TENSORDIAG_DISABLE_KERNEL_CACHE", None)
    return env


def run_readme(readme, source, build, cli):
    """Runs one README's examples; returns (commands run, failures)."""
    text = readme.read_text()
    name = readme.relative_to(source)
    failures = [f"{name}:{line}: a shell command in an indented block: fence it as ```sh"
                for line in unfenced_commands(text)]
    ran = 0
    with tempfile.TemporaryDirectory(prefix="tensordiag-readme-") as scratch:
        root = pathlib.Path(scratch)
        env = scratch_directory(root, source, build, cli)
        for tag, lines, start in fenced_blocks(text):
            if tag not in SHELL_TAGS:
                continue
            for command, offset in commands(tag, lines):
                where = f"{name}:{start + offset}"
                reason = skip_reason(command)
                if reason:
                    print(f"skipped  {where}: {command}\n         ({reason})")
                    continue
                print(f"running  {where}: {command}", flush=True)
                done = subprocess.run(["bash", "-eo", "pipefail", "-c", command], cwd=root, env=env,
                                      stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
                ran += 1
                if done.returncode != 0:
                    failures.append(f"{where}: '{command}' exited {done.returncode}\n"
                                    f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}")
    if ran == 0:
        failures.append(f"{name}: no shell example ran: is the extraction broken?")
    return ran, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source-dir", type=pathlib.Path, required=True)
    parser.add_argument("--build-dir", type=pathlib.Path, required=True)
    parser.add_argument("--cli", type=pathlib.Path, required=True, help="the tensordiag command")
    args = parser.parse_args()
    source, build, cli = (path.resolve() for path in (args.source_dir, args.build_dir, args.cli))
    total, failures = 0, []
    for readme in (source / "README.md", source / "python" / "README.md"):
        ran, failed = run_readme(readme, source, build, cli)
        total += ran
        failures += failed
    for failure in failures:
        print(f"FAILED   {failure}", file=sys.stderr)
    print(f"{total} commands run, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
