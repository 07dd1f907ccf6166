"""Shell scripts carried in a ConfigMap's `data` (`*.sh`, `*.bash`, or a shebang)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation
from vllm_lint.read.yaml import YamlFile, get, items, text_of
from vllm_lint.sources.document import Document
from vllm_lint.sources.shell_commands import ScriptContext
from vllm_lint.sources.yaml_scripts import each_mapping, script_launches


def find(doc: Document) -> Iterator[Invocation]:
    return each_mapping(doc, _configmap)


def _configmap(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    if text_of(get(document, "kind")) != "ConfigMap":
        return
    data = get(document, "data")
    name = text_of(get(get(document, "metadata"), "name")) or "?"
    for key, _knode, value in items(data):
        text = text_of(value) or ""
        if key.endswith((".sh", ".bash")) or text.startswith("#!"):
            yield from script_launches(yf, value, f"ConfigMap/{name} {key}", ScriptContext())
