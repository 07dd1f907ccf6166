"""A position-keeping lexer for the POSIX shell / bash scripts that launch vLLM.

It reads what a shell would pass as argv: quotes, backslash continuations, comments,
command separators (`;`, `&&`, `||`, `|`, `&`, newlines), redirections (dropped), heredoc
bodies (skipped), reserved words (`if`, `then`, `do`, … are grammar, not argv), `eval`
(its words are joined and read again) and `$VAR` / `${VAR}` / `${ARR[@]}` / `"$@"` expansions.

Variables a script assigns a literal are expanded (unquoted ones split into words, as the
shell does), bash arrays `A=(…)` / `A+=(…)` included. Anything else (command substitution,
unknown variables, arithmetic) makes the word opaque: it is never checked on a guess. A
value is known character by character: `CMD="vllm serve $1"` keeps `vllm serve` and only
`$1` is unknown. After an `if`, a variable keeps what every path through it agrees on
(`CMD="$CMD --x"` on one branch: `--x` may be there or not, so it is unknown); in a loop or
`case`, a value that changes is unknown. Nothing is ever executed.

Every character of a word remembers where it was written (line, column), also when it came
from a variable assigned elsewhere, so spans point at the flag as the user wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from vllm_lint.files.textpos import FilePositions, MappedPositions, Positions, ShiftedPositions
from vllm_lint.model import Span, Token

Point = tuple[int, int]  # 1-based line and column in the file

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=(.*)", re.S)
_ARRAY_START = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_PARAM = re.compile(r"([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])(?:\[([@*]|[0-9]+)\])?")
_SEPARATORS = (";;", "&&", "||", ";", "&", "|", "\n", "(", ")")
_SEPARATOR_STARTS = frozenset(s[0] for s in _SEPARATORS)  # one set test per character
_DECLARERS = frozenset({"export", "readonly", "local", "declare", "typeset"})
# Reserved words that open or close a compound command; they are grammar, not argv.
_OPENERS = frozenset({"if", "while", "until", "case", "for", "select"})
_CLOSERS = frozenset({"fi", "done", "esac"})
_GRAMMAR = frozenset({"then", "do", "else", "elif", "{", "}", "!", "function"})
_MAX_EVAL_DEPTH = 4
# `A+=…` copies the value so far: past these sizes a variable is unknown (never judged), so
# that ten thousand appends cost linear time, not quadratic.
MAX_VALUE = 4096  # characters of a string variable built by appends
MAX_ITEMS = 1024  # elements of an array built by appends
MAX_ALTERNATIVES = 64  # literals a variable was given on different branches
# Stands in for each character of a template expression (`{{ … }}`, `${var}` of Terraform)
# that was masked before parsing; a word holding it is opaque.
TEMPLATE_MARK = "\ue000"
# Fills a line of a YAML block scalar that a template rendering leaves out (a `{{- if }}` line,
# a branch not taken): Helm's `{{-` trims the line break before it, so the line vanishes with
# the break that ends the line above. Scripts read from such a scalar drop it (`drop_gaps`).
TEMPLATE_GAP = "\ue001"
_GAPS = re.compile(f"(?:\n[ \t]*)?{TEMPLATE_GAP}[{TEMPLATE_GAP} \t]*")


def drop_gaps(text: str) -> list[int] | None:
    """The indices of `text` kept once every vanished template line is taken out with the
    line break before it (None: nothing to take out)."""
    if TEMPLATE_GAP not in text:
        return None
    kept: list[int] = []
    at = 0
    for match in _GAPS.finditer(text):
        kept += range(at, match.start())
        at = match.end()
    kept += range(at, len(text))
    return kept


class Value(NamedTuple):
    """A variable's value; `points` says where each character was written, `opaque` which
    characters are not known (an unknown `$1` inside, a part added on one branch only)."""

    text: str
    points: tuple[Point, ...] = ()
    opaque: frozenset[int] = frozenset()


class ArrayValue(NamedTuple):
    """A bash array (or the positional parameters): its elements as written."""

    items: tuple[Token, ...]


VarValue = str | Value | ArrayValue | None  # None: set, but not to a literal
# `source FILE` / `. FILE`: the file's text and the path to show, or None (outside the repo,
# not a literal path…); only its variables are taken, nothing is run
Sourcer = Callable[[str], tuple[str, str] | None]


_NO_NAMES: Mapping[str, Any] = MappingProxyType({})  # the default of a command's tables


class Command(NamedTuple):
    """A simple command: its words (assignment prefixes included), and for each word the
    place of each of its characters, so a string argument can be read again (`sh -c`)."""

    words: tuple[Token, ...]
    points: tuple[tuple[Point, ...], ...] = ()
    conditional: bool = False  # inside if/case/loop, or after && / ||
    exported: Mapping[str, Token] = _NO_NAMES  # literal `export X=…` so far
    # every literal a variable was given so far, on any branch (absent: not known); lets
    # `${PREFIX} vllm serve` be read when each value PREFIX can have is known
    alternatives: Mapping[str, frozenset[str]] = _NO_NAMES
    starts: tuple[Point, ...] = ()  # where each word is written (a `$IMAGE`, not its value)
    # the text assigned to variables whose value is not known (`${IMAGE:-vllm/vllm-openai:v1}`)
    shapes: Mapping[str, str] = _NO_NAMES
    unknown: tuple[frozenset[int], ...] = ()  # per word, which characters are not known


_T = TypeVar("_T")


class _Snapshot(Mapping[str, _T]):
    """A table as it was when a command ran (its exports, the values its variables may have):
    a length of the lexer's log of changes, made into a table only when read. Most commands
    are never asked; copying the table for each of them cost time that grew as the square of
    the script. A name logged with None is left out (not known)."""

    def __init__(self, log: list[tuple[str, _T | None]], size: int) -> None:
        self._log = log
        self._size = size
        self._table: dict[str, _T] | None = None

    def _read(self) -> dict[str, _T]:
        if self._table is None:
            table = dict(self._log[: self._size])  # a later change of a name wins
            self._table = {k: v for k, v in table.items() if v is not None}
        return self._table

    def __getitem__(self, name: str) -> _T:
        return self._read()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


class _Word:
    """A word being lexed, character by character (a plain class: made for every word)."""

    __slots__ = ("at", "chars", "opaque", "opaque_at", "path", "points", "quoted", "started")

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.points: list[Point] = []
        self.opaque = False
        self.started = False  # quotes make an empty word real: ""
        self.quoted = False  # some part was quoted or escaped (so it is no reserved word)
        self.at: Point = (1, 1)
        self.opaque_at: list[int] = []  # which characters are not known
        self.path: str | None = None  # written in another file (an argument handed to a script)

    def unknown(self) -> None:
        """The next character added is not known."""
        self.opaque = True
        self.opaque_at.append(len(self.chars))

    def add(self, ch: str, point: Point) -> None:
        self.chars.append(ch)
        self.points.append(point)
        self.started = True

    @property
    def text(self) -> str:
        return "".join(self.chars)


class _Array(NamedTuple):
    """A bash array assignment `NAME=(…)` / `NAME+=(…)`, lexed as one item."""

    name: str
    append: bool
    elements: tuple[Token, ...]


class _Item(NamedTuple):
    """A lexed word (with its character points), an operator, or an array assignment."""

    token: Token | None
    points: tuple[Point, ...] = ()
    quoted: bool = False
    op: str = ""
    at: Point = (1, 1)
    opaque_at: frozenset[int] = frozenset()
    array: _Array | None = None


def element_points(tok: Token) -> tuple[Point, ...]:
    """Per-character points for a word known only by its span (start, …, end)."""
    n = len(tok.text)
    if n == 0:
        return ()
    start, end = (tok.span.line, tok.span.col), (tok.span.end_line, max(tok.span.end_col - 1, 1))
    return tuple(end if k == n - 1 and n > 1 else start for k in range(n))


class Lexer:
    def __init__(
        self,
        text: str,
        positions: Positions,
        variables: Mapping[str, VarValue] | None = None,
        kube_vars: Mapping[str, str] | None = None,
        exported: Mapping[str, Token] | None = None,
        _depth: int = 0,
        unknown: frozenset[int] = frozenset(),
        alternatives: Mapping[str, frozenset[str]] | None = None,
        source: Sourcer | None = None,
    ) -> None:
        self.text = text
        self.positions = positions
        self.path = positions.path
        self.variables: dict[str, VarValue] = dict(variables or {})
        self.kube_vars = kube_vars or {}
        self.exported: dict[str, Token] = dict(exported or {})
        # every change of `exported` and `_alternatives`, in order (see _Snapshot)
        self._exports: list[tuple[str, Token | None]] = list(self.exported.items())
        self._depth = _depth
        self._unknown = unknown  # indices of `text` whose characters are not known
        self._source = source
        self._frames = 0  # open if/case/loop compounds
        self._stack: list[_IfFrame] = []  # the open compounds, innermost last
        self._after_logic = False  # the current command follows && or ||
        self._heredocs: list[tuple[str, bool]] = []  # pending (delimiter, strip tabs)
        self._alternatives: dict[str, frozenset[str] | None] = dict(alternatives or {})
        self._changes: list[tuple[str, frozenset[str] | None]] = list(self._alternatives.items())
        self._shapes: dict[str, str] = {}

    # -- public -------------------------------------------------------------------------

    def commands(self) -> Iterator[Command]:
        """Simple commands in order; pure assignments update `variables` as a script would."""
        items: list[_Item] = []
        for item in self._items():
            if item.token is None:
                if items:
                    yield from self._finish(items)
                items = []
                self._after_logic = item.op in ("&&", "||")
                continue
            if not items and not item.quoted and self._reserved(item.token.text):
                continue
            items.append(item)
        if items:
            yield from self._finish(items)

    # -- commands -------------------------------------------------------------------------

    def _reserved(self, word: str) -> bool:
        """Drop grammar words in command position, tracking compound depth; an `if` keeps
        what each branch assigns, merged at `fi`."""
        if word in _OPENERS:
            self._frames += 1
            self._stack.append(_IfFrame(word))
            return word in ("if", "while", "until")  # `for x in …` / `case` stay a command
        if word in _CLOSERS:
            self._frames = max(0, self._frames - 1)
            if self._stack:
                self._merge_if(self._stack.pop())
            return True
        if word in ("elif", "else") and self._stack and self._stack[-1].kind == "if":
            frame = self._stack[-1]
            for name, before in frame.before.items():  # the next branch starts from before
                self._restore(name, before)
            frame.branches.append({})
            frame.has_else = frame.has_else or word == "else"
        return word in _GRAMMAR or word == "elif"

    def _restore(self, name: str, value: VarValue | _Unset) -> None:
        if isinstance(value, _Unset):
            self.variables.pop(name, None)
        else:
            self.variables[name] = value

    def _merge_if(self, frame: _IfFrame) -> None:
        """After `fi` / `done` / `esac`: a name keeps what every path through the compound
        agrees on (a loop may run no time, a `case` match no pattern)."""
        for name, before in frame.before.items():
            paths = [branch.get(name, before) for branch in frame.branches]
            if not frame.has_else:
                paths.append(before)
            merged = _merge(paths)
            self._store(name, merged, None)

    def _assigned(self, name: str, value: VarValue) -> VarValue:
        """The value `name` has after this assignment, as far as it is known: on one side of
        `&&`/`||` it may not happen; inside an `if`, loop or `case`, the value there (merged
        with the other paths when the compound ends)."""
        current: VarValue | _Unset = self.variables.get(name, _UNSET)
        if self._after_logic:
            value = _merge([current, value])
        if self._stack:
            frame = self._stack[-1]
            frame.before.setdefault(name, current)
            frame.branches[-1][name] = value
        return value

    @property
    def _conditional(self) -> bool:
        return self._frames > 0 or self._after_logic

    def _finish(self, items: list[_Item]) -> Iterator[Command]:
        words = [it.token for it in items if it.token is not None]
        if words[0].text in ("for", "select", "case"):
            return  # the loop/case head itself runs nothing
        args = items
        if words[0].text in _DECLARERS and len(words) > 1:
            declared = [it for it in items[1:] if not it.token or not it.token.text.startswith("-")]
            if all(_is_assignment(it) for it in declared):
                self._assign(declared, export=words[0].text == "export")
                return
            if words[0].text == "export":  # `export NAME` of a name assigned before
                return
        if all(_is_assignment(it) for it in args):
            self._assign(args, export=False)
            return
        if words[0].text == "eval" and len(words) > 1 and self._depth < _MAX_EVAL_DEPTH:
            yield from self._eval(items[1:])
            return
        if words[0].text in ("source", ".") and len(words) > 1 and self._source is not None:
            self._sourced(words[1])
        yield Command(
            tuple(words),
            tuple(it.points for it in items),
            self._conditional,
            _Snapshot(self._exports, len(self._exports)),
            _Snapshot(self._changes, len(self._changes)),
            tuple(it.at for it in items),
            self._shapes,
            tuple(it.opaque_at for it in items),
        )

    def _sourced(self, target: Token) -> None:
        """`source FILE`: the variables and exports the file sets, as if written here (its
        own launches are its own file's, found when that file is linted)."""
        if self._source is None or target.opaque or self._depth >= _MAX_EVAL_DEPTH:
            return
        found = self._source(target.text)
        if found is None:
            return
        text, shown = found
        inner = Lexer(
            text,
            FilePositions(shown, text),
            self.variables,
            self.kube_vars,
            self.exported,
            self._depth + 1,
            source=self._source,
        )
        inner._exports = self._exports  # one log: what the sourced file exports stays exported
        before = dict(self.variables)
        for _command in inner.commands():
            pass
        for name, value in inner.variables.items():
            if isinstance(value, Value) and before.get(name) is not value:
                # its characters are in the other file: point at where it is used here
                value = Value(value.text, (), value.opaque)
            self.variables[name] = value
        self.exported = inner.exported

    def _eval(self, items: list[_Item]) -> Iterator[Command]:
        """`eval a b c` runs the words joined with spaces as a new command line."""
        chars: list[str] = []
        points: list[Point] = []
        unknown: set[int] = set()
        for k, it in enumerate(items):
            if it.token is None:
                continue
            if k:
                chars.append(" ")
                first = it.points or element_points(it.token)
                points.append(first[0] if first else (it.token.span.line, it.token.span.col))
            unknown.update(len(chars) + j for j in it.opaque_at)
            chars.extend(it.token.text)
            points.extend(it.points or element_points(it.token))
        inner = Lexer(
            "".join(chars),
            MappedPositions(self.path, points, points[0] if points else (1, 1)),
            self.variables,
            self.kube_vars,
            self.exported,
            self._depth + 1,
            frozenset(unknown),
        )
        inner._frames = self._frames + (1 if self._after_logic else 0)
        inner._stack = [_IfFrame("eval") for _ in range(inner._frames)]
        inner._alternatives, inner._shapes = self._alternatives, self._shapes
        inner._exports, inner._changes = self._exports, self._changes  # one log each
        yield from inner.commands()
        self.variables, self.exported = inner.variables, inner.exported

    def _assign(self, items: list[_Item], export: bool) -> None:
        for it in items:
            tok = it.token
            if tok is None:
                continue
            if it.array is not None:
                self._assign_array(it.array, tok)
                continue
            match = _ASSIGNMENT.fullmatch(tok.text)
            if not match:
                continue
            name, plus, value = match.group(1), match.group(2), match.group(3)
            start = len(name) + len(plus) + 1
            unknown = frozenset(k - start for k in it.opaque_at if k >= start)
            located: VarValue = Value(value, tuple(it.points[start:]), unknown)
            if tok.opaque and (not unknown or len(unknown) == len(value)):
                located = None
            if plus and located is not None:
                before = self.variables.get(name)
                if isinstance(before, Value) and len(before.text) + len(value) > MAX_VALUE:
                    located = None
                elif isinstance(before, Value):
                    shift = len(before.text)
                    located = Value(
                        before.text + value,
                        before.points + tuple(it.points[start:]),
                        before.opaque | {k + shift for k in unknown},
                    )
                elif before is not None or name in self.variables:
                    located = None
            # a launcher prefix stays one with an unknown option value in it (`-o ${DIR}/x`)
            self._note_alternative(name, located.text if isinstance(located, Value) else None)
            if tok.opaque:
                self._shapes[name] = value
            else:
                self._shapes.pop(name, None)
            located = self._assigned(name, located)
            self._store(name, located, tok.span if export else None)

    def _store(self, name: str, value: VarValue, export: Span | None) -> None:
        """Set a variable; an exported one (or `export`ed now, at `export`) is also the
        environment commands get."""
        self.variables[name] = value
        if export is None and name not in self.exported:
            return
        where = export or self.exported[name].span
        if isinstance(value, Value) and not value.opaque:
            exported = Token(value.text, _span(self.path, list(value.points), where))
        else:
            exported = Token("", where, opaque=True)
        self.exported[name] = exported
        self._exports.append((name, exported))

    def _note_alternative(self, name: str, value: str | None) -> None:
        """Remember each literal `name` is given; a first value given on one branch only (the
        environment may have set it before) or a non-literal one makes them unknown."""
        before = self._alternatives.get(name, frozenset())
        first = name not in self._alternatives
        if value is None or before is None or (first and self._conditional):
            known = None
        elif value in before:
            return
        else:  # past MAX_ALTERNATIVES values, unknown: the sets are copied as they grow
            known = before | {value} if len(before) < MAX_ALTERNATIVES else None
        self._alternatives[name] = known
        self._changes.append((name, known))

    def _assign_array(self, it: _Array, token: Token) -> None:
        items = it.elements
        before = self.variables.get(it.name)
        if it.append:
            if isinstance(before, ArrayValue) and len(before.items) + len(items) <= MAX_ITEMS:
                items = before.items + items
            elif isinstance(before, Value):
                first = Token(before.text, _span(self.path, list(before.points), token.span))
                items = (first, *items)
            elif before is not None or it.name in self.variables:
                self.variables[it.name] = self._assigned(it.name, None)
                return
        self.variables[it.name] = self._assigned(it.name, ArrayValue(items))

    # -- words ----------------------------------------------------------------------------

    def _point(self, index: int) -> Point:
        return self.positions.at(index)

    def _token(self, word: _Word) -> Token:
        path = word.path or self.path
        return Token(word.text, _span(path, word.points, None, word.at), word.opaque)

    def _item(self, word: _Word) -> _Item:
        unknown = frozenset(word.opaque_at) if word.opaque_at else frozenset()
        if word.opaque and not unknown:
            unknown = frozenset(range(len(word.chars)))
        return _Item(
            self._token(word), tuple(word.points), word.quoted, at=word.at, opaque_at=unknown
        )

    def _items(self) -> Iterator[_Item]:
        text, n = self.text, len(self.text)
        i = 0
        word = _Word()
        drop_next = False  # the next word is a redirection target

        def flush() -> Iterator[_Item]:
            nonlocal word, drop_next
            if word.started:
                if drop_next:
                    drop_next = False
                else:
                    yield self._item(word)
            word = _Word()

        while i < n:
            ch = text[i]
            if not word.started and not word.chars:
                word.at = self._point(i)
            if ch == "\\" and i + 1 < n:
                if text[i + 1] == "\n":
                    i += 2
                    continue
                if text[i + 1] == "\r" and text[i + 2 : i + 3] == "\n":
                    i += 3
                    continue
                word.add(text[i + 1], self._point(i + 1))
                word.quoted = True
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
            if ch == "(" and not word.opaque and _ARRAY_START.fullmatch(word.text):
                array, i = self._array(word, i + 1)
                word = _Word()
                yield array
                continue
            if ch in "<>":
                if text.startswith("<<", i) and not text.startswith("<<<", i):
                    if word.chars and word.text.isdigit():
                        word = _Word()
                    yield from flush()
                    i = self._heredoc_start(i + 2)
                    continue
                if word.chars and word.text.isdigit():
                    word = _Word()
                yield from flush()
                if text.startswith("<(", i) or text.startswith(">(", i):
                    i = _matching_paren(text, i + 1)  # process substitution: not argv
                    continue
                while i < n and text[i] in "<>&|":
                    i += 1
                if i < n and text[i].isdigit() and text[i - 1] == "&":
                    while i < n and text[i].isdigit():
                        i += 1
                elif i < n and text[i] == "-" and text[i - 1] == "&":
                    i += 1
                else:
                    drop_next = True
                continue
            sep = (
                next((s for s in _SEPARATORS if text.startswith(s, i)), None)
                if ch in _SEPARATOR_STARTS
                else None
            )
            if sep is not None:
                if sep == "&" and text.startswith("&>", i):
                    yield from flush()
                    i += 2
                    drop_next = True
                    continue
                yield from flush()
                yield _Item(None, op=sep)
                i += len(sep)
                if sep == "\n" and self._heredocs:
                    i = self._skip_heredocs(i)
                continue
            if ch == "'":
                end = text.find("'", i + 1)
                end = n if end < 0 else end
                word.started = word.quoted = True
                for k in range(i + 1, end):
                    if k in self._unknown:
                        word.unknown()
                    word.add(text[k], self._point(k))
                i = end + 1
                continue
            if ch == "$" and text.startswith("$'", i):
                i = self._ansi_c(i + 2, word)
                continue
            if ch == '"':
                word.quoted = True
                extra: list[_Item] = []
                i = self._double_quoted(i + 1, word, extra)
                yield from extra
                continue
            if ch == "$" or ch == "`":
                extra = []
                i = self._expansion(i, word, False, extra)
                yield from extra
                continue
            if ch == "{" and text.startswith("{{", i):
                i = self._template(i, word)
                continue
            if ch == "{" and text.startswith(("{%", "{#"), i) and text[i + 2 : i + 3] != "}":
                # a Jinja statement or comment (`{% if %}`): rendered away, never a word. One
                # that is never closed is text (`{#}` and `{%}` are GNU parallel's job number
                # and slot), or the rest of the file would be lost with it.
                close = text.find("%}" if text[i + 1] == "%" else "#}", i + 2)
                if close >= 0:
                    i = close + 2
                    continue
            if ch == TEMPLATE_MARK or i in self._unknown:
                word.unknown()
            word.add(ch, self._point(i))
            i += 1
        yield from flush()

    def _template(self, i: int, word: _Word) -> int:
        """A Go/Helm `{{ … }}` action inside a script: rendered later, so opaque."""
        close = self.text.find("}}", i + 2)
        return self._opaque(word, i, len(self.text) if close < 0 else close + 2)

    def _array(self, head: _Word, i: int) -> tuple[_Item, int]:
        """`NAME=(` … `)`: the elements, read as words until the closing parenthesis."""
        match = _ARRAY_START.fullmatch(head.text)
        assert match is not None
        close = _matching_paren(self.text, i - 1)
        body = self.text[i : close - 1]
        inner = Lexer(
            body,
            ShiftedPositions(self.positions, i),
            self.variables,
            self.kube_vars,
            self.exported,
            self._depth + 1,
        )
        elements = tuple(
            it.token
            for it in inner._items()
            if it.token is not None  # newlines and comments between elements
        )
        end_point = self._point(max(close - 1, i))
        span = _span(self.path, [*head.points, end_point], None, head.at)
        token = Token(self.text[i - len(head.text) - 1 : close], span)
        array = _Array(match.group(1), bool(match.group(2)), elements)
        return _Item(token, (), False, "", head.at, frozenset(), array), close

    def _heredoc_start(self, i: int) -> int:
        """Read the delimiter after `<<` / `<<-`; the body is skipped at the next newline."""
        text, n = self.text, len(self.text)
        strip = i < n and text[i] == "-"
        i += 1 if strip else 0
        while i < n and text[i] in " \t":
            i += 1
        delim: list[str] = []
        while i < n and text[i] not in " \t\n;&|<>()":
            if text[i] in "'\"":
                end = text.find(text[i], i + 1)
                end = n if end < 0 else end
                delim.append(text[i + 1 : end])
                i = end + 1
            elif text[i] == "\\":
                i += 1
            else:
                delim.append(text[i])
                i += 1
        if delim:
            self._heredocs.append(("".join(delim), strip))
        return i

    def _skip_heredocs(self, i: int) -> int:
        text, n = self.text, len(self.text)
        for delim, strip in self._heredocs:
            while i < n:
                end = text.find("\n", i)
                end = n if end < 0 else end
                line = text[i:end].rstrip("\r")
                i = min(end + 1, n)
                if (line.lstrip("\t") if strip else line) == delim:
                    break
        self._heredocs = []
        return i

    def _ansi_c(self, i: int, word: _Word) -> int:
        text, n = self.text, len(self.text)
        escapes = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}
        word.started = word.quoted = True
        while i < n and text[i] != "'":
            if text[i] == "\\" and i + 1 < n:
                word.add(escapes.get(text[i + 1], text[i + 1]), self._point(i + 1))
                i += 2
                continue
            word.add(text[i], self._point(i))
            i += 1
        return i + 1

    def _double_quoted(self, i: int, word: _Word, extra: list[_Item]) -> int:
        text, n = self.text, len(self.text)
        word.started = True
        while i < n and text[i] != '"':
            ch = text[i]
            if ch == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
                if text[i + 1] != "\n":
                    word.add(text[i + 1], self._point(i + 1))
                i += 2
                continue
            if ch in "$`":
                i = self._expansion(i, word, True, extra)
                continue
            if ch == "{" and text.startswith("{{", i):
                i = self._template(i, word)
                continue
            if ch == TEMPLATE_MARK or i in self._unknown:
                word.unknown()
            word.add(ch, self._point(i))
            i += 1
        return i + 1

    # -- expansions -----------------------------------------------------------------------

    def _expansion(self, i: int, word: _Word, quoted: bool, extra: list[_Item]) -> int:
        """Expand `$…` or a backtick at i into `word`; words completed by splitting go to
        `extra`. Returns the index after the expansion."""
        text = self.text
        start = i
        if text[i] == "`":
            close = text.find("`", i + 1)
            return self._opaque(word, start, len(text) if close < 0 else close + 1)
        if text.startswith("$((", i):
            return self._opaque(word, start, _matching_paren(text, i + 1))
        if text.startswith("$(", i):
            close = text.find(")", i + 2)  # once: `")" in text[i:]` copied the rest per `$(`
            name = _NAME.match(text, i + 2, close) if close >= 0 else None
            inner = name.group() if name is not None and name.end() == close else ""
            if inner and inner in self.kube_vars:
                # kubelet substitutes $(VAR) from the container env before any shell runs
                end = i + 3 + len(inner)
                self._insert(Value(self.kube_vars[inner]), start, end, word, quoted, extra)
                return end
            return self._opaque(word, start, _matching_paren(text, i + 1))
        if text.startswith("${", i):
            end = _brace_end(text, i + 2)
            self._braced(text[i + 2 : end - 1], start, end, word, quoted, extra)
            return end
        match = _NAME.match(text, i + 1)
        if match:
            end = match.end()
            self._insert(self.variables.get(match.group(0)), start, end, word, quoted, extra)
            return end
        if i + 1 < len(text) and text[i + 1] in "@*0123456789":
            self._insert(self._param(text[i + 1], None), start, i + 2, word, quoted, extra)
            return i + 2
        if i + 1 < len(text) and text[i + 1] in "#?$!-":
            return self._opaque(word, start, i + 2)
        word.add("$", self._point(i))  # a lone `$` is literal
        return i + 1

    def _braced(
        self, body: str, start: int, end: int, word: _Word, quoted: bool, extra: list[_Item]
    ) -> None:
        match = _PARAM.match(body)
        if match is None or body.startswith("#"):
            self._opaque(word, start, end)
            return
        value = self._param(match.group(1), match.group(2))
        rest = body[match.end() :]
        if rest:
            op = re.match(r":?[-=+]", rest)
            if op is None or isinstance(value, ArrayValue) or "$" in rest or "`" in rest:
                self._opaque(word, start, end)
                return
            alt = rest[op.end() :]
            known = match.group(1) in self.variables or match.group(1) in ("@", "*")
            if not known or (value is None and match.group(1) in self.variables):
                self._opaque(word, start, end)  # may come from the environment: unknown
                return
            text = "" if value is None else (value if isinstance(value, str) else value.text)
            empty = not text if op.group(0).startswith(":") else value is None
            if op.group(0).endswith("+"):
                value = "" if empty else self._located_literal(alt, end - 1 - len(alt))
            elif empty:
                value = self._located_literal(alt, end - 1 - len(alt))
        self._insert(value, start, end, word, quoted, extra)

    def _located_literal(self, text: str, offset: int) -> Value:
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text, offset = text[1:-1], offset + 1
        return Value(text, tuple(self._point(offset + k) for k in range(len(text))))

    def _param(self, name: str, index: str | None) -> VarValue:
        if name in ("@", "*"):
            return self.variables.get("@") if "@" in self.variables else None
        if name.isdigit() and name != "0":
            positional = self.variables.get("@")
            if isinstance(positional, ArrayValue):
                k = int(name) - 1
                items = positional.items
                return _as_value(items[k]) if k < len(items) and not items[k].opaque else None
            return None
        value = self.variables.get(name)
        if index is None:
            if isinstance(value, ArrayValue):
                first = value.items[0] if value.items else None
                return None if first is None or first.opaque else _as_value(first)
            return value
        if not isinstance(value, ArrayValue):
            return value if index in ("@", "*", "0") else None
        if index in ("@", "*"):
            return value
        k = int(index)
        return _as_value(value.items[k]) if k < len(value.items) else Value("")

    def _opaque(self, word: _Word, start: int, end: int) -> int:
        word.opaque = True
        for k in range(start, min(end, len(self.text))):
            word.unknown()
            word.add(self.text[k], self._point(k))
        return end

    def _insert(
        self,
        value: VarValue,
        start: int,
        end: int,
        word: _Word,
        quoted: bool,
        extra: list[_Item],
    ) -> None:
        """Put an expanded value into the current word; unquoted values split on whitespace,
        array elements become separate words (a quoted `"${A[@]}"` keeps each one intact)."""
        if value is None:
            self._opaque(word, start, end)
            return
        ref = (self._point(start), self._point(max(start, end - 1)))
        if isinstance(value, ArrayValue):
            if quoted and not value.items and not word.chars:
                word.started = word.quoted = False  # "${A[@]}" of an empty array: no word
            for k, element in enumerate(value.items):
                if k:  # "${A[@]}": each element is a word, an empty one too
                    self._split(word, extra, keep_empty=quoted)
                unknown = frozenset(range(len(element.text))) if element.opaque else frozenset()
                points = element_points(element)
                if element.span.path != self.path:
                    if quoted and not word.chars:  # a whole word from the other file
                        word.path = element.span.path
                    else:  # set in a sourced file: point at the use
                        n = len(element.text)
                        points = tuple(ref[1] if j == n - 1 and n > 1 else ref[0] for j in range(n))
                self._add_text(element.text, points, word, quoted, extra, unknown)
            return
        if isinstance(value, str):
            value = Value(value)
        points = value.points
        if len(points) != len(value.text):
            n = len(value.text)
            points = tuple(ref[1] if k == n - 1 and n > 1 else ref[0] for k in range(n))
        word.started = word.started or quoted or bool(value.text)
        self._add_text(value.text, points, word, quoted, extra, value.opaque)

    def _add_text(
        self,
        text: str,
        points: tuple[Point, ...],
        word: _Word,
        quoted: bool,
        extra: list[_Item],
        unknown: frozenset[int] = frozenset(),
    ) -> None:
        for k, (ch, point) in enumerate(zip(text, points, strict=False)):
            if not quoted and ch in " \t\n":
                self._split(word, extra)
                continue
            if k in unknown:
                word.unknown()
            word.add(ch, point)
        if quoted:
            word.started = True

    def _split(self, word: _Word, extra: list[_Item], keep_empty: bool = False) -> None:
        if word.chars or (keep_empty and word.started):
            extra.append(self._item(word))
            word.chars, word.points, word.opaque, word.opaque_at = [], [], False, []
            word.path = None
        word.started = False


