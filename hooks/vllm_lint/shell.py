"""A position-keeping lexer for the POSIX shell lines that launch vLLM.

It reads what a shell would pass as argv: quotes, backslash continuations, comments,
command separators (`;`, `&&`, `||`, `|`, `&`, newlines), redirections (dropped) and
`$VAR` / `${VAR}` expansions. Variables with a literal value in `variables` are expanded
(unquoted ones split into words, as the shell does); anything else (command substitution,
unknown variables, arithmetic) makes the word opaque. Nothing is ever executed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from .model import Token
from .textpos import Positions, span_of

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\+?=(.*)", re.S)
_SEPARATORS = (";;", "&&", "||", ";", "&", "|", "\n", "(", ")")


@dataclass
class _WordBuilder:
    chars: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    opaque: bool = False
    started: bool = False  # quotes make an empty word real: ""

    def add(self, ch: str, index: int) -> None:
        self.chars.append(ch)
        self.starts.append(index)
        self.started = True


@dataclass(frozen=True)
class Command:
    """A simple command: its words, and the assignments that prefix it."""

    words: tuple[Token, ...]


class Lexer:
    def __init__(
        self,
        text: str,
        positions: Positions,
        variables: Mapping[str, str | None] | None = None,
        kube_vars: Mapping[str, str] | None = None,
    ) -> None:
        self.text = text
        self.positions = positions
        # None as a value means "assigned, but not to a literal": expanding it is opaque.
        self.variables: dict[str, str | None] = dict(variables or {})
        self.kube_vars = kube_vars or {}

    # -- public -------------------------------------------------------------------------

    def commands(self) -> Iterator[Command]:
        """Simple commands in order; pure assignments update `variables` as a script would."""
        words: list[Token] = []
        for item in self._items():
            if item is None:
                if words:
                    yield from self._finish(words)
                words = []
            else:
                words.append(item)
        if words:
            yield from self._finish(words)

    # -- internals ----------------------------------------------------------------------

    def _finish(self, words: list[Token]) -> Iterator[Command]:
        args = words
        if args and args[0].text in ("export", "readonly", "local", "declare") and len(args) > 1:
            args = args[1:]
            if all(_ASSIGNMENT.fullmatch(w.text) for w in args if not w.text.startswith("-")):
                self._assign([w for w in args if not w.text.startswith("-")])
                return
        if all(_ASSIGNMENT.fullmatch(w.text) for w in args):
            self._assign(args)
            return
        yield Command(tuple(words))

    def _assign(self, words: list[Token]) -> None:
        for word in words:
            match = _ASSIGNMENT.fullmatch(word.text)
            if match:
                self.variables[match.group(1)] = None if word.opaque else match.group(2)

    def _token(self, word: _WordBuilder) -> Token:
        text = "".join(word.chars)
        if word.starts:
            span = span_of(self.positions, min(word.starts), max(word.starts) + 1)
        else:
            span = span_of(self.positions, 0, 1)
        return Token(text, span, word.opaque)

    def _items(self) -> Iterator[Token | None]:
        text, n = self.text, len(self.text)
        i = 0
        word = _WordBuilder()
        drop_next = False  # the next word is a redirection target

        def flush() -> Iterator[Token]:
            nonlocal word, drop_next
            if word.started:
                if drop_next:
                    drop_next = False
                else:
                    yield self._token(word)
            word = _WordBuilder()

        while i < n:
            ch = text[i]
            if ch == "\\" and i + 1 < n:
                if text[i + 1] == "\n":
                    i += 2
                    continue
                if text[i + 1] == "\r" and text[i + 2 : i + 3] == "\n":
                    i += 3
                    continue
                word.add(text[i + 1], i + 1)
                i += 2
                continue
            if ch in " \t\r":
                yield from flush()
                i += 1
                continue
            if ch == "#" and not word.started:
                while i < n and text[i] != "\n":
                    i += 1
                continue
            if ch in "<>":
                if word.chars and "".join(word.chars).isdigit():
                    word = _WordBuilder()
                yield from flush()
                while i < n and text[i] in "<>&|":
                    i += 1
                if i < n and text[i].isdigit() and text[i - 1] == "&":
                    while i < n and text[i].isdigit():
                        i += 1
                else:
                    drop_next = True
                continue
            sep = next((s for s in _SEPARATORS if text.startswith(s, i)), None)
            if sep is not None:
                if sep == "&" and text.startswith("&>", i):
                    yield from flush()
                    i += 2
                    drop_next = True
                    continue
                yield from flush()
                yield None
                i += len(sep)
                continue
            if ch == "'":
                end = text.find("'", i + 1)
                end = n if end < 0 else end
                word.started = True
                for k in range(i + 1, end):
                    word.add(text[k], k)
                i = end + 1
                continue
            if ch == '"':
                i = self._double_quoted(i + 1, word)
                continue
            if ch == "$" or ch == "`":
                i, extra = self._expansion(i, word, quoted=False)
                yield from extra
                continue
            word.add(ch, i)
            i += 1
        yield from flush()

    def _double_quoted(self, i: int, word: _WordBuilder) -> int:
        text, n = self.text, len(self.text)
        word.started = True
        while i < n and text[i] != '"':
            ch = text[i]
            if ch == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
                if text[i + 1] != "\n":
                    word.add(text[i + 1], i + 1)
                i += 2
                continue
            if ch in "$`":
                i, _ = self._expansion(i, word, quoted=True)
                continue
            word.add(ch, i)
            i += 1
        return i + 1

    def _expansion(self, i: int, word: _WordBuilder, quoted: bool) -> tuple[int, list[Token]]:
        """Expand `$…` or a backtick at i: the next index, and words completed by splitting."""
        text = self.text
        start = i
        name: str | None = None
        end = i + 1
        if text[i] == "`":
            close = text.find("`", i + 1)
            end = len(text) if close < 0 else close + 1
        elif text.startswith("$(", i):
            inner = (
                _NAME.fullmatch(text[i + 2 : text.find(")", i + 2)]) if ")" in text[i:] else None
            )
            if inner and inner.group(0) in self.kube_vars:
                # kubelet substitutes $(VAR) from the container env before any shell runs
                end = i + 3 + len(inner.group(0))
                return end, self._insert(self.kube_vars[inner.group(0)], start, end, word, quoted)
            end = _matching_paren(text, i + 1)
        elif text.startswith("${", i):
            close = text.find("}", i + 2)
            end = len(text) if close < 0 else close + 1
            body = text[i + 2 : end - 1]
            if _NAME.fullmatch(body):
                name = body
        else:
            match = _NAME.match(text, i + 1)
            if match:
                name = match.group(0)
                end = match.end()
            elif i + 1 < len(text) and text[i + 1] in "@*#?$!0123456789-":
                end = i + 2
            else:  # a lone `$` is literal
                word.add("$", i)
                return i + 1, []
        value = self.variables.get(name) if name is not None else None
        if value is None:
            word.opaque = True
            for k in range(start, end):
                word.add(text[k], k)
            return end, []
        return end, self._insert(value, start, end, word, quoted)

    def _insert(
        self, value: str, start: int, end: int, word: _WordBuilder, quoted: bool
    ) -> list[Token]:
        """Put an expanded value into the current word; unquoted values split on whitespace."""
        done: list[Token] = []
        word.started = word.started or quoted or bool(value)
        for k, ch in enumerate(value):
            if not quoted and ch in " \t\n":
                if word.chars:
                    done.append(self._token(word))
                    word.chars, word.starts, word.opaque, word.started = [], [], False, False
                continue
            word.add(ch, start if k < len(value) - 1 else end - 1)
        return done


def _matching_paren(text: str, open_index: int) -> int:
    depth = 0
    for k in range(open_index, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k + 1
    return len(text)
