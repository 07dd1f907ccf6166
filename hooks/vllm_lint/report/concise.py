"""One line per finding: `path:line:col: ID [severity] message`, then the summary line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from vllm_lint.model import Finding
from vllm_lint.report.text import headline, summary

if TYPE_CHECKING:
    from vllm_lint.report import ReportContext

MEDIUM = "terminal"  # what the gate (gate.py) makes its findings safe for


def report(findings: Sequence[Finding], out: TextIO, context: ReportContext) -> None:
    for finding in findings:
        out.write(headline(finding, context) + "\n")
    if not context.quiet:
        out.write(summary(findings, context) + "\n")
