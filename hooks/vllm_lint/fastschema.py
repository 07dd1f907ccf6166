"""The JSON Schema subset that rules and the configuration use, compiled to Python predicates.

Importing jsonschema costs more than a whole cold start of vllm-lint, and its validators walk
every keyword through a generic dispatch for each document: the rules use a dozen keywords.
`compile_schema` returns None for a schema with any keyword outside the subset (`$ref`,
`oneOf`, `if` …); the caller then asks jsonschema, so the answer is always jsonschema's.
Semantics are Draft 2020-12's (tests/test_fastschema.py holds both to the same verdicts).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Sized
from itertools import pairwise
from typing import Any

Predicate = Callable[[Any], bool]
# `compare` (the rules' own keyword): holds for `instance` under the keyword's argument
Compare = Callable[[Mapping[str, Any], Any], bool]

# Annotations: no effect on validity ($schema and $id only matter to $ref, which is not supported)
_ANNOTATIONS = frozenset(
    {"$comment", "$schema", "$id", "title", "description", "examples", "default", "deprecated"}
)
_OBJECT_KEYWORDS = frozenset({"properties", "additionalProperties"})


class Unsupported(Exception):
    """A keyword outside the subset: the schema is left to jsonschema."""


def compile_schema(schema: Any, compare: Compare | None = None) -> Predicate | None:
    """A predicate equal to jsonschema's `is_valid` for this schema, or None if unsupported."""
    try:
        return _compile(schema, compare)
    except Unsupported:
        return None


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def equal(a: Any, b: Any) -> bool:
    """JSON equality, as jsonschema's: true is not 1, 1 equals 1.0, containers member-wise."""
    if a is b:
        return True
    if isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    if type(a) in _SCALARS and type(b) in _SCALARS:  # the common case, without ABC checks
        return _unbool(a) == _unbool(b)
    if isinstance(a, Sequence) and isinstance(b, Sequence):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return len(a) == len(b) and all(k in b and equal(v, b[k]) for k, v in a.items())
    return _unbool(a) == _unbool(b)


_SCALARS = frozenset({int, float, bool, type(None)})
_TRUE, _FALSE = object(), object()


def _unbool(value: Any) -> Any:
    if value is True:
        return _TRUE
    return _FALSE if value is False else value


def _is_integer(value: Any) -> bool:
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, int) and not isinstance(value, bool)


_TYPES: dict[str, Predicate] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": is_number,
    "integer": _is_integer,
}

_BOUNDS: dict[str, Callable[[Any, Any], bool]] = {
    "minimum": lambda v, b: v >= b,
    "maximum": lambda v, b: v <= b,
    "exclusiveMinimum": lambda v, b: v > b,
    "exclusiveMaximum": lambda v, b: v < b,
}

# minLength counts code points, as len() does; each keyword only applies to its own type
_SIZES: dict[str, tuple[type[Sized], bool]] = {
    "minLength": (str, True),
    "maxLength": (str, False),
    "minItems": (list, True),
    "maxItems": (list, False),
    "minProperties": (dict, True),
    "maxProperties": (dict, False),
}


def _compile(schema: Any, compare: Compare | None) -> Predicate:
    if isinstance(schema, bool):
        return (lambda _v: True) if schema else (lambda _v: False)
    if not isinstance(schema, dict):
        raise Unsupported(schema)
    checks = [
        _keyword(key, arg, compare)
        for key, arg in schema.items()
        if key not in _ANNOTATIONS and key not in _OBJECT_KEYWORDS
    ]
    if _OBJECT_KEYWORDS & schema.keys():
        checks.append(_object(schema, compare))
    return _all(checks)


def _all(checks: list[Predicate]) -> Predicate:
    if not checks:
        return lambda _v: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    return lambda v: all(check(v) for check in checks)


def _object(schema: Mapping[str, Any], compare: Compare | None) -> Predicate:
    """`properties` and `additionalProperties` together: the second needs the first's names."""
    props = [(name, _compile(sub, compare)) for name, sub in schema.get("properties", {}).items()]
    rest = schema.get("additionalProperties", True)
    if rest is True:
        return lambda v: not isinstance(v, dict) or all(p(v[n]) for n, p in props if n in v)
    known = dict(props)
    other = _compile(rest, compare)

    def check(v: Any) -> bool:
        if not isinstance(v, dict):
            return True
        for name, value in v.items():
            check_one = known.get(name)
            if not (check_one(value) if check_one is not None else other(value)):
                return False
        return True

    return check


