"""Values of Python expressions as the code writes them: strings (with the place of each
character), argv lists, and literals (for keyword arguments). Anything not literal is
unknown: a string gets `TEMPLATE_MARK` in its place (its shell word is opaque), a list an
opaque word standing for any number of words, a literal `UNKNOWN`."""

from __future__ import annotations

import ast
from typing import Any, NamedTuple

from vllm_lint.model import Span, Token
from vllm_lint.read.pyscope import Scope, Scopes, place
from vllm_lint.read.pysource import Chars, Point, Source, dotted
from vllm_lint.read.shell import TEMPLATE_MARK

_MAX_DEPTH = 8  # names resolved through names, lists built from lists


class Unknown:
    """A value the code does not write literally; `text`: how it writes it."""

    def __init__(self, text: str = "?") -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"Unknown({self.text!r})"


UNKNOWN: Any = Unknown()


class Word(NamedTuple):
    """One argv word of a list, with the place of each character (for `sh -c` strings)."""

    token: Token
    points: tuple[Point, ...]


class Values:
    def __init__(self, source: Source, scopes: Scopes) -> None:
        self.src = source
        self.scopes = scopes

    # -- places -----------------------------------------------------------------------------

    def span(self, node: ast.AST) -> Span:
        start, end = self.src.bounds(node)
        line, col = self.src.point(start)
        end_line, end_col = self.src.point(max(start, end - 1))
        return Span(self.src.path, line, col, end_line, end_col + 1)

    def unknown_word(self, node: ast.AST, prefix: str = "") -> Word:
        text = prefix + " ".join(self.src.segment(node).split())
        return Word(Token(text, self.span(node), opaque=True), ())

    # -- strings ----------------------------------------------------------------------------

    def string(self, node: ast.AST, depth: int = 0) -> Chars | None:
        """The characters of a string expression, or None if `node` is not one."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self.src.literal(node)
        if isinstance(node, ast.JoinedStr):
            return self.src.literal(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = self.string(node.left, depth + 1)
            right = self.string(node.right, depth + 1)
            if left is None and right is None:
                return None
            return (left or self._mark(node.left)) + (right or self._mark(node.right))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            if isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
                return self.src.literal(node.left, fields="percent")
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            base = node.func.value
            if (
                node.func.attr == "format"
                and isinstance(base, ast.Constant)
                and isinstance(base.value, str)
            ):
                return self.src.literal(base, fields="format")
            if node.func.attr in ("strip", "lstrip", "rstrip") and not node.args:
                inner = self.string(base, depth + 1)
                if inner is not None:
                    return _stripped(inner, node.func.attr)
            return None
        if isinstance(node, ast.Name):
            value = self.scopes.of(node).constant(node.id)
            if value is not None and value is not node:
                return self.string(value, depth + 1)
        return None

    def _mark(self, node: ast.AST) -> Chars:
        """An expression inside a string: unknown, one mark per character written."""
        start, end = self.src.bounds(node)
        return [(TEMPLATE_MARK, self.src.point(k)) for k in range(start, end)]

    def word(self, node: ast.expr, depth: int = 0) -> Word:
        """One argv element."""
        chars = self.string(node, depth)
        if chars is not None:
            text = "".join(ch for ch, _ in chars)
            points = tuple(p for _, p in chars)
            span = _span_of(self.src.path, points) if points else self.span(node)
            return Word(Token(text, span, opaque=TEMPLATE_MARK in text), points)
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool)
        ):
            return Word(Token(str(node.value), self.span(node)), ())
        if isinstance(node, ast.Call) and dotted(node.func) == "str" and len(node.args) == 1:
            inner = self.literal(node.args[0], depth + 1)
            if isinstance(inner, (str, int, float)) and not isinstance(inner, bool):
                return Word(Token(str(inner), self.span(node.args[0])), ())
        if dotted(node) == "sys.executable":  # the interpreter: `python`, as far as argv goes
            return Word(Token("python", self.span(node)), ())
        return self.unknown_word(node)

    # -- argv lists -------------------------------------------------------------------------

    def words(self, node: ast.AST, depth: int = 0) -> list[Word] | None:
        """The words of a list expression; None when `node` is not a list the code builds."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(node, (ast.List, ast.Tuple)):
            out: list[Word] = []
            for elt in node.elts:
                if isinstance(elt, ast.Starred):
                    out += self.words(elt.value, depth + 1) or [self.unknown_word(elt.value, "*")]
                else:
                    out.append(self.word(elt, depth + 1))
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = self.words(node.left, depth + 1)
            right = self.words(node.right, depth + 1)
            if left is None and right is None:
                return None
            return (left or [self.unknown_word(node.left, "*")]) + (
                right or [self.unknown_word(node.right, "*")]
            )
        if isinstance(node, ast.Name):
            return self.list_at(self.scopes.of(node), node.id, place(node), depth + 1)
        if isinstance(node, ast.IfExp):  # `a if c else []`: one list or the other
            body, orelse = self.words(node.body, depth + 1), self.words(node.orelse, depth + 1)
            if body is None and orelse is None:
                return None
            return [self.unknown_word(node, "*")]
        if isinstance(node, ast.Call):
            name = dotted(node.func)
            if name in ("list", "tuple") and len(node.args) == 1:
                return self.words(node.args[0], depth + 1)
            if name == "shlex.split" and node.args:
                chars = self.string(node.args[0], depth + 1)
                return None if chars is None else _split_shell(self.src.path, chars)
            if isinstance(node.func, ast.Attribute) and node.func.attr == "split" and not node.args:
                chars = self.string(node.func.value, depth + 1)
                return None if chars is None else _split_blanks(self.src.path, chars)
        return None

    def list_at(
        self, scope: Scope, name: str, at: tuple[int, int], depth: int = 0
    ) -> list[Word] | None:
        history = scope.history(name, at)
        if not history:
            return None
        if history[0].kind == "unknown":
            first: list[Word] | None = [
                Word(Token(f"*{name} (if/else)", self.span(history[0].value), True), ())
            ]
        else:
            first = self.words(history[0].value, depth + 1)
        if first is None:
            return None
        out = list(first)
        for event in history[1:]:
            if event.kind in ("extend", "iadd"):
                out += self.words(event.value, depth + 1) or [self.unknown_word(event.value, "*")]
            elif event.kind == "append":
                out.append(self.word(event.value, depth + 1))
            elif event.kind == "unknown":  # what one arm of an `if` or the other adds
                out.append(Word(Token(f"*{name} (if/else)", self.span(event.value), True), ()))
        return out

    # -- literals ---------------------------------------------------------------------------

    def literal(self, node: ast.AST, depth: int = 0) -> Any:
        """The Python value of a literal expression (containers may hold `Unknown` values),
        else an `Unknown` holding how the code writes it."""
        value = self._literal(node, depth)
        if value is UNKNOWN:
            return Unknown(" ".join(self.src.segment(node).split()))
        return value

    def _literal(self, node: ast.AST, depth: int = 0) -> Any:
        if depth > _MAX_DEPTH:
            return UNKNOWN
        if isinstance(node, ast.Constant):
            return UNKNOWN if node.value is ... else node.value
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return [self.literal(e, depth + 1) for e in node.elts if not isinstance(e, ast.Starred)]
        if isinstance(node, ast.Dict):
            return self.mapping(node, depth + 1)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.literal(node.operand, depth + 1)
            return (
                -inner
                if isinstance(inner, (int, float)) and not isinstance(inner, bool)
                else UNKNOWN
            )
        if isinstance(node, ast.Name):
            value = self.scopes.of(node).constant(node.id)
            return UNKNOWN if value is None else self.literal(value, depth + 1)
        if isinstance(node, ast.Call) and dotted(node.func) == "dict" and not node.args:
            return {k.arg: self.literal(k.value, depth + 1) for k in node.keywords if k.arg}
        chars = self.string(node, depth + 1)
        if chars is not None:
            text = "".join(ch for ch, _ in chars)
            return UNKNOWN if TEMPLATE_MARK in text else text
        return UNKNOWN

    def mapping(self, node: ast.Dict, depth: int = 0) -> Any:
        out: dict[str, Any] = {}
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:  # `**other`
                merged = self.literal(value, depth + 1)
                if not isinstance(merged, dict):
                    return UNKNOWN
                out.update(merged)
                continue
            name = self.literal(key, depth + 1)
            if not isinstance(name, str):
                return UNKNOWN
            out[name] = self.literal(value, depth + 1)
        return out


