"""vLLM's refusals lifted from its source (schemas/lifted.json, `tools/lift_raises.py`),
judged on a launch's effective settings under one rule id, VL600, each finding citing its site.

A lifted entry is the guard of one raise site, written in a small expression language over
the document paths of the effective settings (`["<", ["f", "max_num_seqs"], ["c", 1]]`). It is
judged in three-valued logic: a value the linter does not know (never written and without a
default, `None` — vLLM derives it later —, opaque, a default behind unreadable words, or a key of
a JSON flag the launch did not write: that config object may never be built) makes every test
on it unknown, and only a condition that is *true* is a finding. Only entries the oracle
verified are shipped (the others are listed under `dropped` with the reason).

One finding per site: a lifted finding is generic (`Finding.generic`), so a rule written by
hand for the same site and span is kept instead (rules/findings.py `one_per_site`); an entry
whose site a rule of the run cites for the release is not judged at all.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from vllm_lint.effective.settings import Settings
from vllm_lint.fastschema import OPERATORS
from vllm_lint.model import Problem, Span
from vllm_lint.release import key
from vllm_lint.resources import shipped_json

RULE = "VL600"


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    **{op: OPERATORS[op] for op in ("<", "<=", ">", ">=", "==", "!=")},  # as `compare` has them
    "in": lambda a, b: a in b,
    "notin": lambda a, b: a not in b,
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "**": lambda a, b: a**b if abs(b) <= 128 else UNKNOWN,  # no huge power of a user's number
}


@cache
def _entries() -> tuple[dict[str, Any], ...]:
    data = shipped_json("lifted.json")
    return tuple(e for e in data["entries"] if e.get("verified"))


def entries_for(release: str) -> list[dict[str, Any]]:
    """The shipped entries whose release ranges hold `release`."""
    at = key(release)
    return [e for e in _entries() if any(key(lo) <= at <= key(hi) for lo, hi in e["ranges"])]


def site_of(entry: dict[str, Any], release: str) -> str:
    """`file:line` of the entry's site in a release (the line of the nearest release at or
    before it)."""
    at = key(release)
    lines = sorted(entry["lines"].items(), key=lambda kv: key(kv[0]))
    line = lines[0][1]
    for rel, found in lines:
        if key(rel) <= at:
            line = found
    return f"{entry['file']}:{line}"


_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),  # bool is an int, as in Python
    "float": (float,),
    "bool": (bool,),
    "list": (list,),
    "dict": (dict,),
    "tuple": (tuple,),
}
_STR_METHODS: dict[str, Callable[..., Any]] = {
    "lower": str.lower,
    "upper": str.upper,
    "strip": str.strip,
    "startswith": str.startswith,
    "endswith": str.endswith,
}


class Judge:
    """Evaluates one entry's expression on the settings."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.bound: dict[str, Any] = {}  # the element a quantifier is at

    def value(self, path: str, default: Any) -> Any:
        s = self.settings
        if s.is_opaque(path):
            return UNKNOWN
        top = path.split(".")[0]
        if "." in path and (top in s.defaulted or s.span(top) is None):
            return UNKNOWN  # a key of a JSON flag the launch did not write
        if s.partial and (path in s.defaulted or top in s.defaulted):
            return UNKNOWN
        found = s.get(path) if s.has(path) else default
        return UNKNOWN if found is None else found

    def eval(self, expr: list[Any]) -> Any:
        op = expr[0]
        if op == "c":
            return expr[1]
        if op == "f":
            return self.value(expr[1], expr[2] if len(expr) > 2 else None)
        if op == "and":
            return self._and(expr[1:])
        if op == "or":
            return self._or(expr[1:])
        if op == "not":
            inner = self.truth(self.eval(expr[1]))
            return UNKNOWN if inner is UNKNOWN else not inner
        if op == "truth":
            return self.truth(self.eval(expr[1]))
        if op == "len":
            inner = self.eval(expr[1])
            return len(inner) if isinstance(inner, (str, list, dict, set)) else UNKNOWN
        if op == "v":
            return self.bound.get(expr[1], UNKNOWN)
        if op in ("any", "all"):
            return self._quantifier(op, expr[1], self.eval(expr[2]), expr[3])
        if op == "isinstance":
            inner = self.eval(expr[1])
            if inner is UNKNOWN:
                return UNKNOWN
            return isinstance(inner, tuple(t for name in expr[2] for t in _TYPES[name]))
        if op in ("set", "sorted", "list"):
            return _container(op, self.eval(expr[1]))
        if op in ("items", "keys", "values"):
            inner = self.eval(expr[1])
            if not isinstance(inner, dict):
                return UNKNOWN  # not a mapping: vLLM would see something else
            if op == "items":
                return [[k, v] for k, v in inner.items()]
            return list(inner.keys() if op == "keys" else inner.values())
        if op == "idx":
            inner = self.eval(expr[1])
            if isinstance(inner, (str, list)) and -len(inner) <= expr[2] < len(inner):
                return inner[expr[2]]
            return UNKNOWN  # out of range: vLLM raises something else there
        if op == "m":
            receiver = self.eval(expr[2])
            args = [self.eval(a) for a in expr[3:]]
            if not isinstance(receiver, str) or not all(isinstance(a, str) for a in args):
                return UNKNOWN  # not a string: vLLM would see something else
            return _STR_METHODS[expr[1]](receiver, *args)
        if op in ("is", "isnot"):
            left = self.eval(expr[1])  # None is unknown: only a set value is judged
            return UNKNOWN if left is UNKNOWN else op == "isnot"
        left, right = self.eval(expr[1]), self.eval(expr[2])
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if op in ("<", "<=", ">", ">=", "+", "-", "*", "//", "%", "**") and not (
            _number(left) and _number(right)
        ):
            return UNKNOWN  # vLLM would see another type (a string to parse, a list)
        try:
            return _BINARY[op](left, right)
        except (TypeError, ZeroDivisionError, OverflowError):
            return UNKNOWN

    def _quantifier(self, op: str, var: str | list[str], items: Any, body: list[Any]) -> Any:
        """`any`/`all` of `body` over the elements of a known list (a dict: its keys). A string
        is not iterated: where vLLM holds a list, a string in the settings is a value vLLM
        parses or refuses first, not its characters. A list of names unpacks each element
        (`for k, v in d.items()`); an element of another length is unknown."""
        if isinstance(items, dict):
            items = list(items)
        if not isinstance(items, list):
            return UNKNOWN
        names = var if isinstance(var, list) else [var]
        saved = {n: self.bound.get(n, UNKNOWN) for n in names}
        unknown = False
        try:
            for item in items:
                if isinstance(var, list):
                    if not isinstance(item, (list, tuple)) or len(item) != len(var):
                        unknown = True
                        continue
                    self.bound.update(zip(var, item, strict=True))
                else:
                    self.bound[var] = item
                got = self.truth(self.eval(body))
                if got is (op == "any"):
                    return op == "any"
                unknown = unknown or got is UNKNOWN
        finally:
            self.bound.update(saved)
        return UNKNOWN if unknown else op != "any"

    @staticmethod
    def truth(value: Any) -> Any:
        return UNKNOWN if value is UNKNOWN else bool(value)

    def _and(self, parts: list[Any]) -> Any:
        unknown = False
        for part in parts:
            got = self.truth(self.eval(part))
            if got is False:
                return False
            unknown = unknown or got is UNKNOWN
        return UNKNOWN if unknown else True

    def _or(self, parts: list[Any]) -> Any:
        unknown = False
        for part in parts:
            got = self.truth(self.eval(part))
            if got is True:
                return True
            unknown = unknown or got is UNKNOWN
        return UNKNOWN if unknown else False


