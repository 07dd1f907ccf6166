"""JSON-valued flags: how vLLM's parser merges them (full values, dotted keys, repeats)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from vllm_lint.argv.catalog import FlagSpec
from vllm_lint.model import Problem, Span


class JsonValue:
    """One value of a JSON flag: a full value (`--x '{..}'`), or the object vLLM builds from
    the dotted keys written with one flag name (`--x.a 1 --x.b 2`); `held` are the problems
    that count only if this value is the one vLLM keeps."""

    __slots__ = ("held", "opaque", "reported", "span", "spans", "value")

    def __init__(
        self,
        value: Any,
        span: Span | None,
        held: list[Problem] | None = None,
        opaque: bool = False,
    ) -> None:
        self.value = value
        self.span = span
        self.spans: dict[str, Span] = {}
        self.held: list[Problem] = [] if held is None else held
        self.opaque = opaque
        self.reported = False


class JsonFlag:
    """The values one JSON flag was given."""

    __slots__ = ("dotted", "full")

    def __init__(self) -> None:
        self.full: JsonValue | None = None  # the last full value: argparse keeps only the last
        self.dotted: dict[str, JsonValue] = {}  # by the flag name as written


def is_json(spec: FlagSpec) -> bool:
    return spec.type in ("json", "json_or_kvs") or bool(spec.json_keys)


def nested(keys: Sequence[str], value: Any) -> Any:
    """create_nested_dict: ["a", "b"], 1 -> {"a": {"b": 1}}."""
    for key in reversed(keys):
        value = {key: value}
    return value


def dict_update(original: dict[str, Any], update: dict[str, Any]) -> None:
    """recursive_dict_update of FlexibleArgumentParser.parse_args: objects merge, lists add
    up, anything else is replaced."""
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(original.get(key), dict):
            dict_update(original[key], value)
        elif isinstance(value, list) and isinstance(original.get(key), list):
            original[key] += value
        else:
            original[key] = value


MAX_JSON_DEPTH = 64


def loads(text: str) -> Any:
    """`json.loads`, with JSON nested more than MAX_JSON_DEPTH levels refused (ValueError)
    rather than left to overflow Python's stack here or in any later walk of the value. (vLLM
    itself fails on JSON a few hundred levels deep: json.loads raises RecursionError.)"""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and deeper(value, MAX_JSON_DEPTH):
        raise ValueError(f"nested more than {MAX_JSON_DEPTH} levels deep")
    return value


def deeper(value: Any, limit: int) -> bool:
    stack = [(value, 0)]
    while stack:
        current, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(current, dict):
            stack.extend((v, depth + 1) for v in current.values())
        elif isinstance(current, list):
            stack.extend((v, depth + 1) for v in current)
    return False


def json_scalar(raw: str) -> Any:
    """Dotted-key values are JSON-decoded when they can be, else kept as strings (as vLLM does)."""
    try:
        return loads(raw)
    except ValueError:
        return raw
