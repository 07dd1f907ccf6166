"""From a list of argv words (a container's command + args, a compose command) to invocations.

Shared by every YAML source: the words either launch the server directly, or hand a
script to a shell (`sh -c "…"`, the words after the script being `$0` and `$@`) whose
commands are lexed, or are bare arguments to an image whose entrypoint is the server.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from vllm_lint.files.textpos import Positions, align_scalar
from vllm_lint.images import image_text, runs_a_command, server_image_of
from vllm_lint.model import GpuGrant, Invocation, Mount, Token
from vllm_lint.read.shell import ArrayValue, Lexer, Value, VarValue
from vllm_lint.read.yaml import YamlFile, scalar_positions
from vllm_lint.sources.programs import mentions_server
from vllm_lint.sources.shell_commands import (
    SHELL_C,
    SHELLS,
    Launch,
    ScriptContext,
    anchor_of,
    launches_in,
    launches_of,
    opaque_templates,
    server_image,
)
from vllm_lint.sources.shell_commands import invocation as make_invocation

_KUBE_VAR = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


class Word(NamedTuple):
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
    mounts: tuple[Mount, ...] = (),
    gpus: tuple[GpuGrant, ...] = (),
) -> Iterator[Invocation]:
    """The launches of a container's (or service's) words; `gpus`: what its carrier grants it
    (its own `docker run --gpus`-style options inside the words come on top)."""
    for found in _invocations(yf, words, env, image, origin, entrypoint_given, kube_vars):
        if mounts:
            found = found._replace(mounts=mounts)
        yield found._replace(gpus=(*gpus, *found.gpus)) if gpus else found


def _invocations(
    yf: YamlFile,
    words: Sequence[Word],
    env: dict[str, Token],
    image: Token | None,
    origin: str,
    entrypoint_given: bool,
    kube_vars: Mapping[str, str] | None = None,
) -> Iterator[Invocation]:
    tokens = [w.token for w in words]
    base = str(Path(yf.path).parent)
    from vllm_lint.read.shell import Command

    direct = list(launches_of(Command(tuple(tokens)), yf.path, depth=99)) if tokens else []
    if direct and direct[0].image is None:
        launch = direct[0]
        env_all = {**env, **launch.env}
        yield _finish(make_invocation(yf.path, _with_env(launch, env_all), origin, base, image))
        return
    for k in range(1, len(words)):
        if SHELL_C.fullmatch(words[k - 1].token.text) and _is_shell_call(tokens[: k - 1]):
            if words[k].token.text == "--" and k + 1 < len(words):
                k += 1  # `bash -lc -- SCRIPT`: `--` ends the options
            script = words[k]
            # kubelet's `$(VAR)` is left to the lexer, which knows the literal ones
            text = str(script.node.value) if script.node is not None else script.token.text
            # an opaque word keeps its source text: unknown `${X}` stay opaque when re-read
            if mentions_server(text):
                context = _context(yf, env, kube_vars, words[k + 1 :])
                for launch in launches_in(text, _positions(yf, script), context):
                    yield _finish(
                        make_invocation(yf.path, launch, origin, base, image, extra_env=env)
                    )
            return
    if entrypoint_given or image is None:
        return
    if tokens and runs_a_command(tokens[0]):  # `args: ["sleep", "infinity"]`: not the server's
        return
    if server_image(image):
        launch = Launch(tuple(tokens), dict(env), anchor_of([image]), entrypoint="image")
        yield _finish(make_invocation(yf.path, launch, origin, base, image))
        return
    found = server_image_of(image_text(image))
    if found is not None and found.args.startswith("env:") and not tokens:
        yield from _env_args(yf, found.args[4:], env, image, origin, base)


def _env_args(
    yf: YamlFile,
    name: str,
    env: dict[str, Token],
    image: Token,
    origin: str,
    base: str,
) -> Iterator[Invocation]:
    """An image whose entrypoint reads the server's flags from one variable (`VLLM_ARGS` of
    vllm-tpu): the variable's literal value, split as the shell splits it."""
    value = env.get(name)
    if value is None or value.opaque:
        return
    lexer = Lexer(value.text, located_positions(yf, value))
    argv = tuple(t for command in lexer.commands() for t in command.words)
    launch = Launch(argv, dict(env), anchor_of([image]), entrypoint="image")
    yield _finish(make_invocation(yf.path, launch, origin, base, image))


def located(yf: YamlFile, tok: Token) -> Value:
    """The value of a scalar token with the place of each of its characters."""
    offset = yf.positions.offset(tok.span.line - 1, tok.span.col - 1)
    block = yf.text[offset : offset + 1] in ("|", ">")
    positions = align_scalar(tok.text, yf.text, offset, yf.positions, block)
    return Value(tok.text, tuple(positions.at(k) for k in range(len(tok.text))))


def _context(
    yf: YamlFile,
    env: Mapping[str, Token],
    kube_vars: Mapping[str, str] | None,
    after_script: Sequence[Word],
) -> ScriptContext:
    variables: dict[str, VarValue] = {
        name: None if tok.opaque else located(yf, tok) for name, tok in env.items()
    }
    if after_script:  # `sh -c SCRIPT $0 $1 …`
        first = after_script[0].token
        variables["0"] = None if first.opaque else first.text
        variables["@"] = ArrayValue(tuple(w.token for w in after_script[1:]))
    exported = {name: tok for name, tok in env.items()}
    return ScriptContext(variables, dict(kube_vars or {}), exported)


def _positions(yf: YamlFile, script: Word) -> Positions:
    if script.node is not None:
        return scalar_positions(yf, script.node)
    # a word lexed out of a string command: find its characters in the file
    return located_positions(yf, script.token)


def located_positions(yf: YamlFile, tok: Token) -> Positions:
    offset = yf.positions.offset(tok.span.line - 1, tok.span.col - 1)
    return align_scalar(tok.text, yf.text, offset, yf.positions, False)


def _with_env(launch: Launch, env: dict[str, Token]) -> Launch:
    return launch._replace(env=env)


def _finish(inv: Invocation) -> Invocation:
    return opaque_templates(inv)


def _is_shell_call(before: Sequence[Token]) -> bool:
    """`sh -c`, `/bin/bash -lc`…: the words before `-c` are a shell and its options."""
    if not before:  # args handed to an image whose entrypoint is a shell
        return True
    return bool(SHELLS.fullmatch(before[0].text)) and all(
        t.text.startswith("-") for t in before[1:]
    )
