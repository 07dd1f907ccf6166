"""dstack configurations: `commands:` run as one shell session, with `env:` and `image:`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation
from vllm_lint.read.yaml import (
    YamlFile,
    get,
    is_sequence,
    text_token,
)
from vllm_lint.sources.document import Document
from vllm_lint.sources.yaml_scripts import (
    context_of,
    each_mapping,
    script_launches,
    variables_of,
)


def find(doc: Document) -> Iterator[Invocation]:
    return each_mapping(doc, _dstack)


def _dstack(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    commands = get(document, "commands")
    if not is_sequence(commands):
        return
    variables = variables_of(yf, get(document, "env"))
    image_node = get(document, "image")
    image = text_token(yf, image_node)
    context = context_of(yf, variables, commands.value[0] if commands.value else None)
    for item in commands.value:  # one shell session: variables carry over
        yield from script_launches(yf, item, "dstack commands", context, image)
