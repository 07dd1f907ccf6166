"""SECURITY.md promises only what tests prove: every promise names at least one test, and
every test or test file it names exists (a renamed or deleted test breaks this one)."""

from __future__ import annotations

import re

from conftest import REPO

TESTS = REPO / "tests"


def _promises() -> list[str]:
    text = (REPO / "SECURITY.md").read_text("utf-8")
    section = text.split("## What we promise", 1)[1].split("\n## ", 1)[0]
    return re.split(r"\n(?=\d+\. \*\*)", section)[1:]


def test_every_promise_names_a_test_that_exists() -> None:
    defined = {
        name
        for path in TESTS.rglob("test_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text("utf-8"), re.MULTILINE)
    }
    promises = _promises()
    assert len(promises) >= 8, promises
    for promise in promises:
        named = re.findall(r"\btest_\w+(?=[`:])", promise)
        files = re.findall(r"`((?:tests/|hostile/)?test_\w+\.py)", promise)
        functions = [n for n in named if not n.endswith("_py")]
        assert functions or files, f"a promise that names no test:\n{promise}"
        for name in functions:
            assert name in defined, f"SECURITY.md names {name}, which no test defines"
        for file in files:
            path = TESTS / file.removeprefix("tests/")
            assert path.is_file(), f"SECURITY.md names {file}, which does not exist"
