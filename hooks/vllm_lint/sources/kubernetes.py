"""Kubernetes objects: any mapping with a `containers` list is a pod spec, whatever its kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation, Mount, Token
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
from vllm_lint.sources import hardware
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
                volumes = _configmap_volumes(get(node, "volumes"))
                for container in containers.value:
                    if is_mapping(container):
                        mounts = _mounts(yf, get(container, "volumeMounts"), volumes)
                        yield from _container(yf, container, f"{kind}/{name}", mounts)


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


def _configmap_volumes(volumes: Any) -> dict[str, tuple[str, dict[str, str]]]:
    """Pod volumes from ConfigMaps: volume name → (ConfigMap name, item path → key)."""
    found: dict[str, tuple[str, dict[str, str]]] = {}
    if not is_sequence(volumes):
        return found
    for volume in volumes.value:
        source = get(volume, "configMap")
        name, configmap = text_of(get(volume, "name")), text_of(get(source, "name"))
        if name is None or configmap is None:
            continue
        items: dict[str, str] = {}
        listed = get(source, "items")
        if is_sequence(listed):
            for item in listed.value:
                key, path = text_of(get(item, "key")), text_of(get(item, "path"))
                if key is not None and path is not None:
                    items[path] = key
        found[name] = (configmap, items)
    return found


def _mounts(
    yf: YamlFile, mounts: Any, volumes: dict[str, tuple[str, dict[str, str]]]
) -> tuple[Mount, ...]:
    """A container's ConfigMap mounts: each key is a file under `mountPath` (or the one file
    at `mountPath` with `subPath`; `items` rename keys), as the kubelet projects them."""
    found: list[Mount] = []
    if not is_sequence(mounts):
        return ()
    for mount in mounts.value:
        volume = volumes.get(text_of(get(mount, "name")) or "")
        path = text_of(get(mount, "mountPath"))
        if volume is None or path is None:
            continue
        configmap, items = volume
        sub = text_of(get(mount, "subPath"))
        if sub is not None:
            found.append(Mount(path, yf.path, configmap, items.get(sub, sub if not items else "")))
        elif items:
            found += [Mount(f"{path}/{p}", yf.path, configmap, k) for p, k in items.items()]
        else:
            found.append(Mount(path, yf.path, configmap))
    return tuple(found)


def _container(
    yf: YamlFile, container: Any, owner: str, mounts: tuple[Mount, ...] = ()
) -> Iterator[Invocation]:
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
        mounts=mounts,
        gpus=hardware.of_container(yf, container),
    )
