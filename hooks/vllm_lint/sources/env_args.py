"""Flags carried in an environment variable that the platform's launch script splices into
the command line unquoted: KServe's `VLLM_ADDITIONAL_ARGS` (config-llm-template.yaml:
`eval "exec vllm serve … ${VLLM_ADDITIONAL_ARGS} $@"`).

A container whose own command expands the variable is already read with it (the shell
lexer resolves literal env values). A container that only sets it, for a launch script
the platform supplies (an `LLMInferenceService`), is one invocation of those flags, split
with shell rules, each word pointing into the env value; the flags the controller derives
from `spec.parallelism` are added as its template writes them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from vllm_lint.files.textpos import MappedPositions
from vllm_lint.model import Invocation
from vllm_lint.read.shell import Lexer
from vllm_lint.read.yaml import (
    YamlFile,
    get,
    is_mapping,
    is_sequence,
    span,
    text_of,
    text_token,
    walk,
)
from vllm_lint.sources.chart_argv import ArgvBuilder, go_value, key_node, truthy
from vllm_lint.sources.commandline import located
from vllm_lint.sources.document import Document
from vllm_lint.sources.kubernetes import container_env

ARG_VARIABLES = ("VLLM_ADDITIONAL_ARGS",)


def find(doc: Document) -> Iterator[Invocation]:
    yf, found = doc.yf, doc.found
    for document in yf.documents:
        kind = text_of(get(document, "kind")) or "object"
        name = text_of(get(get(document, "metadata"), "name")) or "?"
        parallelism = get(get(document, "spec"), "parallelism")
        for node in walk(document):
            containers = get(node, "containers") if is_mapping(node) else None
            if containers is None or not is_sequence(containers):
                continue
            for container in containers.value:
                if is_mapping(container) and not _launched(yf, container, found):
                    yield from _container(yf, container, f"{kind}/{name}", parallelism)


def _launched(yf: YamlFile, container: Any, found: Sequence[Invocation]) -> bool:
    """Does an invocation already read this container (its anchor lies inside it)?"""
    outer = span(yf, container)
    for inv in found:
        where = inv.anchor or (inv.argv[0].span if inv.argv else None)
        if where is not None and outer.line <= where.line <= outer.end_line:
            return True
    return False


def _container(yf: YamlFile, container: Any, owner: str, parallelism: Any) -> Iterator[Invocation]:
    env = container_env(yf, container)
    for variable in ARG_VARIABLES:
        tok = env.get(variable)
        if tok is None or tok.opaque:
            continue
        value = located(yf, tok)
        positions = MappedPositions(yf.path, value.points, (tok.span.line, tok.span.col))
        words = [w for c in Lexer(tok.text, positions).commands() for w in c.words]
        b = ArgvBuilder(yf)
        for flag, key in (
            ("--tensor-parallel-size", "tensor"),
            ("--data-parallel-size", "data"),
            ("--data-parallel-size-local", "dataLocal"),
        ):
            node = get(parallelism, key)
            if node is not None and go_value(node):
                b.flag(flag, key_node(parallelism, key))
                b.value(node)
        if truthy(get(parallelism, "expert")):
            b.flag("--enable-expert-parallel", key_node(parallelism, "expert"))
        name_node = _env_entry(container, variable)
        others = {k: v for k, v in env.items() if k != variable}
        cname = text_of(get(container, "name")) or "?"
        image_node = get(container, "image")
        image = text_token(yf, image_node)
        yield Invocation(
            path=yf.path,
            argv=tuple(b.words + words),
            env=others,
            origin=f"{owner} container {cname} env {variable}",
            image=image,
            base_dir=str(Path(yf.path).parent),
            partial=True,  # the platform's script adds its own flags
            anchor=span(yf, name_node) if name_node is not None else tok.span,
        )


def _env_entry(container: Any, variable: str) -> Any:
    entries = get(container, "env")
    if not is_sequence(entries):
        return None
    for entry in entries.value:
        if text_of(get(entry, "name")) == variable:
            return get(entry, "name")
    return None
