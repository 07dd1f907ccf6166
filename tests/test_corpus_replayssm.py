"""The real-world corpus: every file is processed (exit 0 or 1, no traceback), and the
ReplaySSM and Mamba rules raise no false alarm on real deployments."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPUS, run_cli

FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "SOURCES.md")


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_file_is_processed(path: Path) -> None:
    run = run_cli("--format", "json", str(path.relative_to(CORPUS)), cwd=CORPUS)
    assert run.code in (0, 1), run.err
    assert run.err == ""
    family = [f for f in run.findings() if f["rule"].startswith("VL1")]
    assert family == [], family


def test_corpus_has_invocations() -> None:
    run = run_cli("--format", "json", ".", cwd=CORPUS)
    assert run.json()["invocations"] >= 70
