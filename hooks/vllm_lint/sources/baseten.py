"""Baseten Truss configs: `docker_server.start_command`, `base_image.image`, and
`environment_variables`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation
from vllm_lint.read.yaml import YamlFile, get, text_token
from vllm_lint.sources.document import Document
from vllm_lint.sources.yaml_scripts import (
    context_of,
    each_mapping,
    script_launches,
    variables_of,
)


def find(doc: Document) -> Iterator[Invocation]:
    return each_mapping(doc, _baseten)


def _baseten(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    start = get(get(document, "docker_server"), "start_command")
    if start is None:
        return
    image_node = get(get(document, "base_image"), "image")
    image = text_token(yf, image_node)
    context = context_of(yf, variables_of(yf, get(document, "environment_variables")), start)
    yield from script_launches(yf, start, "Baseten start_command", context, image)
