"""The `pattern` of a rule, searched in time linear in the text (a Thompson NFA).

A rule pack may come from the repository being linted, and its patterns run on values the same
repository writes. Python's `re` backtracks: `(a|a)*b` takes exponential time, even `a*b` is
quadratic in `re.search`. Here a pattern is parsed by Python's own regex parser (so it means
what `re` makes of it) and run as a set of NFA states stepped once per character: O(text ×
states), whatever the pattern. Backreferences, lookarounds, conditionals, atomic groups,
possessive repeats and inline flags cannot be run that way: such a pattern is refused (the
rule file is an error), never run slowly.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

if sys.version_info >= (3, 11):
    from re import _constants as _c
    from re import _parser as _sre
else:
    import sre_constants as _c
    import sre_parse as _sre

MAX_STATES = 4000  # `a{1000}{1000}` would be a million states: refused
MAX_PATTERN = 2000  # characters


class UnsupportedPattern(ValueError):
    """A pattern that cannot be searched in linear time (or is not a valid pattern)."""


_CHAR, _SPLIT, _AT, _MATCH = range(4)


class _State:
    """A state of the matching automaton."""

    __slots__ = ("at", "kind", "out", "test")

    def __init__(
        self,
        kind: int,
        test: Callable[[str], bool] | None = None,  # _CHAR
        at: Any = None,  # _AT: the anchor
        out: list[int] | None = None,  # next states (two for _SPLIT)
    ) -> None:
        self.kind = kind
        self.test = test
        self.at = at
        self.out: list[int] = [] if out is None else out


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


_CATEGORIES: dict[Any, Callable[[str], bool]] = {
    _c.CATEGORY_DIGIT: str.isdecimal,
    _c.CATEGORY_NOT_DIGIT: lambda ch: not ch.isdecimal(),
    _c.CATEGORY_SPACE: str.isspace,
    _c.CATEGORY_NOT_SPACE: lambda ch: not ch.isspace(),
    _c.CATEGORY_WORD: _is_word,
    _c.CATEGORY_NOT_WORD: lambda ch: not _is_word(ch),
}


class _Builder:
    def __init__(self) -> None:
        self.states: list[_State] = []

    def add(self, state: _State) -> int:
        if len(self.states) >= MAX_STATES:
            raise UnsupportedPattern(f"too large to run (more than {MAX_STATES} states)")
        self.states.append(state)
        return len(self.states) - 1

    def sequence(self, items: Any, then: int) -> int:
        """States for `items` followed by state `then`; returns the first one."""
        for op, arg in reversed(list(items)):
            then = self.item(op, arg, then)
        return then

    def char(self, test: Callable[[str], bool], then: int) -> int:
        return self.add(_State(_CHAR, test=test, out=[then]))

    def item(self, op: Any, arg: Any, then: int) -> int:
        if op is _c.LITERAL:
            literal = chr(arg)
            return self.char(literal.__eq__, then)
        if op is _c.NOT_LITERAL:
            literal = chr(arg)
            return self.char(literal.__ne__, then)
        if op is _c.ANY:
            return self.char("\n".__ne__, then)
        if op is _c.IN:
            return self.char(_charset(arg), then)
        if op is _c.AT:
            if arg not in _ANCHORS:
                raise UnsupportedPattern(f"the anchor {arg}")
            return self.add(_State(_AT, at=arg, out=[then]))
        if op is _c.BRANCH:
            branches = [self.sequence(alternative, then) for alternative in arg[1]]
            first = branches[-1]
            for other in reversed(branches[:-1]):
                first = self.add(_State(_SPLIT, out=[other, first]))
            return first
        if op is _c.SUBPATTERN:
            _group, add_flags, del_flags, inner = arg
            if add_flags or del_flags:
                raise UnsupportedPattern("inline flags")
            return self.sequence(inner, then)
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):  # greedy or lazy: the same for a search
            low, high, inner = arg
            return self.repeat(low, high, inner, then)
        raise UnsupportedPattern(f"{str(op).lower()} (not possible in linear time)")

    def repeat(self, low: int, high: Any, inner: Any, then: int) -> int:
        if high is _c.MAXREPEAT:
            loop = self.add(_State(_SPLIT))
            body = self.sequence(inner, loop)
            self.states[loop].out = [body, then]
            first = loop
        else:
            first = then
            for _ in range(high - low):  # optional copies: (inner (inner …)?)?
                body = self.sequence(inner, first)
                first = self.add(_State(_SPLIT, out=[body, then]))
        for _ in range(low):
            first = self.sequence(inner, first)
        return first


def _charset(items: Any) -> Callable[[str], bool]:
    negate = False
    tests: list[Callable[[str], bool]] = []
    for op, arg in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            tests.append(chr(arg).__eq__)
        elif op is _c.RANGE:
            tests.append(_in_range(chr(arg[0]), chr(arg[1])))
        elif op is _c.CATEGORY and arg in _CATEGORIES:
            tests.append(_CATEGORIES[arg])
        else:
            raise UnsupportedPattern(f"{str(op).lower()} in a character set")
    if negate:
        return lambda ch: not any(test(ch) for test in tests)
    return lambda ch: any(test(ch) for test in tests)


def _in_range(low: str, high: str) -> Callable[[str], bool]:
    return lambda ch: low <= ch <= high


def _boundary(text: str, i: int) -> bool:
    before = i > 0 and _is_word(text[i - 1])
    after = i < len(text) and _is_word(text[i])
    return before != after


_ANCHORS: dict[Any, Callable[[str, int], bool]] = {
    _c.AT_BEGINNING: lambda text, i: i == 0,
    _c.AT_BEGINNING_STRING: lambda text, i: i == 0,
    _c.AT_END: lambda text, i: i == len(text) or (i == len(text) - 1 and text[i] == "\n"),
    _c.AT_END_STRING: lambda text, i: i == len(text),
    _c.AT_BOUNDARY: _boundary,
    _c.AT_NON_BOUNDARY: lambda text, i: not _boundary(text, i),
}


def compile_search(pattern: str) -> Callable[[str], bool]:
    """`lambda text: re.search(pattern, text) is not None`, in linear time; UnsupportedPattern
    when the pattern cannot be run so. Not memoized here: a rule keeps its compiled form
    (`Rule.compiled`), a jsonschema validator its own patterns."""
    if len(pattern) > MAX_PATTERN:
        raise UnsupportedPattern(f"longer than {MAX_PATTERN} characters")
    try:
        parsed = _sre.parse(pattern)
    except (_c.error, RecursionError, OverflowError) as exc:
        raise UnsupportedPattern(f"not a valid pattern: {exc}") from None
    if parsed.state.flags & ~_c.SRE_FLAG_UNICODE:
        raise UnsupportedPattern("inline flags")
    builder = _Builder()
    accept = builder.add(_State(_MATCH))
    try:
        start = builder.sequence(parsed, accept)
    except RecursionError:
        raise UnsupportedPattern("nested too deeply") from None
    states = builder.states
    return lambda text: _search(states, start, text)


def _search(states: list[_State], start: int, text: str) -> bool:
    current: list[int] = []
    for i in range(len(text) + 1):
        # a search may start at any position: the start state joins the running ones
        active = _closure(states, [*current, start], text, i)
        if active is None:
            return True
        if i == len(text):
            return False
        ch = text[i]
        current = [s.out[0] for s in active if s.test is not None and s.test(ch)]
    return False


def _closure(states: list[_State], seeds: list[int], text: str, i: int) -> list[_State] | None:
    """The character-reading states reachable from `seeds` without reading (anchors tested at
    position `i`), each once; None when the accepting state is reachable."""
    seen: set[int] = set()
    found: list[_State] = []
    stack = list(reversed(seeds))
    while stack:
        index = stack.pop()
        if index in seen:
            continue
        seen.add(index)
        state = states[index]
        if state.kind == _CHAR:
            found.append(state)
        elif state.kind == _SPLIT:
            stack.extend(reversed(state.out))
        elif state.kind == _AT:
            if _ANCHORS[state.at](text, i):
                stack.append(state.out[0])
        else:
            return None
    return found