def _container(op: str, value: Any) -> Any:
    """`set(x)` / `sorted(x)` / `list(x)` of a known list or dict (its keys); a string is
    unknown, as for `any`."""
    if not isinstance(value, (list, dict)):
        return UNKNOWN
    try:
        if op == "set":
            return set(value)
        if op == "sorted":
            return sorted(value)
    except TypeError:  # unhashable or unorderable elements
        return UNKNOWN
    return list(value)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def holds(expr: list[Any], settings: Settings) -> bool:
    """Whether the lifted condition is certainly true on the settings."""
    return Judge(settings).eval(expr) is True


def problems(settings: Settings, claimed: Callable[[], set[str]]) -> list[Problem]:
    """A VL600 problem per shipped entry of the release whose condition holds, on the first
    path of it the launch wrote; `claimed()`: the sites a rule of the run cites (that rule
    reports them), asked only when a condition holds."""
    release = settings.release.version
    out = []
    for entry in entries_for(release):
        span = _span(entry["paths"], settings)
        if span is None or not holds(entry["condition"], settings):
            continue
        site = site_of(entry, release)
        if site in claimed():
            continue
        # two keys of one JSON flag are labelled by the flag once
        written = ", ".join(
            dict.fromkeys(settings.label(p) for p in entry["paths"] if p not in settings.defaulted)
        )
        out.append(
            Problem(
                RULE,
                span,
                settings.release,
                (
                    ("site", site),
                    ("function", entry["function"]),
                    ("error", entry["message"]),
                    ("flags", written),
                    ("entry", entry["id"]),
                ),
                site=site,
            )
        )
    return out


def _span(paths: list[str], settings: Settings) -> Span | None:
    for path in paths:
        if path not in settings.defaulted:
            span = settings.span(path)
            if span is not None:
                return span
    return None
