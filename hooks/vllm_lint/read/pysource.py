"""Python source read statically (stdlib `ast`; nothing is imported or run), with the place of
every character of its string literals.

`ast` reports where a literal starts and ends (columns in UTF-8 bytes); the literal itself
is scanned here, prefixes, escapes and implicit concatenation included, so each character of
the value knows its line and column. Replacement fields of f-strings, `str.format` and
`%` formatting cannot be known: each stands as `TEMPLATE_MARK`, which makes the shell word
holding it opaque.
"""

from __future__ import annotations

import ast
import re
import warnings

from vllm_lint.files.textpos import FilePositions
from vllm_lint.read.shell import TEMPLATE_MARK

Point = tuple[int, int]
Chars = list[tuple[str, Point]]  # a string's characters, each with its place in the file

_START = re.compile(r"([rRbBuUfF]{0,2})('''|\"\"\"|'|\")")
_BETWEEN = re.compile(r"(?:\s|\\\n|#[^\n]*)*")
_SIMPLE_ESCAPES = {
    "\n": "",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
}
_PERCENT = re.compile(
    r"%(?:\([^)\n]{0,200}\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa%]"
)


def parse(text: str) -> ast.Module | None:
    """The module, or None when it is not Python this interpreter reads (the readers share
    one parse through `Document.python`)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences in the linted code
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def syntax_error(text: str) -> tuple[int, str] | None:
    """Line and message of the syntax error that stops `parse`, if any."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as exc:
        return exc.lineno or 1, exc.msg
    except (ValueError, RecursionError, MemoryError) as exc:
        return 1, type(exc).__name__
    return None


class Source:
    """A module's text, its tree, and places of nodes and characters."""

    def __init__(self, path: str, text: str, tree: ast.Module) -> None:
        self.path = path
        self.text = text
        self.tree = tree
        self.positions = FilePositions(path, text)
        self._lines = text.split("\n")
        self._ascii = text.isascii()

    def offset(self, lineno: int, byte_col: int) -> int:
        """Text offset of an `ast` place (1-based line, column in UTF-8 bytes)."""
        col = byte_col
        if not self._ascii and 0 < lineno <= len(self._lines):
            line = self._lines[lineno - 1]
            col = len(line.encode("utf-8")[:byte_col].decode("utf-8", "replace"))
        return self.positions.offset(lineno - 1, col)

    def bounds(self, node: ast.AST) -> tuple[int, int]:
        lineno = getattr(node, "lineno", None) or 1
        start = self.offset(lineno, getattr(node, "col_offset", None) or 0)
        end_line = getattr(node, "end_lineno", None) or lineno
        end_col = getattr(node, "end_col_offset", None)
        end = self.offset(end_line, end_col) if end_col is not None else start + 1
        return start, max(end, start + 1)

    def segment(self, node: ast.AST) -> str:
        start, end = self.bounds(node)
        return self.text[start:end]

    def point(self, offset: int) -> Point:
        return self.positions.at(offset)

    def literal(self, node: ast.AST, fields: str = "") -> Chars | None:
        """The characters of a string literal node (`Constant` or `JoinedStr`, concatenated
        parts included). `fields`: "format" or "percent" marks those placeholders too."""
        start, end = self.bounds(node)
        chars = _scan(self.text, start, end)
        if chars is None:
            return None
        if fields == "percent":
            chars = _mark(chars, _PERCENT, keep="%%")
        elif fields == "format":
            chars = _format_fields(chars)
        return [(ch, self.positions.at(at)) for ch, at in chars]


