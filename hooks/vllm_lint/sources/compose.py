"""docker-compose files: each service under `services` with an image, command or entrypoint."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from vllm_lint.model import Invocation, Mount, Token
from vllm_lint.read.shell import Lexer
from vllm_lint.read.yaml import (
    YamlFile,
    get,
    is_mapping,
    is_scalar,
    is_sequence,
    items,
    scalar_positions,
    text_of,
    token,
)
from vllm_lint.sources import hardware
from vllm_lint.sources.commandline import Word, invocations
from vllm_lint.sources.document import Document


def find(doc: Document) -> Iterator[Invocation]:
    yf = doc.yf
    for document in yf.documents:
        services = get(document, "services")
        if not is_mapping(services):
            continue
        for name, _key, service in items(services):
            if is_mapping(service):
                yield from _service(yf, name, service)


# compose interpolates `$VAR` / `${VAR:-default}` from the host environment (`$$` is a `$`)
_INTERPOLATION = re.compile(r"(?<!\$)\$(?:\{|[A-Za-z_])")


def _word(yf: YamlFile, node: Any) -> Word:
    tok = token(yf, node)
    if _INTERPOLATION.search(tok.text):
        tok = Token(tok.text, tok.span, opaque=True)
    return Word(tok, node)


def _words(yf: YamlFile, node: Any) -> list[Word]:
    """Compose splits a string command like a shell would, without running one."""
    if is_sequence(node):
        return [_word(yf, item) for item in node.value if is_scalar(item)]
    text = text_of(node)
    if text is None:
        return []
    lexer = Lexer(text, scalar_positions(yf, node))
    return [Word(tok) for command in lexer.commands() for tok in command.words]


def _environment(yf: YamlFile, node: Any) -> dict[str, Token]:
    env: dict[str, Token] = {}
    if is_mapping(node):
        for name, _key, value in items(node):
            text = text_of(value)
            env[name] = (
                token(yf, value) if text is not None else Token("", token(yf, _key).span, True)
            )
    elif is_sequence(node):
        for item in node.value:
            text = text_of(item)
            if text is None:
                continue
            name, eq, value = text.partition("=")
            tok = token(yf, item)
            env[name] = Token(value, tok.span, opaque=not eq or "${" in value)
    for name, tok in list(env.items()):
        if "${" in tok.text or tok.text.startswith("$"):
            env[name] = Token(tok.text, tok.span, opaque=True)  # compose interpolation
    return env


def _service(yf: YamlFile, name: str, service: Any) -> Iterator[Invocation]:
    image_node = get(service, "image")
    image = token(yf, image_node) if text_of(image_node) else None
    entrypoint = get(service, "entrypoint")
    words = _words(yf, entrypoint) + _words(yf, get(service, "command"))
    yield from invocations(
        yf,
        words,
        _environment(yf, get(service, "environment")),
        image,
        f"compose service {name}",
        entrypoint_given=entrypoint is not None,
        mounts=_bind_mounts(yf, get(service, "volumes")),
        gpus=hardware.of_compose_service(yf, service),
    )


def _bind_mounts(yf: YamlFile, volumes: Any) -> tuple[Mount, ...]:
    """`./cfg:/etc/vllm[:ro]` and `{type: bind, source, target}`: repo paths in the container
    (relative sources are relative to the compose file's folder)."""
    if not is_sequence(volumes):
        return ()
    here = Path(yf.path).parent
    found = []
    for item in volumes.value:
        if is_mapping(item):
            if text_of(get(item, "type")) != "bind":
                continue
            source, target = text_of(get(item, "source")), text_of(get(item, "target"))
        else:
            text = text_of(item) or ""
            parts = text.split(":")
            if len(parts) < 2:
                continue
            source, target = parts[0], parts[1]
        if not source or not target or "$" in source + target:
            continue
        if not source.startswith((".", "/")):
            continue  # a named volume, not a path
        found.append(Mount(target, str(here / source)))
    return tuple(found)
