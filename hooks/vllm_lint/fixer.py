"""`--fix` and `--diff`: the edits findings carry, applied to the file's own text.

A finding's `Autofix` is made where its problem is found (argv/fixes.py for flags) as edits:
the text expected at a span and its replacement, or an argv word to delete. Any stage may give
its `Problem` one (a reader could offer the exec form of a shell-form Dockerfile CMD as one
edit over the instruction's arguments); nothing else is needed for `--fix` to apply it. Here,
and only here, the edits meet the file's text:

- `vet` keeps an edit only where the text it expects stands exactly at its span, and turns the
  deletion of a whole word into the exact range to delete (its quotes and one separator, or
  its whole line: a YAML list item, a shell continuation line). What cannot be located
  exactly is not fixed, and the finding's hint says so.
- `fix_file` applies non-overlapping fixes to the text (never re-serialised: everything outside
  the edits stays byte for byte), lints the result again, and repeats until no fix applies, so
  that a second `--fix` changes nothing. A pass that would make the file unreadable (a YAML
  syntax error) is not kept.
"""

from __future__ import annotations

import codecs
import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from typing import NamedTuple

from vllm_lint.files.textpos import FilePositions
from vllm_lint.model import Autofix, Edit, Finding, Span

MAX_PASSES = 10  # each pass fixes something, and a fix never brings back what it fixed
_UNREADABLE = ("VL901", "VL902", "VL920")  # syntax error, unreadable, duplicate key
_QUOTES = "\"'"
# what may stand between the words of one flag: blanks, a flow sequence's comma, a shell
# continuation, a new YAML list item
_GAP = re.compile(r"[ \t,]*(?:\\?\r?\n[ \t]*(?:-[ \t]+)?[ \t,]*)*")
_LINE_HEAD = re.compile(r"[ \t]*(?:-[ \t]+)?")  # indentation, a YAML list item's dash
_LINE_TAIL = re.compile(r"[ \t]*,?[ \t]*(?:#.*)?|[ \t]*\\")
_AFTER_WORD = re.compile(r"[ \t]*,[ \t]*|[ \t]+(?=[^ \t\r\n\\\"'\]}#])")
_BEFORE_WORD = re.compile(r"(?:[ \t]*(?:,|\\(?=[ \t]*\r?\n)))?[ \t]*(?:\r?\n[ \t]*)?$")


class _Range(NamedTuple):
    start: int
    end: int
    replacement: str


def _range(edit: Edit, text: str, positions: FilePositions) -> _Range | None:
    """Where an edit's expected text stands, exactly; None when it does not stand there."""
    span = edit.span
    if span.line < 1 or span.col < 1:
        return None
    start = positions.offset(span.line - 1, span.col - 1)
    end = positions.offset(span.end_line - 1, span.end_col - 1)
    if end < start or text[start:end] != edit.expected:
        return None
    return _Range(start, end, edit.replacement)


def _word(start: int, end: int, text: str) -> tuple[int, int]:
    """A word with the quotes around it, when it is quoted on its own."""
    quoted = start > 0 and end < len(text) and text[start - 1] in _QUOTES
    if quoted and text[end] == text[start - 1]:
        return start - 1, end + 1
    return start, end


def _deletion(words: Sequence[_Range], text: str) -> _Range | None:
    """The range that deletes consecutive words and the separator they leave behind."""
    spans = [_word(w.start, w.end, text) for w in words]
    for (_s, end), (start, _e) in pairwise(spans):
        if start < end or not _GAP.fullmatch(text, end, start):
            return None  # something else stands between the words
    start, end = spans[0][0], spans[-1][1]
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    tail = text[end:line_end].rstrip("\r")
    last_in_flow = "," not in tail.partition("#")[0] and text[:line_start].rstrip().endswith(",")
    if (
        _LINE_HEAD.fullmatch(text, line_start, start)
        and _LINE_TAIL.fullmatch(tail)
        and not last_in_flow  # `"--a",` above and `]` below: its comma must go too (inline)
    ):
        if not tail.rstrip().endswith("\\"):
            previous = text[:line_start].rstrip("\r\n")
            if previous.rstrip(" \t").endswith("\\") and line_start > 0:
                # the line before continues onto this one: its `\` goes with it
                cut = len(previous.rstrip(" \t")) - 1
                cut = len(previous[:cut].rstrip(" \t"))
                return _Range(cut, line_end, "")
        if line_end < len(text):
            return _Range(line_start, line_end + 1, "")
        return _Range(max(line_start - 1, 0), line_end, "")  # the last line: its newline
    after = _AFTER_WORD.match(text, end)
    if after is not None and after.end() > end:
        return _Range(start, after.end(), "")
    window = max(0, start - 200)  # a separator is short: no search from the file's start
    before = _BEFORE_WORD.search(text, window, start)
    if before is not None and before.start() < start:
        return _Range(before.start(), end, "")
    return None  # the words are all there is: deleting them would leave nothing


def locate(fix: Autofix, path: str, text: str, positions: FilePositions) -> list[_Range] | None:
    """The exact ranges of a fix's edits in `text`, in order; None when one cannot be found
    exactly, lies in another file, or two of them overlap."""
    ranges: list[_Range] = []
    words: list[_Range] = []
    for edit in fix.edits:
        if edit.span.path != path:
            return None
        found = _range(edit, text, positions)
        if found is None:
            return None
        if edit.word:
            words.append(found)
        else:
            ranges.append(found)
    if words:
        deleted = _deletion(sorted(words, key=lambda r: r.start), text)
        if deleted is None:
            return None
        ranges.append(deleted)
    ranges.sort(key=lambda r: r.start)
    if any(b.start < a.end for a, b in pairwise(ranges)):
        return None
    return ranges