def _scan(text: str, start: int, end: int) -> list[tuple[str, int]] | None:
    """Decode the string literals written in text[start:end], with their offsets."""
    out: list[tuple[str, int]] = []
    i = start
    while i < end:
        i = _BETWEEN.match(text, i).end()  # type: ignore[union-attr]
        if i >= end:
            break
        match = _START.match(text, i)
        if match is None:
            return None
        prefix = match.group(1).lower()
        quote = match.group(2)
        if "b" in prefix:
            return None
        i = match.end()
        raw, fstring = "r" in prefix, "f" in prefix
        while True:
            if i >= end:
                return None
            if text.startswith(quote, i):
                i += len(quote)
                break
            ch = text[i]
            if ch == "\\" and i + 1 < end:
                if raw:
                    out += [("\\", i), (text[i + 1], i + 1)]
                    i += 2
                    continue
                i = _escape(text, i, out)
                continue
            if fstring and ch in "{}":
                if text.startswith(ch * 2, i):
                    out.append((ch, i))
                    i += 2
                    continue
                if ch == "{":
                    close = _field_end(text, i + 1, end)
                    if close < 0:
                        return None
                    out += [(TEMPLATE_MARK, k) for k in range(i, close + 1)]  # `{expr}`
                    i = close + 1
                    continue
            out.append((ch, i))
            i += 1
    return out


def _escape(text: str, i: int, out: list[tuple[str, int]]) -> int:
    nxt = text[i + 1]
    if nxt in _SIMPLE_ESCAPES:
        value = _SIMPLE_ESCAPES[nxt]
        if value:
            out.append((value, i))
        return i + 2
    for letter, width in (("x", 2), ("u", 4), ("U", 8)):
        if nxt == letter:
            digits = text[i + 2 : i + 2 + width]
            if re.fullmatch(rf"[0-9a-fA-F]{{{width}}}", digits):
                try:
                    out.append((chr(int(digits, 16)), i))
                except ValueError:
                    out.append((TEMPLATE_MARK, i))
                return i + 2 + width
    if nxt == "N" and text.startswith("{", i + 2):
        close = text.find("}", i + 3)
        if close > 0:
            import unicodedata

            try:
                out.append((unicodedata.lookup(text[i + 3 : close]), i))
            except KeyError:
                out.append((TEMPLATE_MARK, i))
            return close + 1
    octal = re.match(r"[0-7]{1,3}", text[i + 1 : i + 4])
    if octal:
        out.append((chr(int(octal.group(0), 8)), i))
        return i + 1 + len(octal.group(0))
    out += [("\\", i), (nxt, i + 1)]  # an unknown escape keeps its backslash
    return i + 2


def _field_end(text: str, i: int, end: int) -> int:
    """The `}` that closes an f-string replacement field opened before `i`."""
    depth = 0
    while i < end:
        ch = text[i]
        if ch in "'\"":
            close = text.find(ch, i + 1)
            if close < 0:
                return -1
            i = close + 1
            continue
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            if depth == 0 and ch == "}":
                return i
            depth -= 1
        i += 1
    return -1


def _mark(
    chars: list[tuple[str, int]], pattern: re.Pattern[str], keep: str
) -> list[tuple[str, int]]:
    text = "".join(ch for ch, _ in chars)
    out: list[tuple[str, int]] = []
    last = 0
    for match in pattern.finditer(text):
        out += chars[last : match.start()]
        if match.group(0) == keep:
            out.append((keep[0], chars[match.start()][1]))
        else:
            out += [(TEMPLATE_MARK, at) for _ch, at in chars[match.start() : match.end()]]
        last = match.end()
    return out + chars[last:]


def _format_fields(chars: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """`str.format` placeholders (`{}`, `{0}`, `{name!r:>8}`) as marks; `{{`/`}}` as braces."""
    out: list[tuple[str, int]] = []
    i = 0
    while i < len(chars):
        ch = chars[i][0]
        if ch in "{}" and i + 1 < len(chars) and chars[i + 1][0] == ch:
            out.append(chars[i])
            i += 2
            continue
        if ch == "{":
            depth, k = 1, i + 1
            while k < len(chars) and depth:
                depth += {"{": 1, "}": -1}.get(chars[k][0], 0)
                k += 1
            out += [(TEMPLATE_MARK, at) for _ch, at in chars[i:k]]
            i = k
            continue
        out.append(chars[i])
        i += 1
    return out


def dotted(node: ast.AST) -> str | None:
    """`a.b.c` for a chain of names and attributes, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None
