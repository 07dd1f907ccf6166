"""Scripts carried in a ConfigMap's `data`: shell (`*.sh`, `*.bash`, or a shell's shebang)
and Python (`*.py`, or a Python shebang: a Ray Serve application a RayService imports, a
server started in-process), each read as the file it becomes when mounted, its places mapped
back to the ConfigMap's lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation
from vllm_lint.read.yaml import YamlFile, get, items, scalar_positions, text_of
from vllm_lint.sources.doc_blocks import Located, read_python
from vllm_lint.sources.document import Document
from vllm_lint.sources.shell_commands import ScriptContext
from vllm_lint.sources.yaml_scripts import each_mapping, script_launches


def find(doc: Document) -> Iterator[Invocation]:
    return each_mapping(doc, lambda yf, document: _configmap(doc, yf, document))


def _configmap(doc: Document, yf: YamlFile, document: Any) -> Iterator[Invocation]:
    if text_of(get(document, "kind")) != "ConfigMap":
        return
    data = get(document, "data")
    name = text_of(get(get(document, "metadata"), "name")) or "?"
    for key, _knode, value in items(data):
        text = text_of(value) or ""
        shebang = text.partition("\n")[0] if text.startswith("#!") else ""
        origin = f"ConfigMap/{name} {key}"
        if key.endswith(".py") or "python" in shebang:
            positions = scalar_positions(yf, value)
            yield from read_python(doc, Located(text, positions.at), origin)
        elif key.endswith((".sh", ".bash")) or shebang:
            yield from script_launches(yf, value, origin, ScriptContext())
