"""Engine keyword arguments written as YAML mappings: Ray Serve LLM `engine_kwargs` (also in
a RayService's `serveConfigV2` string, and RayLLM's `engine_config.engine_kwargs`) and the
`engine_args` of aibrix batch deployment templates.

The keys are `EngineArgs` field names (`tensor_parallel_size`), passed to vLLM as keyword
arguments; each becomes the flag that sets the same field (`--tensor-parallel-size 8`), so
the same catalog and rules apply. A key that is no flag of the release is reported like an
unknown flag: `EngineArgs(**kwargs)` refuses it with a TypeError. `true` is the flag itself;
`false` is its `--no-` form where the release has one, else left out (it is the default).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from vllm_lint.argv.catalog import Catalog
from vllm_lint.model import Invocation, ReleaseEvidence, Token
from vllm_lint.read import nested
from vllm_lint.read.yaml import (
    YamlError,
    YamlFile,
    get,
    is_mapping,
    is_scalar,
    is_sequence,
    items,
    span,
    text_of,
    text_token,
    to_python,
    token,
    walk,
)
from vllm_lint.sources.document import Document

_KWARG_KEYS = ("engine_kwargs", "engine_args")
_NESTED_KEYS = frozenset({"serveConfigV2", "serveConfig"})


def find(doc: Document) -> Iterator[Invocation]:
    yf, cat = doc.yf, doc.catalog
    for document in yf.documents:
        yield from _in(yf, document, cat)


def _in(yf: YamlFile, root: Any, cat: Catalog) -> Iterator[Invocation]:
    for node in walk(root):
        if not is_mapping(node):
            continue
        for key, _knode, value in items(node):
            if key in _KWARG_KEYS and is_mapping(value):
                yield _invocation(yf, node, key, value, cat)
            elif is_scalar(value) and _holds_yaml(key, value):
                parsed = nested.parse(yf, value)
                if parsed is not None:
                    inner, remap = parsed
                    found = [inv for doc in inner.documents for inv in _in(inner, doc, cat)]
                    yield from nested.remapped(found, remap)


def _holds_yaml(key: str, value: Any) -> bool:
    text = str(value.value)
    if not any(k in text for k in _KWARG_KEYS):
        return False
    return key in _NESTED_KEYS or key.endswith((".yaml", ".yml"))


def _invocation(yf: YamlFile, owner: Any, key: str, kwargs: Any, cat: Catalog) -> Invocation:
    argv: list[Token] = []
    model = _model(yf, owner)
    if model is not None:
        argv.append(model)
    for name, key_node, value in items(kwargs):
        argv += _flag(yf, name, key_node, value, cat)
    engine = get(get(owner, "spec"), "engine") or get(owner, "engine")
    serve_args = get(engine, "serve_args")
    if is_sequence(serve_args):  # aibrix templates: extra CLI words, verbatim
        argv += [token(yf, item) for item in serve_args.value if is_scalar(item)]
    env = _env(yf, owner)
    return Invocation(
        path=yf.path,
        argv=tuple(argv),
        env=env,
        origin=f"{key} (Python keyword arguments)",
        image=_image(yf, engine),
        release_evidence=_evidence(yf, engine),
        base_dir=str(Path(yf.path).parent),
        partial=False,
        anchor=span(yf, _key_node(owner, key)),
    )


def _flag(yf: YamlFile, name: str, key_node: Any, value: Any, cat: Catalog) -> list[Token]:
    flag = "--" + name.replace("_", "-")
    key_span = span(yf, key_node)
    try:
        data = to_python(value)
    except YamlError:
        return [Token(flag, key_span), Token("", span(yf, value), opaque=True)]
    if data is None:
        return []
    if data is True:
        return [Token(flag, key_span)]
    if data is False:
        negated = f"--no-{name.replace('_', '-')}"
        return [Token(negated, key_span)] if cat.resolve(negated) is not None else []
    if isinstance(data, dict):
        return [Token(flag, key_span), Token(json.dumps(data), span(yf, value))]
    if isinstance(data, list):
        return [Token(flag, key_span)] + [
            token(yf, item) for item in value.value if is_scalar(item)
        ]
    return [Token(flag, key_span), token(yf, value)]


def _model(yf: YamlFile, owner: Any) -> Token | None:
    """Ray Serve's model_loading_config, RayLLM's engine_config.model_id, aibrix model_source."""
    loading = get(owner, "model_loading_config")
    for node in (
        get(loading, "model_source"),
        get(loading, "model_id"),
        get(owner, "model_id"),
        get(get(get(owner, "spec"), "model_source"), "uri"),
        get(get(owner, "model_source"), "uri"),
    ):
        if is_scalar(node) and text_of(node):
            return token(yf, node)
    return None


def _env(yf: YamlFile, owner: Any) -> dict[str, Token]:
    env_vars = get(get(owner, "runtime_env"), "env_vars")
    env: dict[str, Token] = {}
    for name, _k, value in items(env_vars):
        if is_scalar(value) and text_of(value) is not None:
            env[name] = token(yf, value)
    return env


def _image(yf: YamlFile, engine: Any) -> Token | None:
    node = get(engine, "image")
    return text_token(yf, node)


def _evidence(yf: YamlFile, engine: Any) -> tuple[ReleaseEvidence, ...]:
    """aibrix templates name the engine release (`engine.version`; the image follows it)."""
    version = get(engine, "version")
    text = text_of(version)
    if not text:
        return ()
    return (ReleaseEvidence("version", text, f"line {span(yf, version).line}"),)


def _key_node(owner: Any, key: str) -> Any:
    for k, _value in owner.value:
        if is_scalar(k) and k.value == key:
            return k
    return owner
