"""Helpers for the tests of the readers in vllm_lint/sources: lint a real file, look at what
was found, word by word, with the exact line and column of each."""

from __future__ import annotations

from pathlib import Path

from vllm_lint.model import FileResult, Invocation
from vllm_lint.options import Options
from vllm_lint.pipeline import lint_file

Word = tuple[str, int, int]  # text, line, column


def lint(path: Path, root: Path | None = None, version: str | None = None) -> FileResult:
    return lint_file(str(path), Options(vllm_version=version, root=root or path.parent))


def launches(path: Path, root: Path | None = None) -> list[Invocation]:
    return lint(path, root).invocations


def words(inv: Invocation, opaque: bool = False) -> list[Word]:
    """The literal words (or, with opaque=True, every word) as (text, line, col)."""
    return [(t.text, t.span.line, t.span.col) for t in inv.argv if opaque or not t.opaque]


def where(inv: Invocation) -> tuple[int, int]:
    assert inv.anchor is not None
    return inv.anchor.line, inv.anchor.col


def rules_at(result: FileResult) -> list[tuple[str, int, int]]:
    return sorted((f.rule, f.span.line, f.span.col) for f in result.findings)