def _concrete(fix: Autofix, path: str, ranges: Sequence[_Range], text: str) -> Autofix:
    """The fix as the exact edits `locate` found (what reporters show and `apply` makes)."""
    positions = FilePositions(path, text)
    edits = []
    for r in ranges:
        line, col = positions.at(r.start)
        end_line, end_col = positions.at(r.end)
        span = Span(path, line, col, end_line, end_col)
        edits.append(Edit(span, text[r.start : r.end], r.replacement))
    return fix._replace(edits=tuple(edits))


NOT_LOCATED = "no automatic fix: the flag is not written verbatim here"


def vet(findings: Iterable[Finding], path: str, text: str) -> list[Finding]:
    """The findings of one file with each fix located exactly in its text, or dropped (and
    the hint saying so)."""
    positions: FilePositions | None = None
    vetted = []
    for finding in findings:
        fix = finding.autofix
        if fix is not None:
            positions = positions or FilePositions(path, text)
            ranges = locate(fix, path, text, positions)
            if ranges is None:
                hint = f"{finding.fix} ({NOT_LOCATED})" if finding.fix else NOT_LOCATED
                finding = finding._replace(autofix=None, fix=hint)
            else:
                finding = finding._replace(autofix=_concrete(fix, path, ranges, text))
        vetted.append(finding)
    return vetted


def wanted(finding: Finding, unsafe: bool) -> Autofix | None:
    fix = finding.autofix
    return fix if fix is not None and (fix.safe or unsafe) else None


def apply(text: str, path: str, fixes: Iterable[Autofix]) -> tuple[str, int]:
    """`text` with every fix that overlaps none applied before it (identical ones once: a
    flag two launches share); how many findings that fixed."""
    positions = FilePositions(path, text)
    findings: dict[tuple[Edit, ...], int] = {}  # a fix's edits -> the findings it fixes
    for fix in fixes:
        findings[fix.edits] = findings.get(fix.edits, 0) + 1
    located = []
    for edits, count in findings.items():
        ranges = locate(Autofix("", edits), path, text, positions)
        if ranges:
            located.append((ranges, count))
    chosen: list[_Range] = []
    fixed = 0
    for ranges, count in sorted(located, key=lambda item: item[0][0].start):
        if all(r.end <= c.start or r.start >= c.end for r in ranges for c in chosen):
            chosen.extend(ranges)
            fixed += count
    out = []
    at = 0
    for r in sorted(chosen, key=lambda r: r.start):
        out.append(text[at : r.start])
        out.append(r.replacement)
        at = r.end
    out.append(text[at:])
    return "".join(out), fixed


class FileFix:
    """What fixing one file did."""

    __slots__ = ("after", "before", "fixed", "path", "reverted")

    def __init__(self, path: str, before: bytes, after: bytes) -> None:
        self.path = path
        self.before = before
        self.after = after
        self.fixed = 0  # findings fixed
        self.reverted = ""  # why the fixes were not kept, if they were not


Relint = Callable[[str, bytes], list[Finding]]


def _encoding(data: bytes) -> tuple[str, bytes] | None:
    """The text of a file as the linter read it, and its BOM; None for UTF-16/32 files."""
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return None
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    try:
        return data[len(bom) :].decode("utf-8"), bom
    except UnicodeDecodeError:
        return None


def fix_file(
    path: str, data: bytes, findings: list[Finding], relint: Relint, unsafe: bool
) -> FileFix:
    """Apply the fixes of `findings` (this file's, as reported) and lint again, until no fix
    applies; `relint` lints bytes as this file would be."""
    result = FileFix(path, data, data)
    decoded = _encoding(data)
    if decoded is None:
        return result
    text, bom = decoded
    unreadable = {f.rule for f in findings if f.rule in _UNREADABLE}
    for _ in range(MAX_PASSES):
        fixes = [fix for f in findings if f.span.path == path and (fix := wanted(f, unsafe))]
        if not fixes:
            break
        new_text, count = apply(text, path, fixes)
        if new_text == text:
            break
        after = bom + new_text.encode("utf-8")
        findings = relint(path, after)
        broken = {f.rule for f in findings if f.rule in _UNREADABLE} - unreadable
        if broken:
            result.reverted = f"a fix would make it unreadable ({', '.join(sorted(broken))})"
            break
        text, result.after, result.fixed = new_text, after, result.fixed + count
    return result


def _lines(text: str) -> list[str]:
    """Lines as git and `patch` see them: ended by `\n` only (not `str.splitlines`' \f, \u2028)."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def diff(fixed: Sequence[FileFix]) -> str:
    """A unified diff of every changed file (`a/` and `b/` prefixes, as git shows them)."""
    chunks = []
    for item in fixed:
        if item.after == item.before:
            continue
        before = _lines(item.before.decode("utf-8", errors="replace"))
        after = _lines(item.after.decode("utf-8", errors="replace"))
        lines = difflib.unified_diff(before, after, f"a/{item.path}", f"b/{item.path}")
        for line in lines:
            if not line.endswith("\n"):
                line += "\n\\ No newline at end of file\n"
            chunks.append(line)
    return "".join(chunks)
