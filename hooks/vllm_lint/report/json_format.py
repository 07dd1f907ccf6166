"""Versioned JSON: `{"version": 1, "findings": [...]}` (the shape is documented in README)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from vllm_lint.model import Autofix, Finding

if TYPE_CHECKING:
    from vllm_lint.report import ReportContext

FORMAT_VERSION = 1

MEDIUM = "json"  # what the gate (gate.py) makes its findings safe for


def finding_dict(finding: Finding) -> dict[str, Any]:
    span = finding.span
    return {
        "path": span.path,
        "line": span.line,
        "col": span.col,
        "end_line": span.end_line,
        "end_col": span.end_col,
        "rule": finding.rule,
        "slug": finding.slug,
        "severity": finding.severity.label,
        "message": finding.message,
        "fix": finding.fix,
        "related": [
            {"path": r.span.path, "line": r.span.line, "col": r.span.col, "note": r.note}
            for r in finding.related
        ],
        "release": (
            {
                "version": finding.release.version,
                "reason": finding.release.reason,
                "guessed": finding.release.guessed,
            }
            if finding.release
            else None
        ),
        "help_uri": finding.help_uri,
        "autofix": _autofix(finding.autofix),
    }


def _autofix(fix: Autofix | None) -> dict[str, Any] | None:
    if fix is None:
        return None
    return {
        "title": fix.title,
        "applicability": fix.applicability,
        "edits": [
            {
                "path": e.span.path,
                "line": e.span.line,
                "col": e.span.col,
                "end_line": e.span.end_line,
                "end_col": e.span.end_col,
                "content": e.replacement,
            }
            for e in fix.edits
        ],
    }


def report(findings: Sequence[Finding], out: TextIO, context: ReportContext) -> None:
    document = {
        "version": FORMAT_VERSION,
        "files_checked": context.files_checked,
        "invocations": context.invocations,
        "fixed": context.fixed,
        "findings": [finding_dict(f) for f in findings],
    }
    json.dump(document, out, indent=2, ensure_ascii=True)
    out.write("\n")
