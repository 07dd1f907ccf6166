"""A Markdown findings table: the job summary (`$GITHUB_STEP_SUMMARY`), or `--format markdown`.

Every finding is listed (annotations are capped, the summary is not), up to GitHub's 1 MiB
limit for one step's summary. Text from linted files is escaped so it renders as text.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO
from urllib.parse import quote

from vllm_lint.model import Finding, Severity
from vllm_lint.report.escape import https_url
from vllm_lint.report.github import select, workspace_path, workspace_root

if TYPE_CHECKING:
    from vllm_lint.report import ReportContext

# GitHub rejects a step summary over 1 MiB; leave room for the header and the closing note.
MAX_BYTES = 1024 * 1024 - 16 * 1024
_ICONS = {
    Severity.ERROR: ":x:",
    Severity.WARNING: ":warning:",
    Severity.INFO: ":information_source:",
}
_MARKUP = re.compile(r"([\\`*_\[\]|~])")

MEDIUM = "markdown"  # what the gate (gate.py) makes its findings safe for


def cell(text: str) -> str:
    """Text from a linted file inside a table cell: no HTML, no Markdown, no row breaks, no
    control or bidi characters, no @mention or #123 issue link."""
    from vllm_lint.report.gate import shown  # idempotent: text the gate made safe stays

    safe = shown(text.replace("\r\n", "\n").replace("\r", "\n"), MEDIUM)
    escaped = _MARKUP.sub(r"\\\1", html.escape(safe, quote=False))
    return escaped.replace("\n", "<br>")


def _blob_base(workspace: str) -> str | None:
    """Links to lines work when the workspace is the checkout of the repository being built."""
    server, repo, sha = (
        os.environ.get(k, "") for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA")
    )
    if not (server and repo and sha) or not (Path(workspace) / ".git").exists():
        return None
    return f"{server}/{repo}/blob/{sha}/"


def _place(path: str, line: int, col: int, base: str | None) -> str:
    label = cell(f"{path}:{line}:{col}")
    if base is None or path.startswith("/") or line < 1:
        return label
    return f"[{label}]({base}{quote(path)}#L{line})"


def _row(finding: Finding, workspace: str, base: str | None) -> str:
    span = finding.span
    path = workspace_path(span.path, workspace)
    rule = cell(f"{finding.rule} {finding.slug}")
    link = https_url(finding.help_uri) if finding.help_uri else None
    if link:  # a rule pack's `url` is not trusted: https only, nothing that ends the link
        rule = f"[{rule}]({link})"
    notes = [cell(finding.message)]
    for related in finding.related:
        where = related.span
        place = _place(workspace_path(where.path, workspace), where.line, where.col, base)
        notes.append(f"related: {place} {cell(related.note)}")
    if finding.release is not None:
        notes.append(cell(f"vLLM {finding.release.version}: {finding.release.reason}"))
    if finding.fix:
        notes.append(f"**fix:** {cell(finding.fix)}")
    severity = f"{_ICONS[finding.severity]} {finding.severity.label}"
    place = _place(path, span.line, span.col, base)
    return f"| {severity} | {rule} | {place} | {'<br>'.join(notes)} |"


def _headline(findings: Sequence[Finding], context: ReportContext) -> str:
    counts = {s: sum(1 for f in findings if f.severity is s) for s in Severity}
    return (
        f"**{counts[Severity.ERROR]} error(s)**, {counts[Severity.WARNING]} warning(s), "
        f"{counts[Severity.INFO]} info in {context.files_checked} file(s) checked "
        f"({context.invocations} vLLM invocation(s))."
    )


def render(findings: Sequence[Finding], context: ReportContext, annotations: bool = False) -> str:
    """The whole summary; `annotations` adds a note when the annotation cap hid some findings."""
    workspace = workspace_root(context.workspace)
    base = _blob_base(workspace)
    parts = ["## vllm-lint", "", _headline(findings, context), ""]
    if not findings:
        return "\n".join(parts)
    annotated = sum(select(findings, context.annotate_limit))
    if annotations and annotated < len(findings):
        parts += [
            f"{annotated} of {len(findings)} findings are annotated on their lines (errors "
            "first; GitHub shows at most 10 annotations of each level per step). All are below.",
            "",
        ]
    parts += ["| severity | rule | where | finding |", "|---|---|---|---|"]
    size = sum(len(p.encode()) + 1 for p in parts)
    for index, finding in enumerate(findings):
        row = _row(finding, workspace, base)
        size += len(row.encode()) + 1
        if size > MAX_BYTES:
            left = len(findings) - index
            parts += ["", f"{left} more finding(s) not shown: a step summary holds at most 1 MiB."]
            break
        parts.append(row)
    return "\n".join(parts) + "\n"


def append_summary(
    path: str, findings: Sequence[Finding], context: ReportContext, annotations: bool
) -> None:
    """Append, as GitHub expects: what other steps wrote to the same file stays."""
    from vllm_lint.report.gate import gated

    safe, view = gated(findings, context, MEDIUM)  # the one way out, as REPORTERS' formats
    from vllm_lint.files.writer import write_output

    write_output(context.root, path, render(safe, view, annotations), append=True)


def report(findings: Sequence[Finding], out: TextIO, context: ReportContext) -> None:
    out.write(render(findings, context))
