"""Inline suppressions: `# vllm-lint: ignore[ID-or-slug, …] reason` in YAML, shell and
Python comments; in documentation `<!-- vllm-lint: ignore[…] reason -->` (MDX
`{/* … */}`, rst `.. vllm-lint: ignore[…] reason`).

A comment silences the listed rules on its own line and on the line below it (so it may stand
above the offending line); a documentation comment right above a code block silences the whole
block (a page that shows a failing command on purpose). A bare `# vllm-lint: ignore reason`
silences every rule there.
A suppression without a reason is itself a warning (VL950); one that silenced nothing is
reported at info level (VL951), as ruff's RUF100 does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from vllm_lint.files.reader import lines_of
from vllm_lint.model import Finding, Problem, Span, problem

_COMMENT = re.compile(
    r"(?P<open>#|<!--|\{/\*|\.\.)\s*vllm-lint:\s*ignore(?:\[(?P<ids>[^\]]*)\])?(?P<reason>[^\n]*)",
    re.IGNORECASE,
)
_CLOSE = re.compile(r"\s*(?:-->|\*/\}?).*$")
_NOTEBOOK_LINE = re.compile(r'\s*"(.*)",?\s*$')


class Suppression:
    """One inline `# vllm-lint: ignore[…] reason` comment, and whether it silenced anything."""

    __slots__ = ("last_line", "reason", "rules", "span", "used")

    def __init__(self, span: Span, rules: tuple[str, ...], reason: str, last_line: int = 0) -> None:
        self.span = span
        self.rules = rules  # empty: every rule
        self.reason = reason
        self.used = False
        self.last_line = last_line  # the last line silenced (0: the line below the comment)

    def covers(self, finding: Finding) -> bool:
        if finding.span.path != self.span.path:
            return False
        if not self.span.line <= finding.span.line <= (self.last_line or self.span.line + 1):
            return False
        return not self.rules or finding.rule in self.rules or finding.slug in self.rules


def _comment_start(line: str) -> int:
    """Where the line's comment starts (len(line) if none): a `#` at the start of the line or
    after a blank, outside quoted strings, as YAML and the shell both read it. A quote opens
    only where a value starts (after a blank, `[`, `{`, `,`, `:`, `=` or `(`): `it's` opens
    none."""
    quote = ""
    previous = " "
    k = 0
    while k < len(line):
        ch = line[k]
        if quote:
            if ch == "\\" and quote == '"':
                k += 1
            elif ch == quote:
                quote = ""
        elif ch == "#" and previous in " \t":
            return k
        elif ch in "'\"" and previous in " \t[{,:=(":
            quote = ch
        previous = ch
        k += 1
    return len(line)


def _comment(path: str, line: str) -> re.Match[str] | None:
    """The suppression comment of a line: a `#` one must start a comment (not stand inside a
    quoted string: `'--x # vllm-lint: ignore'` is a value), except in a notebook, where every
    line is a JSON string."""
    start = -1
    for match in _COMMENT.finditer(line):
        if match.group("open") != "#" or path.endswith(".ipynb"):
            return match
        if start < 0:
            start = _comment_start(line)  # once per line: linear however many markers
        if match.start() >= start:
            return match
    return None


def scan(path: str, text: str) -> list[Suppression]:
    found = []
    lines = lines_of(text)
    for number, line in enumerate(lines, start=1):
        if "vllm-lint" not in line:
            continue
        match = _comment(path, line)
        if match is None:
            continue
        ids = tuple(i.strip() for i in (match.group("ids") or "").split(",") if i.strip())
        reason = match.group("reason")
        if path.endswith(".ipynb"):  # the comment is inside a JSON string: up to its `\n"`
            reason = reason.replace("\\n", "\n").split("\n")[0].rstrip('",')
        last = 0
        if match.group("open") != "#":  # a documentation comment
            reason = _CLOSE.sub("", reason)
            last = _block_after(path, lines, number)
        reason = reason.strip(" \t-:—")
        col = match.start() + 1
        span = Span(path, number, col, number, len(line) + 1)
        found.append(Suppression(span, ids, reason, last_line=last))
    return found


def _block_after(path: str, lines: list[str], number: int) -> int:
    """The last line of the code block that starts on the next line that is not blank (0:
    none does). In a notebook, each line is read as the JSON string it holds."""
    from vllm_lint.read.fences import markdown_blocks, rst_blocks

    notebook = path.endswith(".ipynb")

    def shown(line: str) -> str:
        match = _NOTEBOOK_LINE.match(line) if notebook else None
        return match.group(1).replace("\\n", "").replace('\\"', '"') if match else line

    start = number  # 0-based index of the line after the comment
    while start < len(lines) and not shown(lines[start]).strip():
        start += 1
    rest = "\n".join(shown(line) for line in lines[start : start + 2000])
    blocks = rst_blocks(rest) if path.endswith(".rst") else markdown_blocks(rest)
    block = next(blocks, None)
    if block is None or block.line != 0:
        return 0
    return start + block.end_line + 1


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
    by_line: dict[tuple[str, int], list[Suppression]] = {}  # a look-up per finding, not a scan
    for suppression in suppressions:
        first = suppression.span.line
        last = suppression.last_line or first + 1
        for line in range(first, last + 1):  # the blocks of documentation comments are disjoint
            by_line.setdefault((suppression.span.path, line), []).append(suppression)
    kept = []
    for finding in findings:
        near = by_line.get((finding.span.path, finding.span.line), [])
        covering = [s for s in near if s.covers(finding)]
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
