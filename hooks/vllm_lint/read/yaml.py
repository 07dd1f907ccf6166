"""YAML (and JSON) read as position-carrying nodes, with the C parser when it is installed.

Composing to nodes rather than constructing Python objects keeps every scalar's line and
column, and leaves aliases as shared nodes, so an alias bomb costs nothing until walked;
walks are bounded by `MAX_NODES`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from vllm_lint.files.textpos import FilePositions, Positions, align_scalar, span_of
from vllm_lint.model import Span, Token

MAX_NODES = 200_000
MERGE_TAG = "tag:yaml.org,2002:merge"
NULL_TAG = "tag:yaml.org,2002:null"


class YamlError(Exception):
    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.line = line
        self.col = col


@dataclass
class YamlFile:
    path: str
    text: str
    positions: FilePositions
    documents: list[Any]  # ruamel nodes


def load(path: str, text: str) -> YamlFile:
    """Compose every document; a syntax error becomes YamlError with its 1-based position."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    _forget()
    depth_line = _too_deep(text)
    if depth_line is not None:  # libyaml would overflow its stack on such input
        raise YamlError(f"nested more than {MAX_FLOW_DEPTH} levels deep; not parsed", depth_line, 1)
    try:
        documents = _compose_c(text)
    except (YAMLError, ValueError, RecursionError):
        # libyaml rejects a few inputs that the pure parser (and kubectl) accept,
        # e.g. `{L4:1}` in a flow mapping: only when both refuse is the file broken.
        try:
            documents = _compose(YAML(typ="safe", pure=True), text)
        except MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            problem = (exc.problem or exc.context or "invalid YAML").strip()
            raise YamlError(problem, line, col) from None
        except RecursionError:
            raise YamlError("nested too deeply to read", 1, 1) from None
        except (YAMLError, ValueError) as exc:
            message = str(exc).splitlines()[0] if str(exc) else "invalid YAML"
            raise YamlError(message, 1, 1) from None
    return YamlFile(path, text, FilePositions(path, text), documents)


MAX_FLOW_DEPTH = 1000
_BRACKETS = re.compile(r"[\[\]{}]")


def _too_deep(text: str) -> int | None:
    """The line where `[`/`{` nesting passes MAX_FLOW_DEPTH (brackets inside strings count
    too, which only errs on the safe side), or None."""
    if text.count("[") + text.count("{") <= MAX_FLOW_DEPTH:
        return None
    depth = 0
    for match in _BRACKETS.finditer(text):
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_FLOW_DEPTH:
            return text.count("\n", 0, match.start()) + 1
    return None


_MEMO_LIMIT = 4096  # distinct scalar texts whose tag is remembered; beyond, start again


@functools.cache
def _c_loader() -> Any:
    """One loader class for the run: the C parser with a resolver that remembers the tag of each
    plain scalar text (resolving tags by regex was most of the compose time, and the files of a
    repo repeat their words). `YAML().compose_all` builds such a class on every call. Like it,
    the C parser reports no `%YAML` directive to the resolver: YAML 1.2 applies."""
    from _ruamel_yaml import CParser
    from ruamel.yaml.nodes import ScalarNode
    from ruamel.yaml.resolver import VersionedResolver

    memo: dict[str, Any] = {}

    class MemoResolver(VersionedResolver):
        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is not ScalarNode or not implicit[0] or self.yaml_path_resolvers:
                return super().resolve(kind, value, implicit)
            tag = memo.get(value)  # an implicit plain scalar's tag depends on its text alone
            if tag is None:
                if len(memo) >= _MEMO_LIMIT:
                    memo.clear()
                tag = memo[value] = super().resolve(kind, value, implicit)
            return tag

    class Loader(CParser, MemoResolver):
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            self._parser = self._composer = self
            MemoResolver.__init__(self, loadumper=self)

    return Loader


def _compose_c(text: str) -> list[Any]:
    try:
        loader = _c_loader()(text)
    except ImportError:  # no ruamel.yaml.clib (PyPy, a platform without wheels)
        from ruamel.yaml import YAML

        return _compose(YAML(typ="safe", pure=True), text)
    try:
        documents = []
        while loader.check_node():
            node = loader.get_node()
            if node is not None:
                documents.append(node)
        return documents
    finally:
        loader.dispose()


def _compose(yaml: Any, text: str) -> list[Any]:
    return [doc for doc in yaml.compose_all(text) if doc is not None]


def is_mapping(node: Any) -> bool:
    return type(node).__name__ == "MappingNode"


def is_sequence(node: Any) -> bool:
    return type(node).__name__ == "SequenceNode"


def is_scalar(node: Any) -> bool:
    return type(node).__name__ == "ScalarNode"


# Per-file memos of each mapping's entries and of each walk: the readers (Kubernetes, compose,
# Helm values, CRDs, Ray, run blocks, env args, duplicate keys) each walk every document and look
# keys up in its mappings. Nodes have __slots__, hence dicts keyed by id() that keep the node
# (an id is only trusted while its node lives); `load` starts them afresh for every file.
_ENTRIES: dict[int, tuple[Any, list[tuple[str, Any, Any]], dict[str, Any]]] = {}
_WALKS: dict[int, tuple[Any, list[Any]]] = {}


def _forget() -> None:
    _ENTRIES.clear()
    _WALKS.clear()


