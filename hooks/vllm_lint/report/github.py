"""GitHub Actions workflow commands: each finding as an annotation on the line that sets the flag.

GitHub shows at most 10 annotations of each level per step and 50 per job, so at most
`annotate_limit` findings become annotations, the most severe first. The others are listed
as plain log lines between `::stop-commands::` markers, so that no text taken from a linted
file can issue a workflow command, and every finding goes to the job summary (markdown.py).
Escaping follows `escapeData` / `escapeProperty` in actions/toolkit `packages/core/src/command.ts`.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING, TextIO

from vllm_lint.model import Finding, Severity, Span
from vllm_lint.report.escape import printable

if TYPE_CHECKING:
    from vllm_lint.report import ReportContext

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}

MEDIUM = "log"  # what the gate (gate.py) makes its findings safe for


def escape_data(text: str) -> str:
    """The message part of a workflow command (after `::`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A `key=value` property: data escaping plus the `:` and `,` that delimit properties."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workspace_root(workspace: str | None = None) -> str:
    """The folder paths are shown relative to: the given one, `$GITHUB_WORKSPACE`, else cwd."""
    return os.path.abspath(workspace or os.environ.get("GITHUB_WORKSPACE") or os.getcwd())


def workspace_path(path: str, workspace: str | None = None) -> str:
    """`path` relative to the workspace, with `/`; absolute when it lies outside the workspace."""
    root = workspace_root(workspace)
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute, root)
    except ValueError:  # another drive on Windows
        return PurePath(absolute).as_posix()
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return PurePath(absolute).as_posix()
    return PurePath(relative).as_posix()


def select(findings: Sequence[Finding], limit: int) -> list[bool]:
    """Which findings get an annotation: at most `limit`, errors first, then in file order."""
    ranked = sorted(range(len(findings)), key=lambda i: (-findings[i].severity, i))
    chosen = set(ranked[: max(0, limit)])
    return [i in chosen for i in range(len(findings))]


def _position(span: Span) -> list[tuple[str, int]]:
    if span.line < 1:
        return []  # a finding about the whole file: annotate the file, not a line
    end_line = max(span.end_line, span.line)
    props = [("line", span.line), ("col", max(span.col, 1)), ("endLine", end_line)]
    if end_line == span.line:
        props.append(("endColumn", max(span.end_col, span.col, 1)))
    return props


def _details(finding: Finding, path: str, workspace: str | None) -> str:
    span = finding.span
    lines = [f"{path}:{span.line}:{span.col}: {finding.message}"]
    for related in finding.related:
        where = related.span
        lines.append(
            f"related: {workspace_path(where.path, workspace)}:{where.line}:{where.col}: "
            f"{related.note}"
        )
    if finding.release is not None:
        lines.append(f"checked against vLLM {finding.release.version}: {finding.release.reason}")
    if finding.fix:
        lines.append(f"fix: {finding.fix}")
    # each line printable: a value's newline, control or bidi character is shown escaped
    return "\n".join(printable(line) for line in lines)


def command(finding: Finding, workspace: str | None = None) -> str:
    """One `::error file=…,line=…::message` line, escaped."""
    path = workspace_path(finding.span.path, workspace)
    # the file property stays exact (escaped as a property), or it would name another file
    props: list[tuple[str, object]] = [("file", path), *_position(finding.span)]
    props.append(("title", f"{finding.rule} {finding.slug}"))
    joined = ",".join(f"{key}={escape_property(str(value))}" for key, value in props)
    message = escape_data(_details(finding, path, workspace))
    return f"::{COMMANDS[finding.severity]} {joined}::{message}"


def _plain(finding: Finding, workspace: str | None) -> str:
    """A log line for a finding that gets no annotation: no control characters, one line."""
    span = finding.span
    text = (
        f"{workspace_path(span.path, workspace)}:{span.line}:{span.col}: {finding.rule} "
        f"[{finding.severity.label}] {finding.message}"
    )
    return printable(text)


def report(findings: Sequence[Finding], out: TextIO, context: ReportContext) -> None:
    workspace = context.workspace
    limit = context.annotate_limit
    annotate = select(findings, limit)
    for finding, chosen in zip(findings, annotate, strict=True):
        if chosen:
            out.write(command(finding, workspace) + "\n")
    rest = [f for f, chosen in zip(findings, annotate, strict=True) if not chosen]
    if rest:
        shown = len(findings) - len(rest)
        others = "the other one is" if len(rest) == 1 else f"the other {len(rest)} are"
        out.write(
            f"::notice title=vllm-lint::{shown} of {len(findings)} findings are annotated "
            f"(--annotate-limit {limit}; GitHub shows at most 10 annotations of each level per "
            f"step); {others} listed below and in the job summary.\n"
        )
        token = secrets.token_hex(16)  # nothing in the listing can guess it to resume commands
        out.write(f"::stop-commands::{token}\n")
        for finding in rest:
            out.write(_plain(finding, workspace) + "\n")
        out.write(f"::{token}::\n")
    counts = {s: sum(1 for f in findings if f.severity is s) for s in Severity}
    out.write(
        f"vllm-lint: {counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s), "
        f"{counts[Severity.INFO]} info in {context.files_checked} file(s) checked "
        f"({context.invocations} vLLM invocation(s)).\n"
    )
