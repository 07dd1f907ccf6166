"""Inline suppressions: `# vllm-lint: ignore[ID-or-slug, …] reason` in YAML and shell comments.

A comment silences the listed rules on its own line and on the line below it (so it may stand
above the offending line). A bare `# vllm-lint: ignore reason` silences every rule there.
A suppression without a reason is itself a warning (VL950); one that silenced nothing is
reported at info level (VL951), as ruff's RUF100 does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from vllm_lint.model import Finding, Problem, Span, problem

_COMMENT = re.compile(
    r"#\s*vllm-lint:\s*ignore(?:\[(?P<ids>[^\]]*)\])?(?P<reason>[^\n]*)", re.IGNORECASE
)


@dataclass
class Suppression:
    span: Span
    rules: tuple[str, ...]  # empty: every rule
    reason: str
    used: bool = False

    def covers(self, finding: Finding) -> bool:
        if finding.span.path != self.span.path:
            return False
        if finding.span.line not in (self.span.line, self.span.line + 1):
            return False
        return not self.rules or finding.rule in self.rules or finding.slug in self.rules


def scan(path: str, text: str) -> list[Suppression]:
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if "vllm-lint" not in line:
            continue
        match = _COMMENT.search(line)
        if match is None:
            continue
        ids = tuple(i.strip() for i in (match.group("ids") or "").split(",") if i.strip())
        reason = match.group("reason").strip(" \t-:—")
        col = match.start() + 1
        found.append(Suppression(Span(path, number, col, number, len(line) + 1), ids, reason))
    return found


def apply(
    findings: Sequence[Finding],
    scanned: Mapping[str, Sequence[Suppression]],
    read: Callable[[str], str | None],
) -> tuple[list[Finding], list[Problem]]:
    """The findings no suppression covers, and the problems of the suppressions themselves.

    `scanned` holds the suppressions of the linted files (found while they were read); a
    finding that points into another file (a `--config` file) has that file read with `read`.
    """
    suppressions: list[Suppression] = [s for found in scanned.values() for s in found]
    for path in dict.fromkeys(f.span.path for f in findings):
        if path not in scanned:
            text = read(path)
            if text is not None and "vllm-lint" in text:
                suppressions.extend(scan(path, text))
    if not suppressions:
        return list(findings), []
    kept = []
    for finding in findings:
        covering = [s for s in suppressions if s.covers(finding)]
        for suppression in covering:
            suppression.used = True
        if not covering:
            kept.append(finding)
    problems = []
    for suppression in suppressions:
        listed = ", ".join(suppression.rules) or "every rule"
        if not suppression.reason:
            problems.append(problem("VL950", suppression.span, rules=listed))
        if not suppression.used:
            problems.append(problem("VL951", suppression.span, rules=listed))
    return kept, problems
