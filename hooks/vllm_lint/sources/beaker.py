"""Ai2 Beaker experiment specs (https://beaker-docs.apps.allenai.org/experiments/spec.html):
each of `tasks` runs `command` + `arguments` in its `image` with `envVars`, like a container."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation
from vllm_lint.read.yaml import YamlFile, get, is_mapping, is_sequence, text_of, text_token
from vllm_lint.sources.commandline import invocations
from vllm_lint.sources.document import Document
from vllm_lint.sources.kubernetes import env_list, words_of
from vllm_lint.sources.yaml_scripts import each_mapping


def find(doc: Document) -> Iterator[Invocation]:
    return each_mapping(doc, _spec)


def _spec(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    tasks = get(document, "tasks")
    if not is_sequence(tasks):
        return
    for index, task in enumerate(tasks.value):
        if not is_mapping(task) or get(task, "command") is None:
            continue
        image = get(task, "image")
        name = text_of(get(task, "name")) or f"task {index + 1}"
        image_token = text_token(yf, get(image, "docker")) if is_mapping(image) else None
        words = words_of(yf, get(task, "command")) + words_of(yf, get(task, "arguments"))
        yield from invocations(
            yf,
            words,
            env_list(yf, get(task, "envVars")),
            image_token,
            f"Beaker task {name}",
            entrypoint_given=True,
        )
