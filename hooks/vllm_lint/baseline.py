"""The baseline: adopt vllm-lint in a repo that already has findings, and hear only of new ones.

`--write-baseline FILE` records the findings of today by their fingerprint (fingerprint.py:
rule, path, the offending line's text and its rank among twins, so that lines added or removed
elsewhere do not change it); `--baseline FILE` then reports only the findings whose
fingerprint the file does not hold. Paths are taken relative to the baseline file's folder, so
the file works from any working directory and in CI.

The file (JSON, versioned, meant to be committed and reviewed):

    {"vllm-lint-baseline": 1, "fingerprint": "vllmLint/v1",
     "findings": [{"fingerprint": "…", "rule": "VL002", "path": "deploy/vllm.yaml",
                   "line": 15, "message": "…"}]}

`rule`, `path`, `line` and `message` are there for the reader; only `fingerprint` is matched.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vllm_lint.files.writer import anchor, write_inside
from vllm_lint.fingerprint import KEY, Lines, fingerprints, read_lines
from vllm_lint.model import Finding
from vllm_lint.report.github import workspace_path

FORMAT_VERSION = 1
_MARK = "vllm-lint-baseline"


class BaselineError(Exception):
    """A baseline file that cannot be read or written: one line, exit 2."""


@dataclass(frozen=True)
class Baseline:
    path: str
    known: frozenset[str]

    @property
    def root(self) -> str:
        return os.path.dirname(os.path.abspath(self.path))

    def new(self, findings: Sequence[Finding], lines_of: Lines = read_lines) -> list[Finding]:
        """The findings the baseline does not hold, in order."""
        prints = fingerprints(findings, self.root, lines_of)
        return [f for f, p in zip(findings, prints, strict=True) if p not in self.known]


MAX_BASELINE_BYTES = 64 << 20  # ~300,000 findings


def load(path: str, repo: Path) -> Baseline:
    """The baseline at `path`: a regular file read through files/reader.py (capped, never
    blocking, never through a link out of `repo`)."""
    from vllm_lint.files.reader import read_bytes, spelt_inside

    try:
        # inside the repo, no link out of it; a path the caller named outside it is theirs
        inside = repo if spelt_inside(path, repo) else None
        raw = read_bytes(path, MAX_BASELINE_BYTES + 1, inside=inside)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        why = getattr(exc, "strerror", None) or exc
        raise BaselineError(f"cannot read baseline {path}: {why}") from None
    if len(raw) > MAX_BASELINE_BYTES:
        raise BaselineError(f"{path}: larger than {MAX_BASELINE_BYTES} bytes")
    try:
        data: Any = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        why = str(exc) if isinstance(exc, ValueError) else "nested too deeply"
        raise BaselineError(f"{path}: not a vllm-lint baseline (invalid JSON: {why})") from None
    version = data.get(_MARK) if isinstance(data, dict) else None
    if type(version) is not int or version != FORMAT_VERSION:  # `true == 1` in Python
        raise BaselineError(
            f"{path}: not a vllm-lint baseline of format {FORMAT_VERSION} "
            f'(write one with --write-baseline; it starts {{"{_MARK}": {FORMAT_VERSION}'
        )
    if data.get("fingerprint") != KEY:
        raise BaselineError(
            f"{path}: fingerprints of kind {data.get('fingerprint')!r}, not {KEY!r}: "
            "write it again with --write-baseline"
        )
    entries = data.get("findings")
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("fingerprint"), str) for e in entries
    ):
        raise BaselineError(f"{path}: `findings` must be a list of objects with a fingerprint")
    return Baseline(path, frozenset(e["fingerprint"] for e in entries))


def write(path: str, findings: Sequence[Finding], repo: Path, lines_of: Lines = read_lines) -> int:
    """Record `findings` in a new baseline file at `path`, a regular file written through no
    link the repo planted (files/writer.py); how many were recorded."""
    root = os.path.dirname(os.path.abspath(path))
    entries = [
        {
            "fingerprint": fingerprint,
            "rule": f.rule,
            "path": workspace_path(f.span.path, root),
            "line": f.span.line,
            "message": f.message,
        }
        for f, fingerprint in zip(findings, fingerprints(findings, root, lines_of), strict=True)
    ]
    entries.sort(key=lambda e: (e["path"], e["line"], e["rule"], e["fingerprint"]))
    document = {_MARK: FORMAT_VERSION, "fingerprint": KEY, "findings": entries}
    text = json.dumps(document, indent=1, ensure_ascii=True) + "\n"
    try:
        write_inside(anchor(repo, path), path, text.encode("ascii"))
    except OSError as exc:
        raise BaselineError(f"cannot write baseline {path}: {exc.strerror or exc}") from None
    return len(entries)