def _keyword(key: str, arg: Any, compare: Compare | None) -> Predicate:
    if key == "required":
        names = tuple(arg)
        return lambda v: not isinstance(v, dict) or all(n in v for n in names)
    if key == "const":
        return lambda v: equal(v, arg)
    if key == "enum":
        return lambda v: any(equal(v, e) for e in arg)
    if key == "type":
        kinds = [arg] if isinstance(arg, str) else list(arg)
        if not all(k in _TYPES for k in kinds):
            raise Unsupported(key)
        tests = [_TYPES[k] for k in kinds]
        return tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests))
    if key in ("allOf", "anyOf"):
        parts = [_compile(sub, compare) for sub in arg]
        if key == "allOf":
            return _all(parts)
        return lambda v: any(p(v) for p in parts)
    if key == "not":
        inner = _compile(arg, compare)
        return lambda v: not inner(v)
    if key in _BOUNDS and is_number(arg):
        holds = _BOUNDS[key]
        return lambda v: not is_number(v) or holds(v, arg)
    if key in _SIZES and _is_integer(arg):
        kind, at_least = _SIZES[key]
        bound = int(arg)
        if at_least:
            return lambda v: not isinstance(v, kind) or len(v) >= bound
        return lambda v: not isinstance(v, kind) or len(v) <= bound
    if key == "items" and isinstance(arg, (dict, bool)):
        each = _compile(arg, compare)
        return lambda v: not isinstance(v, list) or all(map(each, v))
    if key == "pattern" and isinstance(arg, str):
        from vllm_lint.linear_regex import UnsupportedPattern, compile_search

        try:  # jsonschema searches, unanchored; here in linear time whatever the pattern
            found = compile_search(arg)
        except UnsupportedPattern:
            raise Unsupported(key) from None
        return lambda v: not isinstance(v, str) or found(v)
    if key == "compare" and compare is not None:
        holds_for = compare
        return lambda v: not isinstance(v, dict) or holds_for(v, arg)
    if key == "uniqueItems" and isinstance(arg, bool):
        return (lambda v: not isinstance(v, list) or unique(v)) if arg else (lambda _v: True)
    if key == "contains" and isinstance(arg, (dict, bool)):  # minContains: outside the subset
        member = _compile(arg, compare)
        return lambda v: not isinstance(v, list) or any(map(member, v))
    if key == "propertyNames" and isinstance(arg, (dict, bool)):
        name_ok = _compile(arg, compare)
        return lambda v: not isinstance(v, dict) or all(map(name_ok, v))
    if key == "pairwise" and compare is not None and arg in OPERATORS:
        return lambda v: pairwise_holds(v, arg)
    if key == "pythonRegex" and compare is not None and python_regex_arg(arg):
        return lambda v: python_regex_holds(v, arg)
    raise Unsupported(key)


def unique(items: Sequence[Any]) -> bool:
    """`uniqueItems`: no two members equal in JSON's sense (1 and 1.0 are one; true and 1 not),
    in linear time: a hostile list of many members must not cost their square. Holds for a
    member nested too deep to compare."""
    try:
        keys = [_json_key(item) for item in items]
    except RecursionError:
        return True
    return len(set(keys)) == len(keys)


def _json_key(value: Any) -> Any:
    """A hashable stand-in equal for two values exactly when `equal` says they are."""
    if isinstance(value, bool) or value is None:
        return ("literal", value)
    if isinstance(value, str):
        return ("string", value)
    if is_number(value):
        return ("number", value)  # 1 and 1.0 hash and compare equal in Python
    if isinstance(value, Mapping):
        return ("object", frozenset((k, _json_key(v)) for k, v in value.items()))
    if isinstance(value, Sequence):
        return ("array", tuple(_json_key(v) for v in value))
    return ("other", repr(value))


# The rules' own keywords (on with `compare`, which only rules pass): JSON Schema compares a
# value with constants, vLLM also checks a list's order and compiles regular expressions.
OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "not-divisible-by": lambda a, b: b != 0 and a % b != 0,
}


def pairwise_holds(value: Any, op: str) -> bool:
    """`pairwise`: each two neighbours of an array hold `a op b` (`"<"`: strictly increasing,
    as vLLM's `any(a >= b for a, b in pairwise(xs))` refuses). Holds for anything but an
    array, and for a pair that is not two numbers: whether vLLM refuses it is another check's."""
    if not isinstance(value, list):
        return True
    test = OPERATORS[op]
    return all(not (is_number(a) and is_number(b)) or test(a, b) for a, b in pairwise(value))


def python_regex_arg(arg: Any) -> bool:
    return arg is True or (
        isinstance(arg, dict) and set(arg) == {"after"} and isinstance(arg["after"], str)
    )


def python_regex_holds(value: Any, arg: Any) -> bool:
    """`pythonRegex`: a string compiles as Python's `re` (what vLLM does with it); with
    `{"after": "re:"}` only a string starting so is tested, without the prefix. Holds for
    anything else, and when Python cannot decide (a pattern nested past its recursion limit
    stops vLLM otherwise). Compiling runs nothing of the pattern; the per-file budget bounds
    its size."""
    import re

    if not isinstance(value, str):
        return True
    if isinstance(arg, dict):
        if not value.startswith(arg["after"]):
            return True
        value = value[len(arg["after"]) :]
    try:
        re.compile(value)
    except re.error:
        return False
    except (RecursionError, OverflowError, MemoryError):
        return True
    return True