class _Unset:
    """A variable not set before an `if`: the environment may set it."""


_UNSET = _Unset()


class _IfFrame:
    """An open compound (`if`, a loop, `case`): each name's value before it, and what each
    branch assigned."""

    __slots__ = ("before", "branches", "has_else", "kind")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.before: dict[str, VarValue | _Unset] = {}
        self.branches: list[dict[str, VarValue]] = [{}]
        self.has_else = False


def _merge(paths: list[VarValue | _Unset]) -> VarValue:
    """The value a variable has after one of several paths: what they share at the start is
    known, the rest of the longest is not; nothing shared (or a path from the environment),
    nothing known."""
    if any(p is None or isinstance(p, _Unset) for p in paths):
        return None
    values = [p for p in paths if not isinstance(p, _Unset)]
    if all(isinstance(v, ArrayValue) for v in values):
        arrays = [v for v in values if isinstance(v, ArrayValue)]
        longest = max(arrays, key=lambda a: len(a.items))
        shared = 0
        while shared < len(longest.items) and all(
            shared < len(a.items) and a.items[shared].text == longest.items[shared].text
            for a in arrays
        ):
            shared += 1
        items = tuple(
            t if k < shared else Token(t.text, t.span, opaque=True)
            for k, t in enumerate(longest.items)
        )
        return ArrayValue(items)
    if not all(isinstance(v, (Value, str)) for v in values):
        return None
    texts = [v if isinstance(v, Value) else Value(str(v)) for v in values if v is not None]
    longest_value = max(texts, key=lambda v: len(v.text))
    first = texts[0]
    if all(v.text == first.text and v.opaque == first.opaque for v in texts):
        return first
    shared = 0
    while shared < len(longest_value.text) and all(
        shared < len(v.text) and v.text[shared] == longest_value.text[shared] for v in texts
    ):
        shared += 1
    if shared == 0:
        return None
    unknown = set().union(*(v.opaque for v in texts)) | set(range(shared, len(longest_value.text)))
    return Value(longest_value.text, longest_value.points, frozenset(unknown))


