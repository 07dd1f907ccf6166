"""Jupyter notebooks: each cell's source, with the place of every character in the `.ipynb`
file (a cell's lines are JSON strings: escapes are undone, positions kept).

A small iterative JSON reader is used instead of `json.loads` because the places of the
strings are needed; long strings (stored outputs, images) are skipped in C by
`json.decoder.scanstring`. Bad JSON or nesting deeper than a notebook's gives no cells.
"""

from __future__ import annotations

import re
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any, NamedTuple

from vllm_lint.files.textpos import FilePositions, MappedPositions

_MAX_DEPTH = 64
_SPACE = re.compile(r"[ \t\r\n]*")
_SCALAR = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class NotJson(Exception):
    def __init__(self, what: str, offset: int = 0) -> None:
        super().__init__(what)
        self.offset = offset


class JsonString(NamedTuple):
    """A string of the file: its value and where its opening quote is."""

    value: str
    start: int  # offset of the opening quote


class Cell:
    """One cell of a notebook (a plain class: a NamedTuple field may not be named `index`)."""

    __slots__ = ("index", "kind", "positions", "text")

    def __init__(self, kind: str, text: str, positions: MappedPositions, index: int) -> None:
        self.kind = kind  # "code", "markdown", "raw"
        self.text = text
        self.positions = positions  # offset in `text` -> (line, col) in the file
        self.index = index  # 1-based, as Jupyter numbers cells for users


class _Object:
    def __init__(self) -> None:
        self.value: dict[str, Any] = {}
        self.key: str | None = None


def parse(text: str) -> Any:
    """The JSON value of `text`, with every string as a `JsonString`."""
    stack: list[_Object | list[Any]] = []  # the open containers
    n = len(text)
    i = _skip(text, 0)
    while i < n:
        ch = text[i]
        value: Any
        if ch in "{[":
            if len(stack) >= _MAX_DEPTH:
                raise NotJson("nested too deeply", i)
            stack.append(_Object() if ch == "{" else [])
            i = _skip(text, i + 1)
            if i < n and text[i] == ("}" if ch == "{" else "]"):
                continue  # an empty container: closed below
            if isinstance(stack[-1], _Object):
                continue  # a key comes next
            continue
        if ch in "}]":
            if not stack or (ch == "}") != isinstance(stack[-1], _Object):
                raise NotJson(f"unexpected {ch!r}", i)
            top = stack.pop()
            if isinstance(top, _Object) and top.key is not None:
                raise NotJson("a key without a value", i)
            value = top.value if isinstance(top, _Object) else top
            i += 1
        elif ch == '"':
            try:
                decoded, end = scanstring(text, i + 1)
            except ValueError as exc:
                raise NotJson(str(exc), i) from None
            value = JsonString(decoded, i)
            i = end
        else:
            match = _SCALAR.match(text, i)
            if match is None:
                raise NotJson(f"unexpected {ch!r}", i)
            value = match.group(0)
            i = match.end()
        i = _skip(text, i)
        if not stack:
            if i != n:
                raise NotJson("trailing data", i)
            return value
        top = stack[-1]
        if isinstance(top, _Object):
            if top.key is None:
                if not isinstance(value, JsonString) or i >= n or text[i] != ":":
                    raise NotJson("expected a key", i)
                top.key = value.value
                i = _skip(text, i + 1)
                continue
            top.value[top.key] = value
            top.key = None
        else:
            top.append(value)
        if i < n and text[i] == ",":
            i = _skip(text, i + 1)
        elif i < n and text[i] not in "}]":
            raise NotJson("expected ','", i)
    raise NotJson("truncated", len(text))


def _skip(text: str, i: int) -> int:
    match = _SPACE.match(text, i)
    return match.end() if match else i


def _points(raw: str, start: int, positions: FilePositions) -> list[tuple[int, int]]:
    """The file place of each character of the JSON string whose quote is at `start`."""
    points = []
    i = start + 1
    while i < len(raw) and raw[i] != '"':
        at = positions.at(i)
        if raw[i] == "\\" and i + 1 < len(raw):
            if raw[i + 1] == "u":
                code = int(raw[i + 2 : i + 6], 16)
                i += 6
                if 0xD800 <= code < 0xDC00 and raw.startswith("\\u", i):
                    i += 6  # a surrogate pair is one character
                points.append(at)
                continue
            i += 2
        else:
            i += 1
        points.append(at)
    return points


def cells(path: str, text: str) -> list[Cell]:
    """The cells of a notebook (nbformat 4 `cells`, nbformat 3 `worksheets[].cells`)."""
    try:
        document = parse(text)
    except NotJson:
        return []
    if not isinstance(document, dict):
        return []
    found = document.get("cells")
    if found is None:
        sheets = document.get("worksheets")
        found = (
            [c for s in sheets if isinstance(s, dict) for c in s.get("cells", [])]
            if isinstance(sheets, list)
            else []
        )
    if not isinstance(found, list):
        return []
    positions = FilePositions(path, text)
    out = []
    for index, cell in enumerate(found, start=1):
        if not isinstance(cell, dict):
            continue
        kind = cell.get("cell_type")
        source = cell.get("source", cell.get("input"))
        parts = source if isinstance(source, list) else [source]
        strings = [p for p in parts if isinstance(p, JsonString)]
        if not isinstance(kind, JsonString) or not strings:
            continue
        points: list[tuple[int, int]] = []
        for part in strings:
            got = _points(text, part.start, positions)
            points += (
                got if len(got) == len(part.value) else [positions.at(part.start)] * len(part.value)
            )
        joined = "".join(p.value for p in strings)
        fallback = positions.at(strings[0].start)
        out.append(Cell(kind.value, joined, MappedPositions(path, points, fallback), index))
    return out
