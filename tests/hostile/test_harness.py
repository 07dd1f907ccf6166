"""The harness itself can fail: a crash, a usage error nobody expected or the wrong message,
a stray warning on stderr are all failures, never a pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from childrun import EXIT_INTERNAL, judge, lint, run

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits

MANIFEST = "services:\n  s:\n    image: vllm/vllm-openai:v0.33.0\n    command: [m]\n"
CRASH = """
import vllm_lint.pipeline as _pipeline
def _boom(*args, **kwargs):
    raise RuntimeError("simulated crash")
_pipeline.lint_file = _boom
"""
DEEP = """
import vllm_lint.pipeline as _pipeline
def _deep(*args, **kwargs):
    return _deep(*args, **kwargs)
_pipeline.lint_file = _deep
"""


@pytest.mark.parametrize("crash", [CRASH, DEEP], ids=["exception", "recursion"])
def test_an_internal_error_has_its_own_exit_code_and_fails_the_harness(
    tmp_path: Path, crash: str
) -> None:
    (tmp_path / "d.yaml").write_text(MANIFEST)
    child = run(tmp_path, "d.yaml", prelude=crash)
    assert child.code == EXIT_INTERNAL, child
    [line] = child.err.splitlines()
    assert line.startswith("vllm-lint: internal error: ") and "please report it" in line, line
    with pytest.raises(pytest.fail.Exception, match="internal error"):
        judge(child)
    with pytest.raises(pytest.fail.Exception, match="internal error"):
        judge(child, error="simulated")  # not even when some error was expected


def test_a_usage_error_must_be_expected_and_say_what_was_expected(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match="expected a result"):
        lint(tmp_path, "--format", "nope")
    with pytest.raises(pytest.fail.Exception, match="does not say"):
        lint(tmp_path, "--format", "nope", error="no such file")
    lint(tmp_path, "--format", "nope", error=r"--format: invalid choice")


def test_a_result_where_an_error_was_expected_fails(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(MANIFEST)
    with pytest.raises(pytest.fail.Exception, match="expected the usage error"):
        lint(tmp_path, "d.yaml", error="anything")


def test_anything_on_stderr_fails_a_result(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(MANIFEST)
    noisy = "import sys; sys.stderr.write('a library warning\\n')"
    with pytest.raises(pytest.fail.Exception, match="stderr"):
        lint(tmp_path, "d.yaml", prelude=noisy)


def test_a_segfault_fails_the_harness(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(MANIFEST)
    segfault = "import ctypes; ctypes.string_at(0)"
    with pytest.raises(pytest.fail.Exception, match="killed by signal"):
        lint(tmp_path, "d.yaml", prelude=segfault)
