"""Map offsets inside a string back to line and column in the file it came from."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import Protocol

from vllm_lint.model import Span


class Positions(Protocol):
    """Where character `i` of some string stands in its file (1-based line and column)."""

    path: str

    def at(self, index: int) -> tuple[int, int]: ...


def span_of(positions: Positions, start: int, end: int) -> Span:
    """The span of characters start..end (end exclusive) of a string."""
    line, col = positions.at(start)
    end_line, end_col = positions.at(max(start, end - 1))
    return Span(positions.path, line, col, end_line, end_col + 1)


class FilePositions:
    """Offsets into a whole file's text."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self._text = text
        starts = self._starts = [0]
        at = text.find("\n")
        while at >= 0:  # str.find runs in C: far faster than a loop over every character
            starts.append(at + 1)
            at = text.find("\n", at + 1)

    def at(self, index: int) -> tuple[int, int]:
        row = bisect_right(self._starts, index) - 1
        return row + 1, index - self._starts[row] + 1

    def line_length(self, line: int) -> int:
        """Characters on a 1-based line, its `\\n` (and a `\\r` before it) not counted."""
        start = self._starts[line - 1]
        end = self._starts[line] - 1 if line < len(self._starts) else len(self._text)
        if end > start and self._text[end - 1] == "\r":
            end -= 1
        return end - start

    def offset(self, line: int, col: int) -> int:
        """Inverse of `at` for 0-based line and column, as YAML parsers report them."""
        if line >= len(self._starts):
            return self._starts[-1]
        return self._starts[line] + col


class MappedPositions:
    """Offsets into a string whose characters were each located in the file."""

    def __init__(self, path: str, points: Sequence[tuple[int, int]], fallback: tuple[int, int]):
        self.path = path
        self._points = points
        self._fallback = fallback

    def at(self, index: int) -> tuple[int, int]:
        if 0 <= index < len(self._points):
            return self._points[index]
        return self._points[-1] if self._points else self._fallback


class ShiftedPositions:
    """Offsets into a substring that starts at `base` of another mapped string."""

    def __init__(self, inner: Positions, base: int) -> None:
        self.path = inner.path
        self._inner = inner
        self._base = base

    def at(self, index: int) -> tuple[int, int]:
        return self._inner.at(self._base + index)


_SKIPPABLE = " \t\r\n\"'\\"
_MAX_GAP = 400


_RUN_OF_BLANKS = re.compile(r"[ \t]{2}")


def _verbatim(value: str, text: str, pos: int) -> bool:
    """Whether the greedy match below would place the value's characters one after another
    from `pos`: the value stands there as written, on one line, with no run of blanks (a
    blank does not advance the match, so the second of two would take the first's place)."""
    return (
        bool(value)
        and text.startswith(value, pos)
        and "\n" not in value
        and _RUN_OF_BLANKS.search(value) is None
    )


def align_scalar(
    value: str, text: str, start: int, file_positions: FilePositions, block: bool
) -> MappedPositions:
    """Locate each character of a YAML scalar's value in the file's text.

    YAML may fold lines, strip indentation, and unescape quotes, so the value is matched
    against the source greedily: each visible character is searched forward from the
    previous match, skipping only whitespace, quotes and backslashes. Spaces of the value
    take the position of the next source character.
    """
    pos = start
    if block:  # skip the `|` / `>-` header line
        newline = text.find("\n", start)
        pos = len(text) if newline < 0 else newline + 1
    elif _verbatim(value, text, pos):  # most scalars: one line, as written
        line, col = file_positions.at(pos)
        row = [(line, col + i) for i in range(len(value))]
        return MappedPositions(file_positions.path, row, file_positions.at(start))
    limit = len(text)
    points: list[tuple[int, int]] = []
    for ch in value:
        if ch in " \t\n":
            points.append(file_positions.at(min(pos, limit - 1 if limit else 0)))
            continue
        probe = pos
        while probe < limit and probe - pos < _MAX_GAP and text[probe] != ch:
            if text[probe] not in _SKIPPABLE:
                break
            probe += 1
        if probe < limit and text[probe] == ch:
            pos = probe
        points.append(file_positions.at(min(pos, max(limit - 1, 0))))
        pos += 1
    return MappedPositions(file_positions.path, points, file_positions.at(start))
