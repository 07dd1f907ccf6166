"""SARIF 2.1.0 (OASIS), as GitHub code scanning reads it; tests validate it against the schema.

Rules carry their metadata (slug as `name`, summary, the rule page as help, its URI); results
carry the primary span, the other flags of a pair as `relatedLocations`, a fingerprint
(fingerprint.py, the baseline's too) so that an alert keeps its identity when lines above it
are added or removed, and a finding's fix as `fixes`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import quote

from vllm_lint import __version__
from vllm_lint.fingerprint import KEY as FINGERPRINT_KEY
from vllm_lint.fingerprint import fingerprints
from vllm_lint.model import Autofix, Finding, Severity, Span
from vllm_lint.report.escape import https_url, printable
from vllm_lint.report.github import workspace_path, workspace_root

if TYPE_CHECKING:
    from vllm_lint.report import ReportContext

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/vllm-lint/vllm-lint"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}

MEDIUM = "sarif"  # what the gate (gate.py) makes its findings safe for


def _location(span: Span, uri: Callable[[str], str]) -> dict[str, Any]:
    physical: dict[str, Any] = {
        "artifactLocation": {
            "uri": uri(span.path),
            "uriBaseId": "%SRCROOT%",
        }
    }
    if span.line >= 1:
        end_line = max(span.end_line, span.line)
        region = {"startLine": span.line, "startColumn": max(span.col, 1), "endLine": end_line}
        region["endColumn"] = max(span.end_col, 1)
        if end_line == span.line:
            region["endColumn"] = max(region["endColumn"], region["startColumn"])
        physical["region"] = region
    return {"physicalLocation": physical}


def _fix(fix: Autofix, uri: Callable[[str], str]) -> dict[str, Any]:
    """A fix as SARIF proposes one: per file, regions replaced by text (`--fix` makes the same
    edits; an unsafe one is applied only with `--unsafe-fixes`)."""
    changes: dict[str, list[dict[str, Any]]] = {}
    for edit in fix.edits:
        region = _location(edit.span, uri)["physicalLocation"]["region"]
        region["endColumn"] = max(edit.span.end_col, 1)  # may end at column 1 of the next line
        replacement = {"deletedRegion": region, "insertedContent": {"text": edit.replacement}}
        changes.setdefault(edit.span.path, []).append(replacement)
    return {
        "description": {"text": f"{fix.title} ({fix.applicability} fix)"},
        "artifactChanges": [
            {
                "artifactLocation": _location(Span(path, 0, 0, 0, 0), uri)["physicalLocation"][
                    "artifactLocation"
                ],
                "replacements": replacements,
            }
            for path, replacements in changes.items()
        ],
        "properties": {"applicability": fix.applicability},
    }


def _rule(finding: Finding, context: ReportContext) -> dict[str, Any]:
    rule = context.rules.lookup(finding.rule)
    entry: dict[str, Any] = {"id": finding.rule, "name": finding.slug}
    if rule is None:
        entry["shortDescription"] = {"text": f"{finding.rule} {finding.slug}"}
    else:
        from vllm_lint.report.gate import shown
        from vllm_lint.rules.docs import explain
        from vllm_lint.rules.registry import BUILTIN

        summary = context.shown(rule.summary)  # a rule pack's text is the repo's
        help_text = summary + (f"\nFix: {context.shown(rule.fix)}" if rule.fix else "")
        entry["shortDescription"] = {"text": summary}
        entry["fullDescription"] = {"text": f"{summary} (vLLM {rule.releases_text()})"}
        if BUILTIN.lookup(rule.id) is rule:  # our own page, Markdown we wrote
            markdown = explain(rule, context.rules)
        else:  # a pack's: its text rendered as text, never as its own markup
            from vllm_lint.report.markdown import cell

            title = cell(shown(f"{rule.id} {rule.slug}", "markdown"))
            markdown = f"## {title}\n\n{cell(shown(help_text, 'markdown'))}"
        entry["help"] = {"text": help_text, "markdown": markdown}
    link = https_url(finding.help_uri) if finding.help_uri else None
    if link:
        entry["helpUri"] = link
    entry["defaultConfiguration"] = {"level": LEVELS[rule.severity if rule else finding.severity]}
    entry["properties"] = {"tags": ["vllm", "configuration"]}
    return entry


def _message(finding: Finding) -> str:
    return printable(_plain_message(finding), keep_newlines=True)


def _plain_message(finding: Finding) -> str:
    text = finding.message
    if finding.release is not None:
        text += f"\nChecked against vLLM {finding.release.version}: {finding.release.reason}."
    if finding.fix:
        text += f"\nFix: {finding.fix}"
    return text


def document(findings: Sequence[Finding], context: ReportContext) -> dict[str, Any]:
    workspace = context.workspace
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for finding in sorted(findings, key=lambda f: f.rule):
        if finding.rule not in index:
            index[finding.rule] = len(rules)
            rules.append(_rule(finding, context))
    results = []

    def uri(path: str) -> str:
        """The file's own name, percent-encoded from its bytes: exact, and inert in any log
        (the gate showed an undecodable or control character escaped)."""
        return quote(os.fsencode(workspace_path(context.sources.get(path, path), workspace)), "/")

    named = [
        f._replace(span=f.span._replace(path=context.sources.get(f.span.path, f.span.path)))
        for f in findings
    ]
    stable = fingerprints(named, workspace, context.lines)  # as the baseline: the file's own name
    for finding, fingerprint in zip(findings, stable, strict=True):
        result: dict[str, Any] = {
            "ruleId": finding.rule,
            "ruleIndex": index[finding.rule],
            "level": LEVELS[finding.severity],
            "message": {"text": _message(finding)},
            "locations": [_location(finding.span, uri)],
            "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        }
        if finding.related:
            result["relatedLocations"] = [
                {"id": number, **_location(r.span, uri), "message": {"text": r.note}}
                for number, r in enumerate(finding.related, start=1)
            ]
        if finding.autofix is not None:
            result["fixes"] = [_fix(finding.autofix, uri)]
        if finding.release is not None:
            result["properties"] = {"vllmRelease": finding.release.version}
        results.append(result)
    root = Path(workspace_root(workspace)).as_uri()
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "vllm-lint",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }
        },
        "originalUriBaseIds": {"%SRCROOT%": {"uri": root.rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def report(findings: Sequence[Finding], out: TextIO, context: ReportContext) -> None:
    json.dump(document(findings, context), out, indent=2, ensure_ascii=True)
    out.write("\n")


def write_file(path: str, findings: Sequence[Finding], context: ReportContext) -> None:
    import io

    from vllm_lint.files.writer import write_output
    from vllm_lint.report import REPORTERS

    handle = io.StringIO()
    REPORTERS["sarif"](findings, handle, context)  # through the gate, as on stdout
    write_output(context.root, path, handle.getvalue())  # through no link the repo planted
