"""Golden cases: every folder under tests/cases/ that holds an `expected.txt` is a case.

A case is real input files (any layout, as a repo would hold them), the command line to run
(`args`, one argument per line; default `--show-invocations .`) and the output the real CLI
must print (`expected.txt`), run with the case folder as the working directory. The exit code
is the first line of `expected.txt` (`exit 1`). After an intended change, rewrite them with
`python -m pytest tests/test_cases.py --update-goldens` and review the diff.

tests/cases/sources/<format>/<case>/: what each reader finds (`--show-invocations`);
tests/cases/rules/<area>/VLnnn/: a rule's failing and passing launches and the text output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli

CASES = Path(__file__).parent / "cases"
DEFAULT_ARGS = ("--show-invocations", ".")


def _cases() -> list[Path]:
    return sorted(p.parent for p in CASES.rglob("expected.txt"))


def render(case: Path) -> str:
    """What the CLI prints for a case: its exit code, then stdout (and stderr, if any)."""
    args_file = case / "args"
    args = args_file.read_text(encoding="utf-8").split("\n") if args_file.is_file() else []
    run = run_cli(*([a for a in args if a] or DEFAULT_ARGS), "--color", "never", cwd=case)
    text = f"exit {run.code}\n{run.out}"
    return text + (f"--- stderr\n{run.err}" if run.err else "")


def test_there_are_cases_for_every_source_format() -> None:
    from vllm_lint.sources.registry import SOURCES

    have = {p.name for p in (CASES / "sources").iterdir() if p.is_dir()}
    assert {s.id for s in SOURCES} <= have


@pytest.mark.parametrize("case", _cases(), ids=lambda p: str(p.relative_to(CASES)))
def test_case(case: Path, request: pytest.FixtureRequest) -> None:
    expected = case / "expected.txt"
    got = render(case)
    if request.config.getoption("--update-goldens"):
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")