def _entries(node: Any) -> tuple[list[tuple[str, Any, Any]], dict[str, Any]]:
    """`items` of a mapping as a list, and the first value of each key."""
    memo = _ENTRIES.get(id(node))
    if memo is not None and memo[0] is node:
        return memo[1], memo[2]
    listed = list(_items(node))
    first: dict[str, Any] = {}
    for name, _key, value in reversed(listed):  # the first of a repeated key wins
        first[name] = value
    _ENTRIES[id(node)] = (node, listed, first)
    return listed, first


def items(node: Any) -> Iterator[tuple[str, Any, Any]]:
    """(key text, key node, value node) of a mapping, with `<<` merge keys applied."""
    if not is_mapping(node):
        return iter(())
    return iter(_entries(node)[0])


def _items(node: Any) -> Iterator[tuple[str, Any, Any]]:
    seen: set[str] = set()
    merged: list[Any] = []
    for key, value in node.value:
        if key.tag == MERGE_TAG:
            merged.extend(value.value if is_sequence(value) else [value])
            continue
        if is_scalar(key):
            seen.add(key.value)
            yield key.value, key, value
    for source in merged:
        for name, key, value in items(source):
            if name not in seen:
                seen.add(name)
                yield name, key, value


def get(node: Any, name: str) -> Any:
    if not is_mapping(node):
        return None
    return _entries(node)[1].get(name)


def text_of(node: Any) -> str | None:
    """A scalar's text (None for non-scalars and for null)."""
    if not is_scalar(node) or node.tag == NULL_TAG:
        return None
    return str(node.value)


def span(yf: YamlFile, node: Any) -> Span:
    start, end = node.start_mark, node.end_mark
    end_line, end_col = end.line + 1, end.column + 1
    if end.line > start.line and end.column == 0:  # block nodes end at the next line's start
        end_line, end_col = start.line + 1, len(yf.text.splitlines()[start.line]) + 1
    return Span(yf.path, start.line + 1, start.column + 1, end_line, end_col)


def scalar_positions(yf: YamlFile, node: Any) -> Positions:
    """Where each character of a scalar's value stands in the file."""
    start = yf.positions.offset(node.start_mark.line, node.start_mark.column)
    block = getattr(node, "style", None) in ("|", ">")
    return align_scalar(str(node.value), yf.text, start, yf.positions, block)


def text_token(yf: YamlFile, node: Any) -> Token | None:
    """A scalar with some text (an image name, a value) as a token; None for anything else."""
    return token(yf, node) if text_of(node) else None


def token(yf: YamlFile, node: Any) -> Token:
    """A scalar as one argv word, spanning its visible text (quotes excluded)."""
    value = str(node.value)
    if getattr(node, "style", None) in ('"', "'") and value:
        located = span_of(scalar_positions(yf, node), 0, len(value))
        return Token(value, located)
    return Token(value, span(yf, node))


def duplicate_keys(document: Any) -> Iterator[tuple[str, Any, Any]]:
    """(key, first key node, repeated key node) for every mapping that repeats a key."""
    for node in walk(document):
        if not is_mapping(node):
            continue
        first: dict[str, Any] = {}
        for key, _value in node.value:
            if not is_scalar(key) or key.tag == MERGE_TAG:
                continue
            if key.value in first:
                yield key.value, first[key.value], key
            else:
                first[key.value] = key


def walk(node: Any, budget: list[int] | None = None) -> Iterator[Any]:
    """Every node below `node` (pre-order), at most MAX_NODES of them, aliases visited once."""
    if budget is not None:
        return iter(_walk(node, budget))
    memo = _WALKS.get(id(node))
    if memo is None or memo[0] is not node:
        memo = _WALKS[id(node)] = (node, _walk(node, [MAX_NODES]))
    return iter(memo[1])


def _walk(node: Any, budget: list[int]) -> list[Any]:
    found = []
    stack = [node]
    seen: set[int] = set()
    left = budget[0]
    while stack and left > 0:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        left -= 1
        found.append(current)
        kind = type(current).__name__
        if kind == "MappingNode":
            stack.extend([v for _k, _kn, v in reversed(_entries(current)[0])])
        elif kind == "SequenceNode":
            stack.extend(reversed(current.value))
    budget[0] = left
    return found


_BOOL_TAG = "tag:yaml.org,2002:bool"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"


MAX_DEPTH = 200


def to_python(node: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """Plain Python data from a node (YAML 1.2 core scalars), bounded like `walk`."""
    budget = budget if budget is not None else [MAX_NODES]
    budget[0] -= 1
    if budget[0] < 0:
        raise YamlError("document too large (alias expansion limit reached)", 1, 1)
    if depth > MAX_DEPTH:
        line = node.start_mark.line + 1
        raise YamlError(f"nested more than {MAX_DEPTH} levels deep", line, 1)
    if is_mapping(node):
        return {key: to_python(value, budget, depth + 1) for key, _k, value in items(node)}
    if is_sequence(node):
        return [to_python(item, budget, depth + 1) for item in node.value]
    value = node.value
    if node.tag == NULL_TAG:
        return None
    if node.tag == _BOOL_TAG:
        return str(value).lower() in ("true", "yes", "on")
    try:
        if node.tag == _INT_TAG:
            return int(str(value).replace("_", ""), 0)
        if node.tag == _FLOAT_TAG:
            return float(str(value).replace("_", ""))
    except ValueError:
        return value
    return value
