"""`path:line:col: ID [severity] message`, the offending line, then related places and the fix."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, TextIO

from vllm_lint.model import Finding, Severity
from vllm_lint.report import all_clean
from vllm_lint.report.escape import inert

if TYPE_CHECKING:
    from vllm_lint.report import ReportContext

_COLORS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_RESET = "\033[0m"

MEDIUM = "terminal"  # what the gate (gate.py) makes its findings safe for


def _printable(text: str) -> str:
    """Text from a linted file: no control or bidi character reaches the terminal, and no CI
    log reads it as a command (`::cmd::`, `##[cmd]`)."""
    return inert(text)


_WIDTH = 160


def _window(line: str, col: int) -> tuple[str, int]:
    """At most _WIDTH characters of a long source line around `col`, and how far it shifted."""
    if len(line) <= _WIDTH:
        return line, 0
    start = max(0, min(col - 1 - _WIDTH // 4, len(line) - _WIDTH))
    clipped = line[start : start + _WIDTH]
    prefix = "…" if start else ""
    suffix = "…" if start + _WIDTH < len(line) else ""
    return prefix + clipped + suffix, start - len(prefix)


def headline(finding: Finding, context: ReportContext) -> str:
    """`path:line:col: ID [severity] message`."""
    span = finding.span
    severity = finding.severity.label
    if context.color:
        severity = f"{_COLORS[finding.severity]}{severity}{_RESET}"
    mark = "[*] " if context.fixable(finding) else ""  # --fix fixes it, as ruff marks them
    return (
        f"{_printable(span.path)}:{span.line}:{span.col}: {finding.rule} [{severity}] "
        f"{mark}{_printable(finding.message)}"
    )


def report(findings: Sequence[Finding], out: TextIO, context: ReportContext) -> None:
    lines_of = lru_cache(maxsize=64)(context.excerpt)  # per report: files change between runs
    for finding in findings:
        span = finding.span
        out.write(headline(finding, context) + "\n")
        lines = lines_of(span.path)
        if 0 < span.line <= len(lines):
            source, shift = _window(lines[span.line - 1], span.col)
            span = span._replace(col=span.col - shift, end_col=span.end_col - shift)
            width = (
                span.end_col - span.col
                if span.end_line == span.line
                else len(source) - span.col + 1
            )
            out.write(f"  {span.line:>5} | {source}\n")
            width = min(width, len(source) - span.col + 1)
            out.write(f"        | {' ' * (span.col - 1)}{'^' * max(1, width)}\n")
        for related in finding.related:
            where = related.span
            place = f"{_printable(where.path)}:{where.line}:{where.col}"
            out.write(f"        = related: {place}: {_printable(related.note)}\n")
        if finding.release is not None:
            out.write(
                f"        = vLLM {finding.release.version}: {_printable(finding.release.reason)}\n"
            )
        if finding.fix:
            out.write(f"        = fix: {_printable(finding.fix)}\n")
        if finding.autofix is not None:  # what --fix writes, unless the hint says it already
            fix = finding.autofix
            if not finding.fix.startswith(fix.title):
                out.write(f"        = autofix ({fix.applicability}): {_printable(fix.title)}\n")
            elif not fix.safe:
                out.write("        = autofix (unsafe): needs --unsafe-fixes\n")
    if not context.quiet:
        out.write(summary(findings, context) + "\n")


def summary(findings: Sequence[Finding], context: ReportContext) -> str:
    """The last lines: what `--fix` fixed; what was found, in how many files and launches;
    how many findings `--fix` would fix (ruff's "[*] N fixable")."""
    counts = {s: sum(1 for f in findings if f.severity is s) for s in Severity}
    lines = [f"Fixed {context.fixed} finding(s)."] if context.fixed else []
    if findings:
        lines.append(
            f"Found {counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s), "
            f"{counts[Severity.INFO]} info in {context.files_checked} file(s) checked "
            f"({context.invocations} vLLM invocation(s))."
        )
    else:
        lines.append(all_clean(context.files_checked, context.invocations))
    fixes = context.fix_summary(findings)
    return "\n".join(lines + ([f"{fixes}."] if fixes else []))
