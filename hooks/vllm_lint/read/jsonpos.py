"""Where each key of a JSON text stands in it: the offsets of every object member's key and
value, by its dotted path (`{"a": {"b": 1}}` -> `a`, `a.b`). `json.loads` keeps no positions,
and a finding on a key inside a flag's JSON value points at that key (issue 26)."""

from __future__ import annotations

import json
from typing import NamedTuple


class Member(NamedTuple):
    """One object member: its dotted path, its key's name (between the quotes) and its value,
    as offsets into the JSON text (end exclusive)."""

    path: str
    key_start: int
    key_end: int
    value_start: int
    value_end: int


class _Stop(Exception):
    """The text is not JSON this scanner reads (json.loads says why, elsewhere)."""


_BLANKS = " \t\r\n"
_MAX_MEMBERS = 512  # a finding needs a handful; a huge value keeps its flag's span
_MAX_DEPTH = 64


def members(text: str) -> list[Member]:
    """Every member of the objects of `text`, outermost first; [] when `text` is not a JSON
    object this scanner reads whole (then findings keep the flag's span)."""
    found: list[Member] = []
    try:
        end = _value(text, _skip(text, 0), "", found, 0)
    except (_Stop, IndexError):
        return []
    if _skip(text, end) != len(text) or not text.lstrip().startswith("{"):
        return []
    return found


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _BLANKS:
        i += 1
    return i


def _value(text: str, i: int, path: str, found: list[Member], depth: int) -> int:
    """Scan the value at `i`; return the offset just after it."""
    if depth > _MAX_DEPTH or len(found) > _MAX_MEMBERS:
        raise _Stop
    ch = text[i]
    if ch == "{":
        return _object(text, i, path, found, depth)
    if ch == "[":
        i = _skip(text, i + 1)
        if text[i] == "]":
            return i + 1
        while True:
            i = _skip(text, _value(text, i, path, [], depth + 1))  # no paths inside lists
            if text[i] == "]":
                return i + 1
            if text[i] != ",":
                raise _Stop
            i = _skip(text, i + 1)
    if ch == '"':
        return _string(text, i)
    end = i
    while end < len(text) and text[end] not in _BLANKS + ",]}":
        end += 1
    if end == i:
        raise _Stop
    return end


def _object(text: str, i: int, path: str, found: list[Member], depth: int) -> int:
    i = _skip(text, i + 1)
    if text[i] == "}":
        return i + 1
    while True:
        if text[i] != '"':
            raise _Stop
        key_end = _string(text, i)
        key = json.loads(text[i:key_end])
        colon = _skip(text, key_end)
        if text[colon] != ":":
            raise _Stop
        start = _skip(text, colon + 1)
        member = f"{path}.{key}" if path else key
        slot = len(found)
        found.append(Member(member, i + 1, key_end - 1, start, start))
        end = _value(text, start, member, found, depth + 1)
        found[slot] = found[slot]._replace(value_end=end)
        i = _skip(text, end)
        if text[i] == "}":
            return i + 1
        if text[i] != ",":
            raise _Stop
        i = _skip(text, i + 1)


def _string(text: str, i: int) -> int:
    """The offset after the string that starts with the quote at `i`."""
    j = i + 1
    while True:
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == '"':
            return j + 1
        j += 1
