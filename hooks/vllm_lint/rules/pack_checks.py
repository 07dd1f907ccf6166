"""What a rule pack's schema may hold, checked when the pack is loaded.

A pack may come from the repository being linted (a pull request can add one), so its schema
must not make the linter fetch, read or loop:

- `$ref` is a JSON pointer inside the rule's own schema (`#/$defs/x`) that exists; no remote
  or file reference is ever retrieved (jsonschema would GET an http URL, or read a `file://`
  one), and `$id`, `$anchor` and the dynamic references, which change what a reference means,
  are refused;
- no chain of references returns to where it started without descending into the value (it
  would recurse until Python's stack runs out);
- every `pattern` can be searched in linear time (linear_regex.py); `patternProperties`, which
  jsonschema matches with Python's backtracking `re` in several places, is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

from vllm_lint.linear_regex import UnsupportedPattern, compile_search

# Keywords whose subschemas apply to the same value (not to a member or an item of it): a
# reference cycle through these alone never ends.
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE = ("not", "if", "then", "else")
_REFUSED = ("$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor")


class PackSchemaError(ValueError):
    """A problem with a pack's schema; `pointer` says where in it."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(message)
        self.pointer = pointer


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def _subschemas(node: Any, pointer: str) -> Iterator[tuple[str, str, Any, bool]]:
    """(keyword, pointer, subschema, in place) for each direct subschema of a schema node."""
    for key, value in node.items():
        if key in _IN_PLACE_LISTS and isinstance(value, list):
            for number, item in enumerate(value):
                yield key, f"{pointer}/{key}/{number}", item, True
        elif key in _IN_PLACE:
            yield key, f"{pointer}/{key}", value, True
        elif key == "dependentSchemas" and isinstance(value, dict):
            for name, item in value.items():
                yield key, f"{pointer}/{key}/{_escape(name)}", item, True
        elif key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            for name, item in value.items():
                yield key, f"{pointer}/{key}/{_escape(name)}", item, False
        elif key == "prefixItems" and isinstance(value, list):
            for number, item in enumerate(value):
                yield key, f"{pointer}/{key}/{number}", item, False
        elif key in (
            "items",
            "additionalProperties",
            "contains",
            "propertyNames",
            "unevaluatedItems",
            "unevaluatedProperties",
        ):
            yield key, f"{pointer}/{key}", value, False


def _resolve(root: Any, ref: str) -> Any:
    """The subschema a local reference points at; KeyError when it points at nothing."""
    node = root
    for raw in ref[2:].split("/") if ref != "#" else []:
        part = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(ref)
    return node


def check_rejects(schema: Any) -> None:
    """Raise PackSchemaError for anything listed in the module's docstring."""
    nodes: dict[str, Any] = {}  # pointer → schema node (objects only)
    edges: dict[str, list[str]] = {}  # pointer → pointers applied to the same value
    by_identity: dict[int, str] = {}
    stack: list[tuple[str, Any]] = [("#", schema)]
    while stack:
        pointer, node = stack.pop()
        if not isinstance(node, dict):
            continue
        nodes[pointer] = node
        by_identity.setdefault(id(node), pointer)
        targets = edges.setdefault(pointer, [])
        for key in _REFUSED:
            if key in node:
                raise PackSchemaError(f"{pointer}/{key}", f"{key} is not supported in rule packs")
        if "patternProperties" in node:
            raise PackSchemaError(
                f"{pointer}/patternProperties",
                "patternProperties is not supported in rule packs (use propertyNames with a "
                "pattern)",
            )
        if "pattern" in node and isinstance(node["pattern"], str):
            try:
                compile_search(node["pattern"])
            except UnsupportedPattern as exc:
                raise PackSchemaError(f"{pointer}/pattern", f"pattern: {exc}") from None
        if "$ref" in node:
            ref = node["$ref"]
            if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
                raise PackSchemaError(
                    f"{pointer}/$ref",
                    f"$ref {ref!r}: only a JSON pointer inside the rule's schema (#/…) is "
                    "allowed; nothing is fetched or read from elsewhere",
                )
            targets.append(ref)
        for _key, child_pointer, child, in_place in _subschemas(node, pointer):
            if in_place and isinstance(child, dict):
                targets.append(child_pointer)
            stack.append((child_pointer, child))
    for pointer, node in nodes.items():
        if "$ref" not in node:
            continue
        try:
            target = _resolve(schema, node["$ref"])
        except KeyError:
            raise PackSchemaError(
                f"{pointer}/$ref", f"$ref {node['$ref']!r} points at nothing in the schema"
            ) from None
        if isinstance(target, dict) and id(target) in by_identity:
            resolved = by_identity[id(target)]
            edges[pointer] = [resolved if t == node["$ref"] else t for t in edges[pointer]]
    cycle = _cycle(edges)
    if cycle is not None:
        raise PackSchemaError(
            cycle,
            "$ref leads back here without descending into the value: it would never end",
        )


def _cycle(edges: dict[str, list[str]]) -> str | None:
    """A node on a cycle of `edges` (iterative depth-first search), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for root in edges:
        if root in state:
            continue
        path = [(root, iter(edges.get(root, ())))]
        state[root] = 1
        while path:
            node, children = path[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                path.pop()
            elif state.get(child) == 1:
                return child
            elif child not in state and child in edges:
                state[child] = 1
                path.append((child, iter(edges[child])))
    return None
