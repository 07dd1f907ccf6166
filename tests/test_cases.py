"""Golden cases: every folder under tests/cases/ that holds an `expected.txt` is a case.

A case is real input files (any layout, as a repo would hold them), the command line to run
(`args.txt`, one argument per line; default `--show-invocations .`) and the output the real CLI
must print (`expected.txt`), run with the case folder as the working directory. The exit code
is the first line of `expected.txt` (`exit 1`). After an intended change, rewrite them with
`python -m pytest tests/test_cases.py --update-goldens` and review the diff.

tests/cases/sources/<format>/<case>/: what each reader finds (`--show-invocations`);
tests/cases/rules/<area>/VLnnn/: a rule's failing and passing launches and the text output.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tools.cases import CASES, all_cases, render, rule_case_files


def test_there_are_cases_for_every_source_format() -> None:
    from vllm_lint.sources.registry import SOURCES

    have = {p.name for p in (CASES / "sources").iterdir() if p.is_dir()}
    assert {s.id for s in SOURCES} <= have


def test_every_rule_has_a_case_and_the_inputs_are_current() -> None:
    from vllm_lint.rules.registry import builtin_rules

    stale = [str(p) for p, text in rule_case_files() if not p.is_file() or p.read_text() != text]
    assert not stale, "run `python -m tools.cases rules` (and --update-goldens)"
    folders = {p.name for p in (CASES / "rules").glob("*/*") if (p / "expected.txt").is_file()}
    assert {f"{r.id}-{r.slug}" for r in builtin_rules()} <= folders


@pytest.mark.parametrize("case", all_cases(), ids=lambda p: str(p.relative_to(CASES)))
def test_case(case: Path, request: pytest.FixtureRequest) -> None:
    expected = case / "expected.txt"
    got = render(case)
    if request.config.getoption("--update-goldens"):
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")
