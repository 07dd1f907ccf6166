"""The one way out: every string a reporter gets is already safe for the medium it writes to.

Reporters never see a raw `Finding`: the registry (`report.REPORTERS`) hands each format the
findings this module made safe for the format's `MEDIUM`, and a context whose excerpts are too.
What every medium guarantees in what is printed, whatever a linted repo names or writes:

- no control, bidi or zero-width character (shown as `\\x1b`, `\\u202e`), no undecodable byte
  of a file name (a surrogate, shown as `\\udcff`): nothing drives a terminal or reorders text;
- no workflow command for a CI runner: `##[` (`##vso[`) anywhere is `##\\[`, a leading `::` is
  `\\::` (GitHub reads `##[cmd]` anywhere on a log line: JSON's own escaping does not stop it);
- `terminal`: one line per value; `markdown`: no @mention, #123 link or autolink (`http://x`,
  `www.x`); the reporter adds the markup escaping of its table cells; `json`: values stay
  exact but for `##[` and undecodable bytes, since JSON's own escaping (`ensure_ascii`, which
  every JSON writer here uses) writes the rest as `\\u…` — the printed text holds none of it;
- links (`help_uri`) only to https:// addresses, percent-encoded, else none.

The contract test (tests/test_reporter_contract.py) runs every format of the registry, `--diff`,
`--statistics` and the job summary on one set of hostile findings and checks these properties.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from vllm_lint.model import Autofix, Edit, Finding, Related, ReleaseChoice, Span
from vllm_lint.report.escape import (
    https_url,
    inert,
    neutral,
    no_legacy_commands,
    no_mentions,
    printable,
)

if TYPE_CHECKING:
    from vllm_lint.report import ReportContext

ZERO_WIDTH_SPACE = "\u200b"
_SURROGATE = re.compile("[\ud800-\udfff]")
_AUTOLINK = re.compile(r"(?i)\b(?:(https?|ftp)(?=:)|(www)(?=\.))")


def _multiline(text: str) -> str:
    """Printable, inert, newlines kept (a SARIF value, an annotation's message)."""
    return neutral(printable(text, keep_newlines=True))


def _markdown(text: str) -> str:
    """As `_multiline`, and no mention, issue link or autolink once rendered (a zero-width
    space after `@`, `#`, `http`, `www`). Made twice, the same text."""
    text = neutral(printable(text, keep_newlines=True, keep=ZERO_WIDTH_SPACE))
    return _AUTOLINK.sub("\\1\\2" + ZERO_WIDTH_SPACE, no_mentions(text))


def _json(text: str) -> str:
    """A JSON value, exact for the programs that read it (a file name names the file): JSON's
    own escaping (`ensure_ascii`) already writes every control and bidi character as `\\u…`
    and no value can start a line; only `##[` would still be read from the log, and a lone
    surrogate (a byte of a file name that is not UTF-8) is no character at all."""
    return no_legacy_commands(_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


def _plain(text: str) -> bool:
    """Printable ASCII with nothing a runner reads as a command: safe in every medium but
    Markdown as it is (nearly every string of a run; the escaping is skipped)."""
    return text.isascii() and text.isprintable() and "##" not in text and "::" not in text


def _quick(escape: Callable[[str], str], markdown: bool = False) -> Callable[[str], str]:
    def shown(text: str) -> str:
        if _plain(text) and not (markdown and _MARKDOWN_LIVE.search(text)):
            return text
        return escape(text)

    return shown


_MARKDOWN_LIVE = re.compile(r"[@#]|https?:|ftp:|www\.", re.IGNORECASE)

MEDIA: dict[str, Callable[[str], str]] = {
    "terminal": _quick(inert),  # a terminal, or a CI log read line by line
    "log": _quick(_multiline),  # workflow commands: the reporter escapes newlines for the runner
    "json": _quick(_json),  # `--format json`: read by programs, printed to a log
    "sarif": _quick(_multiline),  # SARIF: read by people in code scanning (its URIs are exact)
    "markdown": _quick(_markdown, markdown=True),
}


def shown(text: str, medium: str) -> str:
    """One string made safe for `medium` (a name in MEDIA)."""
    return MEDIA[medium](text)


def _span(span: Span, safe: Callable[[str], str]) -> Span:
    return span._replace(path=safe(span.path))


def _release(release: ReleaseChoice | None, safe: Callable[[str], str]) -> ReleaseChoice | None:
    if release is None:
        return None
    return release._replace(version=safe(release.version), reason=safe(release.reason))


def _autofix(fix: Autofix | None, safe: Callable[[str], str]) -> Autofix | None:
    if fix is None:
        return None
    edits = tuple(
        Edit(_span(e.span, safe), safe(e.expected), safe(e.replacement), e.word) for e in fix.edits
    )
    return Autofix(safe(fix.title), edits, fix.safe)


def safe_finding(finding: Finding, medium: str) -> Finding:
    """A copy of `finding` with every string made safe for `medium`."""
    safe = MEDIA[medium]
    link = https_url(finding.help_uri) if finding.help_uri else None
    return Finding(
        rule=safe(finding.rule),
        slug=safe(finding.slug),
        severity=finding.severity,
        message=safe(finding.message),
        span=_span(finding.span, safe),
        fix=safe(finding.fix),
        related=tuple(Related(_span(r.span, safe), safe(r.note)) for r in finding.related),
        release=_release(finding.release, safe),
        help_uri=link or "",
        autofix=_autofix(finding.autofix, safe),
    )


def gated(
    findings: Sequence[Finding], context: ReportContext, medium: str
) -> tuple[list[Finding], ReportContext]:
    """The findings and a context as a reporter for `medium` may see them: safe strings, and
    a context that reads a file by the name the reporter was given (its safe form)."""
    safe = [safe_finding(f, medium) for f in findings]
    view = copy.copy(context)
    view.medium = medium
    view.sources = dict(context.sources)
    for raw, finding in zip(findings, safe, strict=True):
        original = context.sources.get(raw.span.path, raw.span.path)
        view.sources.setdefault(finding.span.path, original)
        for before, related in zip(raw.related, finding.related, strict=True):
            view.sources.setdefault(related.span.path, before.span.path)
    return safe, view


def terminal_lines(text: str) -> str:
    """A unified diff printed to a terminal or a CI log (`--diff`): each line safe. Two
    characters that do nothing there stay, so that `git apply` still takes the diff: a byte
    order mark opening a file's first line, a carriage return ending a line (CRLF files)."""
    return "\n".join(_diff_line(line) for line in text.split("\n"))


def _diff_line(line: str) -> str:
    mark, body = (line[:1], line[1:]) if line[:1] in " +-@\\" else ("", line)
    bom = "\ufeff" if mark and mark in " +-" and body.startswith("\ufeff") else ""
    body = body[len(bom) :]
    cr = "\r" if body.endswith("\r") else ""
    return mark + bom + neutral(printable(body[: len(body) - len(cr)])) + cr
