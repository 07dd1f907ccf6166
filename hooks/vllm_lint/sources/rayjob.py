"""KubeRay RayJob: the `spec.entrypoint` command, on the head group's image."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation
from vllm_lint.read.yaml import (
    YamlFile,
    get,
    is_sequence,
    text_of,
    text_token,
)
from vllm_lint.sources.document import Document
from vllm_lint.sources.shell_commands import ScriptContext
from vllm_lint.sources.yaml_scripts import each_mapping, script_launches


def find(doc: Document) -> Iterator[Invocation]:
    return each_mapping(doc, _rayjob)


def _rayjob(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    if text_of(get(document, "kind")) != "RayJob":
        return
    spec = get(document, "spec")
    entry = get(spec, "entrypoint")
    head = get(get(get(get(spec, "rayClusterSpec"), "headGroupSpec"), "template"), "spec")
    containers = get(head, "containers")
    image = None
    if is_sequence(containers) and containers.value:
        image_node = get(containers.value[0], "image")
        image = text_token(yf, image_node)
    context = ScriptContext()
    yield from script_launches(yf, entry, "RayJob entrypoint", context, image)
