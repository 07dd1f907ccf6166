"""GitLab CI jobs (`script:` lists), Tekton steps and Argo script templates: `script:` /
`source:` outside a pod spec, with the job's `image:` and `variables:` / `env:`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation
from vllm_lint.read.yaml import (
    YamlFile,
    get,
    is_mapping,
    is_sequence,
    text_token,
    walk,
)
from vllm_lint.sources.document import Document
from vllm_lint.sources.yaml_scripts import (
    context_of,
    each_mapping,
    script_launches,
    variables_of,
)

_SCRIPT_KEYS = ("script", "source")


def find(doc: Document) -> Iterator[Invocation]:
    return each_mapping(doc, _ci_scripts)


def _ci_scripts(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    """GitLab CI jobs (`script:` lists), Tekton steps and Argo script templates."""
    for node in walk(document):
        if not is_mapping(node) or get(node, "containers") is not None:
            continue
        for key in _SCRIPT_KEYS:
            script = get(node, key)
            if script is None:
                continue
            image_node = get(node, "image")
            image = text_token(yf, image_node)
            variables = variables_of(yf, get(node, "variables") or get(node, "env"))
            context = context_of(yf, variables, script)
            lines = script.value if is_sequence(script) else [script]
            for line in lines:
                yield from script_launches(yf, line, f"{key}:", context, image)