def _span_of(path: str, points: tuple[Point, ...]) -> Span:
    first, last = min(points), max(points)
    return Span(path, first[0], first[1], last[0], last[1] + 1)


def _stripped(chars: Chars, how: str) -> Chars:
    start, end = 0, len(chars)
    if how in ("strip", "lstrip"):
        while start < end and chars[start][0].isspace():
            start += 1
    if how in ("strip", "rstrip"):
        while end > start and chars[end - 1][0].isspace():
            end -= 1
    return chars[start:end]


def _split_blanks(path: str, chars: Chars) -> list[Word]:
    words: list[Word] = []
    current: Chars = []
    for ch, point in [*chars, (" ", (0, 0))]:
        if ch.isspace():
            if current:
                text = "".join(c for c, _ in current)
                points = tuple(p for _, p in current)
                words.append(
                    Word(Token(text, _span_of(path, points), TEMPLATE_MARK in text), points)
                )
                current = []
            continue
        current.append((ch, point))
    return words


def _split_shell(path: str, chars: Chars) -> list[Word]:
    """`shlex.split`: the shell's quoting rules, without expansions (close enough here)."""
    from vllm_lint.files.textpos import MappedPositions
    from vllm_lint.read.shell import Lexer

    text = "".join(c for c, _ in chars)
    points = [p for _, p in chars]
    lexer = Lexer(text, MappedPositions(path, points, points[0] if points else (1, 1)))
    out = []
    for command in lexer.commands():
        for tok, pts in zip(
            command.words, command.points or [()] * len(command.words), strict=False
        ):
            out.append(Word(tok, tuple(pts)))
    return out
