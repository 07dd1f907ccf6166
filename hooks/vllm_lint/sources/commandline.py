"""From a list of argv words (a container's command + args, a compose command) to invocations.

Shared by every YAML source: the words either launch the server directly, or hand a
script to a shell (`sh -c "…"`) whose commands are lexed, or are bare arguments to an
image whose entrypoint is the server.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..launch import is_server_image, mentions_server, server_args
from ..model import Invocation, ReleaseChoice, Token
from ..shell import Lexer
from ..versions import from_image
from ..yamlsrc import YamlFile, scalar_positions

_SHELLS = re.compile(r"(?:.*/)?(?:ba|da|z|k)?sh")
_SHELL_C = re.compile(r"-[a-z]*c[a-z]*")  # -c, -lc, -ec …
_KUBE_VAR = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


@dataclass(frozen=True)
class Word:
    """An argv word and, when it came straight from one YAML scalar, that scalar's node."""

    token: Token
    node: Any = None


def kube_substitute(word: Word, env: Mapping[str, Token]) -> Word:
    """kubelet's `$(VAR)` expansion from literal env values; an unknown one makes it opaque."""
    text = word.token.text
    if "$(" not in text:
        return word
    opaque = False

    def repl(match: re.Match[str]) -> str:
        nonlocal opaque
        value = env.get(match.group(1))
        if value is None or value.opaque:
            opaque = True
            return match.group(0)
        return value.text

    new = _KUBE_VAR.sub(repl, text)
    return Word(Token(new, word.token.span, opaque or word.token.opaque), word.node)


def invocations(
    yf: YamlFile,
    words: Sequence[Word],
    env: dict[str, Token],
    image: Token | None,
    origin: str,
    entrypoint_given: bool,
    kube_vars: Mapping[str, str] | None = None,
) -> Iterator[Invocation]:
    hint = _version_hint(image)
    tokens = [w.token for w in words]
    found = server_args(tokens)
    if found is not None:
        start, prefix_env = found
        yield _invocation(yf, tokens[start:], {**env, **prefix_env}, image, hint, origin)
        return
    for k in range(1, len(words)):
        if _SHELL_C.fullmatch(words[k - 1].token.text) and _is_shell_call(tokens[: k - 1]):
            script = words[k]
            if script.node is not None and mentions_server(script.token.text):
                yield from _script_invocations(yf, script, env, image, hint, origin, kube_vars)
            return
    if not entrypoint_given and image is not None and is_server_image(image.text):
        yield _invocation(yf, tokens, env, image, hint, origin)


def _is_shell_call(before: Sequence[Token]) -> bool:
    """`sh -c`, `/bin/bash -lc`…: the words before `-c` are a shell and its options."""
    if not before:  # args handed to an image whose entrypoint is a shell
        return True
    return bool(_SHELLS.fullmatch(before[0].text)) and all(
        t.text.startswith("-") for t in before[1:]
    )


def _script_invocations(
    yf: YamlFile,
    script: Word,
    env: dict[str, Token],
    image: Token | None,
    hint: ReleaseChoice | None,
    origin: str,
    kube_vars: Mapping[str, str] | None,
) -> Iterator[Invocation]:
    variables: dict[str, str | None] = {
        name: None if tok.opaque else tok.text for name, tok in env.items()
    }
    lexer = Lexer(
        str(script.node.value), scalar_positions(yf, script.node), variables, kube_vars or {}
    )
    for command in lexer.commands():
        found = server_args(command.words)
        if found is not None:
            start, prefix_env = found
            yield _invocation(yf, command.words[start:], {**env, **prefix_env}, image, hint, origin)


def _version_hint(image: Token | None) -> ReleaseChoice | None:
    if image is None or image.opaque:
        return None
    return from_image(image.text) if is_server_image(image.text) else None


def _invocation(
    yf: YamlFile,
    argv: Sequence[Token],
    env: dict[str, Token],
    image: Token | None,
    hint: ReleaseChoice | None,
    origin: str,
) -> Invocation:
    from pathlib import Path

    return Invocation(
        path=yf.path,
        argv=tuple(argv),
        env=dict(env),
        origin=origin,
        image=image,
        version_hint=hint,
        base_dir=str(Path(yf.path).parent),
        partial=any(t.opaque for t in argv),
    )
