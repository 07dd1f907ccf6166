"""A finding's identity that survives unrelated edits: SARIF's partialFingerprints and the
baseline (`--write-baseline`, `--baseline`) both use it, so both agree on what is the same
finding.

The fingerprint hashes the rule id, the path (relative to a root, with `/`), the text of the
offending lines with their indentation stripped, and the finding's rank among the findings
with that same rule, path and text (twins in one file are told apart by their order). Lines
added or removed elsewhere, or a re-indented block, leave it unchanged; editing the offending
line itself makes a new finding, as it should.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from vllm_lint.model import Finding, Span
from vllm_lint.report.github import workspace_path

KEY = "vllmLint/v1"  # the algorithm's name: SARIF's partialFingerprints key, the baseline's

Lines = Callable[[str], Sequence[str]]


def read_lines(path: str) -> tuple[str, ...]:
    """A file's lines, read as the linter reads files (a regular file inside the current
    folder, capped), counted at `\\n` only."""
    from pathlib import Path

    from vllm_lint.files import reader
    from vllm_lint.files.layout import DEFAULT_MAX_BYTES

    text = reader.read_text(path, DEFAULT_MAX_BYTES, inside=Path.cwd())
    return () if text is None else tuple(reader.lines_of(text))


def _source_text(span: Span, lines: Sequence[str]) -> str:
    """The offending lines, stripped: what stays the same when the file shifts around them."""
    if not lines or span.line < 1:
        return ""
    chosen = lines[span.line - 1 : max(span.end_line, span.line)]
    return "\n".join(line.strip() for line in chosen)


def fingerprints(
    findings: Sequence[Finding], root: str | None = None, lines_of: Lines = read_lines
) -> list[str]:
    """One stable id per finding, in order; `root` is the folder paths are relative to
    (default: $GITHUB_WORKSPACE, else the current folder); `lines_of` reads a file's lines."""
    files: dict[str, Sequence[str]] = {}
    seen: dict[str, int] = {}
    result = []
    for finding in findings:
        span = finding.span
        if span.path not in files:
            files[span.path] = lines_of(span.path)  # read once per call, never cached longer
        path = workspace_path(span.path, root)
        key = "\0".join((finding.rule, path, _source_text(span, files[span.path])))
        # a file name that is not UTF-8 hashes as its own bytes (surrogateescape)
        ordinal = seen.get(key, 0)
        seen[key] = ordinal + 1
        result.append(
            hashlib.sha256(f"{key}\0{ordinal}".encode("utf-8", "surrogateescape")).hexdigest()
        )
    return result
