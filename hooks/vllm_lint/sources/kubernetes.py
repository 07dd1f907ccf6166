"""Kubernetes objects: any mapping with a `containers` list is a pod spec, whatever its kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation, Token
from vllm_lint.read.yaml import (
    YamlFile,
    get,
    is_mapping,
    is_scalar,
    is_sequence,
    span,
    text_of,
    text_token,
    token,
    walk,
)
from vllm_lint.sources.commandline import Word, invocations, kube_substitute
from vllm_lint.sources.document import Document

_CONTAINER_LISTS = ("containers", "initContainers")


def find(doc: Document) -> Iterator[Invocation]:
    yf = doc.yf
    for document in yf.documents:
        kind = text_of(get(document, "kind")) or "object"
        name = text_of(get(get(document, "metadata"), "name")) or "?"
        for node in walk(document):
            if not is_mapping(node):
                continue
            for list_key in _CONTAINER_LISTS:
                containers = get(node, list_key)
                if not is_sequence(containers):
                    continue
                for container in containers.value:
                    if is_mapping(container):
                        yield from _container(yf, container, f"{kind}/{name}")


def container_env(yf: YamlFile, container: Any) -> dict[str, Token]:
    """Literal env values as tokens; values from secrets, fields or config maps are opaque."""
    return env_list(yf, get(container, "env"))


def env_list(yf: YamlFile, entries: Any) -> dict[str, Token]:
    """A container-style `env:` list of `{name, value}` (or `valueFrom`, which is opaque)."""
    env: dict[str, Token] = {}
    if not is_sequence(entries):
        return env
    for entry in entries.value:
        name = text_of(get(entry, "name"))
        if name is None:
            continue
        value = get(entry, "value")
        if is_scalar(value) and text_of(value) is not None:
            env[name] = token(yf, value)
        else:  # valueFrom: a secret, a field or a config map the linter cannot read
            env[name] = Token("", span(yf, entry), opaque=True)
    return env


def words_of(yf: YamlFile, node: Any) -> list[Word]:
    """A command or args value: a list of scalars (a lone string is one word)."""
    if is_sequence(node):
        return [Word(token(yf, item), item) for item in node.value if is_scalar(item)]
    if is_scalar(node) and text_of(node) is not None:
        return [Word(token(yf, node), node)]
    return []


def _container(yf: YamlFile, container: Any, owner: str) -> Iterator[Invocation]:
    env = container_env(yf, container)
    image_node = get(container, "image")
    image = text_token(yf, image_node)
    command = get(container, "command")
    words = words_of(yf, command) + words_of(yf, get(container, "args"))
    words = [kube_substitute(w, env) for w in words]
    cname = text_of(get(container, "name")) or "?"
    kube_vars = {k: v.text for k, v in env.items() if not v.opaque}
    yield from invocations(
        yf,
        words,
        env,
        image,
        f"{owner} container {cname}",
        entrypoint_given=command is not None,
        kube_vars=kube_vars,
    )
