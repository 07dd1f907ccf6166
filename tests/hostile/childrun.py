"""Run the real CLI in a child process with limits (10 s, 1 GiB) for the hostile-input suite."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

HOOKS = Path(__file__).resolve().parents[2] / "hooks"
LIMIT_SECONDS = 10
LIMIT_BYTES = 1024**3


@dataclass
class Child:
    code: int
    out: str
    err: str


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


def lint(root: Path, *args: str, prelude: str = "") -> Child:
    """`vllm-lint ARGS` in `root`, in a fresh interpreter capped at 10 s and 1 GiB."""
    code = (
        f"{prelude}\nimport sys\nsys.path.insert(0, {str(HOOKS)!r})\n"
        "from vllm_lint.cli import main\nraise SystemExit(main(sys.argv[1:]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "VLLM_LINT_DEBUG"}
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code, *args],
            cwd=root,
            capture_output=True,
            timeout=LIMIT_SECONDS,
            preexec_fn=_limits,
            env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"vllm-lint {' '.join(args)} took more than {LIMIT_SECONDS} s")
    child = Child(
        proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace")
    )
    assert child.code in (0, 1, 2), child
    assert "Traceback" not in child.err, child.err
    if child.code == 2:
        assert child.err.count("\n") == 1, child.err
    return child
