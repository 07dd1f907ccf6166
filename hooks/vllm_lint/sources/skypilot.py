"""SkyPilot task YAML: the `run:` script, `envs:`, and the release from `resources.image_id`
or a `pip install vllm==X` in `setup:`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation, ReleaseChoice, Token
from vllm_lint.read.yaml import YamlFile, get, is_scalar, text_of, text_token, token
from vllm_lint.release import pip_pin
from vllm_lint.sources.document import Document
from vllm_lint.sources.yaml_scripts import (
    context_of,
    each_mapping,
    image_release,
    script_launches,
    variables_of,
)


def find(doc: Document) -> Iterator[Invocation]:
    return each_mapping(doc, _skypilot)


def _skypilot(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    run = get(document, "run")
    if not is_scalar(run) or get(document, "jobs") is not None:
        return
    variables = variables_of(yf, get(document, "envs"))
    image = text_token(yf, get(get(document, "resources"), "image_id"))
    if image is not None:  # `docker:vllm/vllm-openai:v…`
        image = Token(image.text.removeprefix("docker:"), image.span, image.opaque)
    hint = image_release(image) or _setup_pin(yf, get(document, "setup"))
    yield from script_launches(yf, run, "SkyPilot run", context_of(yf, variables, run), image, hint)


def _setup_pin(yf: YamlFile, setup: Any) -> ReleaseChoice | None:
    text = text_of(setup)
    if not text:
        return None
    return pip_pin(text, f" in setup (line {token(yf, setup).span.line})")
