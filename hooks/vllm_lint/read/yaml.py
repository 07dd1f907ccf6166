"""YAML (and JSON) read as position-carrying nodes, with the C parser when it is installed.

Composing to nodes rather than constructing Python objects keeps every scalar's line and
column, and leaves aliases as shared nodes, so an alias bomb costs nothing until walked;
walks are bounded by `MAX_NODES`.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Iterator
from typing import Any

from vllm_lint.files.textpos import FilePositions, Positions, align_scalar, span_of
from vllm_lint.model import Span, Token

MAX_NODES = 200_000
MERGE_TAG = "tag:yaml.org,2002:merge"
NULL_TAG = "tag:yaml.org,2002:null"


class YamlError(Exception):
    """A file that cannot be read as YAML, with the 1-based line and column of the problem."""

    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.line = line
        self.col = col


class _TooLarge(YamlError):
    """Raised while converting a node, where the file's line model is not at hand: the
    reader that catches it places it with `YamlError.at`."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message, 1, 1)
        self.index = index


def located(exc: YamlError, yf: YamlFile) -> tuple[int, int]:
    """Line and column of a YamlError in the file's line model."""
    if isinstance(exc, _TooLarge):
        return yf.positions.at(exc.index)
    return exc.line, exc.col


class YamlFile:
    """A YAML file's text and its composed documents."""

    __slots__ = ("documents", "path", "positions", "text")

    def __init__(
        self, path: str, text: str, positions: FilePositions, documents: list[Any]
    ) -> None:
        self.path = path
        self.text = text
        self.positions = positions
        self.documents = documents  # ruamel nodes


def load(path: str, text: str) -> YamlFile:
    """Compose every document; a syntax error becomes YamlError with its 1-based position."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    _forget()
    depth_line = too_deep(text)
    if depth_line is not None:  # libyaml would overflow its stack on such input
        raise YamlError(f"nested more than {MAX_FLOW_DEPTH} levels deep; not parsed", depth_line, 1)
    positions = FilePositions(path, text)
    try:
        with warnings.catch_warnings():  # ruamel warns (ReusedAnchorWarning) quoting the file
            warnings.simplefilter("ignore")
            documents = _compose_c(text)
    except (YAMLError, ValueError, RecursionError):
        # libyaml rejects a few inputs that the pure parser (and kubectl) accept,
        # e.g. `{L4:1}` in a flow mapping: only when both refuse is the file broken.
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                documents = _compose(YAML(typ="safe", pure=True), text)
        except MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line, col = positions.at(mark.index) if mark is not None else (1, 1)
            problem = (exc.problem or exc.context or "invalid YAML").strip()
            raise YamlError(problem, line, col) from None
        except RecursionError:
            raise YamlError("nested too deeply to read", 1, 1) from None
        except (YAMLError, ValueError) as exc:
            message = str(exc).splitlines()[0] if str(exc) else "invalid YAML"
            raise YamlError(message, 1, 1) from None
    return YamlFile(path, text, positions, documents)


MAX_FLOW_DEPTH = 1000  # nesting of any kind; libyaml's composer recurses once per level
_BRACKETS = re.compile(r"[\[\]{}]")
# A line's indentation and leading block indicators (`- - - x`, `? : `): each nested block
# collection needs at least one more column of them, so their width bounds the block nesting.
_LONG_LEAD = re.compile(rf"(?:^|\n)[ \t?:-]{{{MAX_FLOW_DEPTH // 4},}}")
_LEAD = re.compile(r"(?:^|\n)([ \t?:-]+)")


def too_deep(text: str) -> int | None:
    """The line where nesting may pass MAX_FLOW_DEPTH, or None: `[`/`{` nesting (brackets
    inside strings count too, which only errs on the safe side) plus the widest run of
    indentation and block indicators. libyaml, which recurses once per level, would overflow
    the C stack on such input (a segfault, at about 27,000 levels with an 8 MiB stack)."""
    if len(text) <= MAX_FLOW_DEPTH:
        return None
    block, block_at = 0, 0
    if _LONG_LEAD.search(text):
        for match in _LEAD.finditer(text):
            width = match.end(1) - match.start(1)
            if width > block:
                block, block_at = width, match.start(1)
    limit = MAX_FLOW_DEPTH - block
    if block >= MAX_FLOW_DEPTH:
        return text.count("\n", 0, block_at) + 1
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for match in _BRACKETS.finditer(text):
        depth += 1 if match.group() in "[{" else -1
        if depth > limit:
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


# Entries that merge keys (`<<`) bring into mappings, counted over a file: a chain of merges,
# or many mappings merging the same large ones, would otherwise cost time and memory that grow
# as the square of the file.
_MERGED = [MAX_NODES]


def _forget() -> None:
    _ENTRIES.clear()
    _WALKS.clear()
    _MERGED[0] = MAX_NODES


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
    """The mapping's own keys, then those its `<<` merge keys bring in (depth first, as
    YAML's merge order says), each key once. Iterative, each mapping visited once: a mapping
    that merges itself (`&a {<<: *a}`) or a long chain of merges ends, and the merged entries
    are not copied level after level."""
    seen: set[str] = set()
    visited: set[int] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) in visited or not is_mapping(current):
            continue
        visited.add(id(current))
        merged: list[Any] = []
        for key, value in current.value:
            if key.tag == MERGE_TAG:
                merged.extend(value.value if is_sequence(value) else [value])
                continue
            if is_scalar(key) and (current is node or key.value not in seen):
                seen.add(key.value)  # the node's own repeated keys all show (`get`: the first)
                if current is not node:
                    _MERGED[0] -= 1
                    if _MERGED[0] < 0:
                        raise _TooLarge(
                            "document too large (merge keys expand past the limit)",
                            node.start_mark.index,
                        )
                yield key.value, key, value
        stack.extend(reversed(merged))


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
    """Where a node stands, by the character offsets of its marks (the parser's own line
    numbers count a lone CR, NEL, U+2028 and U+2029 as breaks; findings count `\\n` only)."""
    line, col = yf.positions.at(node.start_mark.index)
    end_line, end_col = yf.positions.at(node.end_mark.index)
    if end_line > line and end_col == 1:  # block nodes end at the next line's start
        end_line, end_col = line, yf.positions.line_length(line) + 1
    return Span(yf.path, line, col, end_line, end_col)


def line_of(yf: YamlFile, node: Any) -> int:
    """The line a node starts on, as findings count lines."""
    return yf.positions.at(node.start_mark.index)[0]


def scalar_positions(yf: YamlFile, node: Any) -> Positions:
    """Where each character of a scalar's value stands in the file."""
    start = node.start_mark.index
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
        raise _TooLarge("document too large (alias expansion limit reached)", node.start_mark.index)
    if depth > MAX_DEPTH:
        raise _TooLarge(f"nested more than {MAX_DEPTH} levels deep", node.start_mark.index)
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
