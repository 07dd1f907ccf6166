"""SARIF 2.1.0 (OASIS), as GitHub code scanning reads it; tests validate it against the schema.

Rules carry their metadata (slug as `name`, summary, the rule page as help, its URI); results
carry the primary span, the other flags of a pair as `relatedLocations`, and a fingerprint
built from the rule, the path and the text of the offending lines, so that an alert keeps its
identity when lines above it are added or removed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import quote

from vllm_lint import __version__
from vllm_lint.model import Finding, Severity, Span
from vllm_lint.report.github import workspace_path, workspace_root

if TYPE_CHECKING:
    from vllm_lint.report import ReportContext

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/vllm-lint/vllm-lint"
FINGERPRINT_KEY = "vllmLint/v1"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _read_lines(path: str) -> tuple[str, ...]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return tuple(handle.read().splitlines())
    except OSError:
        return ()


def _source_text(span: Span, files: dict[str, tuple[str, ...]]) -> str:
    """The offending lines, stripped: what stays the same when the file shifts around them."""
    if span.path not in files:
        files[span.path] = _read_lines(span.path)  # read once per report, never cached longer
    lines = files[span.path]
    if not lines or span.line < 1:
        return ""
    chosen = lines[span.line - 1 : max(span.end_line, span.line)]
    return "\n".join(line.strip() for line in chosen)


def fingerprints(findings: Sequence[Finding], workspace: str | None = None) -> list[str]:
    """One stable id per finding; identical lines in one file are told apart by their order."""
    files: dict[str, tuple[str, ...]] = {}
    seen: dict[str, int] = {}
    result = []
    for finding in findings:
        path = workspace_path(finding.span.path, workspace)
        key = "\0".join((finding.rule, path, _source_text(finding.span, files)))
        ordinal = seen.get(key, 0)
        seen[key] = ordinal + 1
        result.append(hashlib.sha256(f"{key}\0{ordinal}".encode()).hexdigest())
    return result


def _location(span: Span, workspace: str | None) -> dict[str, Any]:
    physical: dict[str, Any] = {
        "artifactLocation": {
            "uri": quote(workspace_path(span.path, workspace), safe="/"),
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


def _rule(finding: Finding, context: ReportContext) -> dict[str, Any]:
    rule = context.rules.lookup(finding.rule)
    entry: dict[str, Any] = {"id": finding.rule, "name": finding.slug}
    if rule is None:
        entry["shortDescription"] = {"text": f"{finding.rule} {finding.slug}"}
    else:
        from vllm_lint.rules.docs import explain

        help_text = rule.summary + (f"\nFix: {rule.fix}" if rule.fix else "")
        entry["shortDescription"] = {"text": rule.summary}
        entry["fullDescription"] = {"text": f"{rule.summary} (vLLM {rule.releases_text()})"}
        entry["help"] = {"text": help_text, "markdown": explain(rule, context.rules)}
    if finding.help_uri:
        entry["helpUri"] = finding.help_uri
    entry["defaultConfiguration"] = {"level": LEVELS[rule.severity if rule else finding.severity]}
    entry["properties"] = {"tags": ["vllm", "configuration"]}
    return entry


def _message(finding: Finding) -> str:
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
    for finding, fingerprint in zip(findings, fingerprints(findings, workspace), strict=True):
        result: dict[str, Any] = {
            "ruleId": finding.rule,
            "ruleIndex": index[finding.rule],
            "level": LEVELS[finding.severity],
            "message": {"text": _message(finding)},
            "locations": [_location(finding.span, workspace)],
            "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        }
        if finding.related:
            result["relatedLocations"] = [
                {"id": number, **_location(r.span, workspace), "message": {"text": r.note}}
                for number, r in enumerate(finding.related, start=1)
            ]
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
    with open(path, "w", encoding="utf-8") as handle:
        report(findings, handle, context)
