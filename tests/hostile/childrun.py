"""Run the real CLI in a child process with limits (10 s, 1 GiB) for the hostile-input suite.

The child is the program users run (`vllm_lint.cli.run`, which ends with `os._exit`), from this
checkout, in an isolated interpreter (`-I`: neither the current folder nor PYTHON* variables
reach `sys.path`). What it must show:

- exit 0 or 1 with nothing on stderr (no library warning, no traceback);
- or, when the test expects a usage or configuration error (`error=`), exit 2 and exactly one
  stderr line `vllm-lint: error: …` that matches the expected message;
- never exit 3 (an internal error: a bug), a signal (a segfault), a timeout or a memory error.

Any other outcome fails the test, so that a crash cannot pass for a refused input.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

HOOKS = Path(__file__).resolve().parents[2] / "hooks"
LIMIT_SECONDS = 10
LIMIT_BYTES = 1024**3
EXIT_USAGE, EXIT_INTERNAL = 2, 3
TIMING_FILE = "vllm-lint-childrun-seconds"  # where the child writes how long it linted

_PROGRAM = """
import os, sys, time
sys.path.insert(0, {hooks!r})
{prelude}
from vllm_lint import cli
_main = cli.main
def _timed(argv=None):
    start = time.perf_counter()
    try:
        return _main(argv)
    finally:
        with open({timing!r}, "w") as handle:
            handle.write(repr(time.perf_counter() - start))
cli.main = _timed
cli.run()
"""


@dataclass
class Child:
    code: int
    out: str
    err: str
    seconds: float = 0.0  # time spent linting (`cli.main`), without the interpreter's start


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


def run(root: Path, *args: str, prelude: str = "", seconds: float = LIMIT_SECONDS) -> Child:
    """`vllm-lint ARGS` in `root`, in a fresh isolated interpreter capped in time and memory;
    the outcome is not judged (see `lint`)."""
    env = {k: v for k, v in os.environ.items() if k not in ("VLLM_LINT_DEBUG", "GITHUB_ACTIONS")}
    with tempfile.TemporaryDirectory() as temp:
        timing = os.path.join(temp, TIMING_FILE)
        program = _PROGRAM.format(hooks=str(HOOKS), prelude=prelude, timing=timing)
        started = time.perf_counter()
        try:
            proc = subprocess.run(
                [sys.executable, "-I", "-c", program, *args],
                cwd=root,
                capture_output=True,
                timeout=seconds,
                preexec_fn=_limits,
                env=env,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"vllm-lint {' '.join(args)[:200]} took more than {seconds} s")
        try:
            with open(timing) as handle:
                spent = float(handle.read())
        except (OSError, ValueError):
            spent = time.perf_counter() - started
    return Child(
        proc.returncode,
        proc.stdout.decode(errors="replace"),
        proc.stderr.decode(errors="replace"),
        spent,
    )


def judge(child: Child, error: str | None = None) -> Child:
    """Fail unless the child gave a result (exit 0/1, silent stderr) or, when `error` (a regex)
    is given, the one-line usage or configuration error that matches it."""
    err = child.err[-2000:]
    if child.code == EXIT_INTERNAL or "internal error" in child.err:
        pytest.fail(f"internal error (exit {child.code}): {err}")
    if child.code < 0:
        pytest.fail(f"killed by signal {-child.code} (a crash of the interpreter): {err}")
    if "Traceback" in child.err or "MemoryError" in child.err:
        pytest.fail(f"a traceback (exit {child.code}): {err}")
    if error is None:
        if child.code not in (0, 1):
            pytest.fail(f"exit {child.code}, expected a result (0 or 1): {err}")
        if child.err:
            pytest.fail(f"unexpected output on stderr: {err}")
        return child
    if child.code != EXIT_USAGE:
        pytest.fail(f"exit {child.code}, expected the usage error {error!r}: {err}")
    lines = child.err.split("\n")
    if len(lines) != 2 or lines[1] != "" or not lines[0].startswith("vllm-lint: error: "):
        pytest.fail(f"not one line `vllm-lint: error: …`: {err!r}")
    if not re.search(error, lines[0]):
        pytest.fail(f"the error does not say {error!r}: {lines[0]}")
    return child


def lint(
    root: Path,
    *args: str,
    error: str | None = None,
    prelude: str = "",
    seconds: float = LIMIT_SECONDS,
) -> Child:
    """`vllm-lint ARGS` in `root` under the limits, judged (see `judge`)."""
    return judge(run(root, *args, prelude=prelude, seconds=seconds), error)