def _is_assignment(item: _Item) -> bool:
    if item.array is not None:
        return True
    return item.token is not None and bool(_ASSIGNMENT.fullmatch(item.token.text))


def _text(value: VarValue) -> str | None:
    if isinstance(value, Value):
        return value.text
    return value if isinstance(value, str) else None


def _as_value(tok: Token) -> Value:
    return Value(tok.text, element_points(tok))


def _span(path: str, points: list[Point], fallback: Span | None, at: Point = (1, 1)) -> Span:
    if not points:
        if fallback is not None:
            return fallback
        return Span(path, at[0], at[1], at[0], at[1] + 1)
    first, last = min(points), max(points)
    return Span(path, first[0], first[1], last[0], last[1] + 1)


def _brace_end(text: str, k: int) -> int:
    """The index after the `}` closing a `${` whose body starts at k (nesting and quotes
    respected: `${A:+--env "B=${B}"}`, GitHub's `${{ x }}`); an unterminated one ends with its
    line."""
    return _closing(text, k, "{", "}", 1, line_ends=True)


def _matching_paren(text: str, open_index: int) -> int:
    """The index after the `)` closing the `(` at open_index (quotes respected)."""
    return _closing(text, open_index, "(", ")", 0)


def _closing(
    text: str, k: int, opener: str, closer: str, depth: int, line_ends: bool = False
) -> int:
    """The index after the `closer` that brings `depth` to 0, scanning from k: backslashes
    escape, quoted text (once inside) is skipped; `line_ends`: a newline at the first level
    ends the scan there. One pass: linear in the text."""
    n = len(text)
    while k < n:
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch in "'\"" and depth > 0:
            close = k + 1
            while close < n and text[close] != ch:
                close += 2 if ch == '"' and text[close] == "\\" else 1
            k = close + 1
            continue
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return k + 1
        elif line_ends and ch == "\n" and depth == 1:
            return k
        k += 1
    return n
