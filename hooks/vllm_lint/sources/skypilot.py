"""SkyPilot task YAML: the `run:` script, `envs:`, and the release from `resources.image_id`
or a `pip install vllm==X` in `setup:`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from vllm_lint.model import Invocation, ReleaseEvidence, Token
from vllm_lint.read.shell import Value, VarValue
from vllm_lint.read.variables import install_text
from vllm_lint.read.yaml import YamlFile, get, is_scalar, text_of, text_token, token
from vllm_lint.release import image_evidence, pip_evidence
from vllm_lint.sources.document import Document
from vllm_lint.sources.yaml_scripts import (
    context_of,
    each_mapping,
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
    evidence: tuple[ReleaseEvidence, ...] = (image_evidence(image),) if image else ()
    evidence += _setup_pin(yf, get(document, "setup"), variables)
    context = context_of(yf, variables, run)
    yield from script_launches(yf, run, "SkyPilot run", context, image, evidence)


def _setup_pin(
    yf: YamlFile, setup: Any, variables: Mapping[str, VarValue]
) -> tuple[ReleaseEvidence, ...]:
    """`pip install vllm==X` in `setup` (its `${VERSION}` read from `envs`)."""
    text = text_of(setup)
    if not text:
        return ()
    known = {n: v.text for n, v in variables.items() if isinstance(v, Value) and not v.opaque}
    pinned = pip_evidence(install_text(text, known), f"setup, line {token(yf, setup).span.line}")
    return (pinned,) if pinned is not None else ()
