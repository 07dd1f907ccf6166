"""Shell commands → vLLM launches: shared by scripts, Dockerfiles, `sh -c` strings and the
`run:` blocks of CI and PaaS files.

A launch is `vllm serve …` / `python -m vllm.entrypoints.openai.api_server …` after any env
prefix and wrapper (`exec`, `nohup`, `uv run`, `timeout 60` …), a `docker run` of a vLLM server
image (its arguments are the server's, its tag names the release), or a nested `sh -c "…"`
whose string is read again with positions kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vllm_lint.files.textpos import MappedPositions, Positions
from vllm_lint.model import Invocation, ReleaseChoice, Span, Token
from vllm_lint.read.shell import ArrayValue, Command, Lexer, Value, VarValue, element_points
from vllm_lint.release import from_image
from vllm_lint.sources.programs import WRAPPERS, is_server_image, server_args

SHELLS = re.compile(r"(?:.*/)?(?:ba|da|z|k)?sh")
SHELL_C = re.compile(r"-[a-z]*c[a-z]*")  # -c, -lc, -ec …
_MAX_NESTING = 3

# Launchers that run the next word as the program; value-taking options are listed.
_LAUNCHERS: dict[str, frozenset[str]] = {
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "taskset": frozenset(),
    "numactl": frozenset(),
    "srun": frozenset(),
    "stdbuf": frozenset(),
    "nice": frozenset({"-n"}),
    "ionice": frozenset({"-c", "-n"}),
}
_UV_VALUE_OPTIONS = frozenset(
    {"--with", "--python", "-p", "--project", "--directory", "--env-file", "--extra", "--from"}
    | {"--group", "--index", "--index-url", "--extra-index-url", "--with-requirements"}
)
# Images built from vLLM's Dockerfiles with the same server entrypoint: the CPU build
# (`vllm/vllm-openai-cpu`, args-only in the corpus' workflows) and OPEA's vLLM images
# (OPEA's chart and compose files pass them server arguments only).
SERVER_IMAGE_VARIANTS = re.compile(
    r"(?:^|/)vllm-openai-cpu(?:[:@]|$)"
    r"|(?:^|/|^\$\{REGISTRY:-)opea\}?/vllm(?:-(?:gaudi|rocm|openvino))?(?:[:@]|$)"
)
_OPTIONAL_FLAG = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?\+-")
_DOCKER = re.compile(r"(?:.*/)?(?:docker|podman|nerdctl)")
_DOCKER_BOOL_SHORT = set("ditPq")
_DOCKER_BOOL_LONG = frozenset(
    {"--detach", "--interactive", "--tty", "--rm", "--privileged", "--init", "--publish-all"}
    | {"--read-only", "--oom-kill-disable", "--no-healthcheck", "--quiet", "--help"}
)


@dataclass(frozen=True)
class Launch:
    """One vLLM server start found in shell words."""

    argv: tuple[Token, ...]
    env: dict[str, Token]
    anchor: Span
    image: Token | None = None  # the image of a `docker run`
    conditional: bool = False


@dataclass
class ScriptContext:
    """What a script's launches inherit: the variables it starts with, and kubelet's."""

    variables: dict[str, VarValue] = field(default_factory=dict)
    kube_vars: Mapping[str, str] = field(default_factory=dict)
    exported: dict[str, Token] = field(default_factory=dict)


def launches_in(text: str, positions: Positions, context: ScriptContext) -> Iterator[Launch]:
    """Every vLLM launch of a script."""
    lexer = Lexer(text, positions, context.variables, context.kube_vars, context.exported)
    yield from _scan(lexer, 0)
    # the next script of the same session (dstack `commands:`) sees what this one assigned
    context.variables, context.exported = lexer.variables, lexer.exported


def _scan(lexer: Lexer, depth: int) -> Iterator[Launch]:
    for command in lexer.commands():
        yield from launches_of(command, lexer.path, depth)


def launches_of(command: Command, path: str, depth: int = 0) -> Iterator[Launch]:
    words = list(command.words)
    points = list(command.points) or [element_points(w) for w in words]
    start, env = _unwrap(words)
    found = server_args(words[start:])
    if found is not None:
        first, prefix_env = found
        first += start
        program = _program(words, start, first)
        yield Launch(
            tuple(words[first:]),
            {**command.exported, **env, **{k: _value_of(t) for k, t in prefix_env.items()}},
            anchor_of(program),
            None,
            command.conditional,
        )
        return
    docker = _docker_run(words, start)
    if docker is not None:
        yield docker.with_env(command.exported, command.conditional)
        return
    shell_at = _shell_c(words, start)
    if shell_at is not None and depth < _MAX_NESTING and shell_at + 1 < len(words):
        script, script_points = words[shell_at + 1], points[shell_at + 1]
        if script.opaque or not script.text:
            return
        variables: dict[str, VarValue] = {
            name: (None if tok.opaque else Value(tok.text, element_points(tok)))
            for name, tok in command.exported.items()
        }
        rest = words[shell_at + 2 :]
        if rest:
            variables["0"] = None if rest[0].opaque else rest[0].text
            variables["@"] = ArrayValue(tuple(rest[1:]))
        positions = MappedPositions(
            path, script_points, script_points[0] if script_points else (1, 1)
        )
        inner = Lexer(script.text, positions, variables, {}, dict(command.exported))
        yield from _scan(inner, depth + 1)


def _value_of(assignment: Token) -> Token:
    """`NAME=value` → the value, spanning only itself when it is on one line."""
    name, eq, value = assignment.text.partition("=")
    if not eq:
        return assignment
    span = assignment.span
    if span.line == span.end_line and value:
        span = Span(span.path, span.line, span.col + len(name) + 1, span.end_line, span.end_col)
    return Token(value, span, assignment.opaque)


def _program(words: Sequence[Token], start: int, first: int) -> Sequence[Token]:
    """The words naming the program: `vllm serve`, `python3 -u -m <module>`."""
    k = first - 1
    while k > start:
        before = words[k - 1].text
        if before in WRAPPERS or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", before, re.S):
            break
        k -= 1
    return words[k:first] or words[first - 1 : first]


def anchor_of(program: Sequence[Token]) -> Span:
    """The span of the words that start the server (`vllm serve`, `python -m …`)."""
    first, last = program[0].span, program[-1].span
    if first.path == last.path and (first.line, first.col) <= (last.line, last.col):
        return Span(first.path, first.line, first.col, last.end_line, last.end_col)
    return first


def _unwrap(words: Sequence[Token]) -> tuple[int, dict[str, Token]]:
    """Skip env prefixes and launchers that `server_args` does not know (`uv run`, `timeout`)."""
    env: dict[str, Token] = {}
    i = 0
    while i < len(words):
        text = words[i].text
        if "=" in text and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", text, re.S):
            env[text.partition("=")[0]] = _value_of(words[i])
            i += 1
            continue
        if text in ("uv", "uvx") or (text in _LAUNCHERS and i + 1 < len(words)):
            i += 1
            if text == "uv" and i < len(words) and words[i].text == "run":
                i += 1
            values = _UV_VALUE_OPTIONS if text in ("uv", "uvx") else _LAUNCHERS[text]
            while i < len(words) and words[i].text.startswith("-"):
                i += 2 if words[i].text in values else 1
            if text == "timeout" and i < len(words):
                i += 1  # the duration
            if text == "uvx" and i + 1 < len(words) and words[i].text == "vllm":
                return i, env  # `uvx vllm serve`: the package name is the program
            continue
        break
    # server_args reads the env prefix again itself; hand it everything from the first prefix
    first_prefix = 0
    while first_prefix < i and "=" in words[first_prefix].text:
        first_prefix += 1
    return (0 if i == first_prefix else i), env


def _shell_c(words: Sequence[Token], start: int) -> int | None:
    """The index of `-c` in `[exec] sh [-opts] -c SCRIPT …`."""
    i = start
    while i < len(words) and (
        words[i].text in ("exec", "nohup", "sudo", "env", "su")
        or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[i].text, re.S)
    ):
        i += 1
    if i >= len(words) or not SHELLS.fullmatch(words[i].text):
        return None
    k = i + 1
    while k < len(words) and words[k].text.startswith("-"):
        if SHELL_C.fullmatch(words[k].text):
            if k + 1 < len(words) and words[k + 1].text == "--":
                return k + 1  # `bash -c -- SCRIPT`
            return k
        k += 1
    return None


@dataclass(frozen=True)
class _Docker:
    argv: tuple[Token, ...]
    env: dict[str, Token]
    anchor: Span
    image: Token | None

    def with_env(self, exported: Mapping[str, Token], conditional: bool) -> Launch:
        return Launch(self.argv, {**self.env}, self.anchor, self.image, conditional)


def _docker_run(words: Sequence[Token], start: int) -> _Docker | None:
    """`docker run [options] IMAGE [args]` that starts the vLLM server."""
    i = start
    while i < len(words) and words[i].text in ("sudo", "exec", "nohup"):
        i += 1
    if i + 1 >= len(words) or not _DOCKER.fullmatch(words[i].text):
        return None
    k = i + 1
    if words[k].text == "container":
        k += 1
    if k >= len(words) or words[k].text != "run":
        return None
    k += 1
    env: dict[str, Token] = {}
    entrypoint: Token | None = None
    while k < len(words) and (
        (words[k].text.startswith("-") and not words[k].opaque)
        or _OPTIONAL_FLAG.match(words[k].text)
    ):
        if _OPTIONAL_FLAG.match(words[k].text):  # `${X:+--env "X=$X"}`: maybe an option
            k += 1
            continue
        opt, eq, inline = words[k].text.partition("=")
        takes_value = not (
            opt in _DOCKER_BOOL_LONG
            or (not opt.startswith("--") and set(opt[1:]) <= _DOCKER_BOOL_SHORT)
        )
        value: Token | None = None
        if takes_value and eq:
            value = Token(inline, words[k].span, words[k].opaque)
            k += 1
        elif takes_value and k + 1 < len(words):
            value = words[k + 1]
            k += 2
        else:
            k += 1
        if value is None:
            continue
        if opt in ("-e", "--env"):
            name, has, val = value.text.partition("=")
            env[name] = Token(val, value.span, value.opaque or not has)
        elif opt == "--entrypoint":
            entrypoint = value
    if k >= len(words):
        return None
    image, args = words[k], list(words[k + 1 :])
    run_words = words[i : k + 1]
    if entrypoint is not None:
        found = server_args([entrypoint, *args])
        if found is None:
            return None
        return _Docker(tuple(args[found[0] - 1 :]), env, anchor_of(run_words), image)
    found = server_args(args)
    if found is not None:
        return _Docker(tuple(args[found[0] :]), env, anchor_of(run_words), image)
    if server_image(image):
        return _Docker(tuple(args), env, anchor_of(run_words), image)
    return None


def server_image(image: Token) -> bool:
    """An image whose entrypoint is the vLLM server; `vllm/vllm-openai:${TAG}` counts, its
    repository being literal even if the tag is not."""
    text = image.text
    if image.opaque:
        text = re.sub(r"[:@].*", "", text) + ":x"
        if "$" in text or "{" in text:
            return False
    return is_server_image(text) or bool(SERVER_IMAGE_VARIANTS.search(text))


def release_hint(image: Token | None) -> ReleaseChoice | None:
    if image is None or image.opaque:
        return None
    return from_image(image.text) if is_server_image(image.text) else None


def invocation(
    path: str,
    launch: Launch,
    origin: str,
    base_dir: str,
    image: Token | None = None,
    hint: ReleaseChoice | None = None,
    extra_env: Mapping[str, Token] | None = None,
) -> Invocation:
    image = launch.image or image
    if launch.image is not None:
        hint = release_hint(launch.image) or hint
    return Invocation(
        path=path,
        argv=launch.argv,
        env={**(extra_env or {}), **launch.env},
        origin=origin,
        image=image,
        version_hint=hint,
        base_dir=base_dir,
        partial=any(t.opaque for t in launch.argv),
        anchor=launch.anchor,
    )


def opaque_templates(inv: Invocation) -> Invocation:
    """Words holding a template expression (`{{ … }}`) are rendered later: never judged."""
    changed = False
    argv = []
    for tok in inv.argv:
        if not tok.opaque and "{{" in tok.text and "}}" in tok.text:
            tok = Token(tok.text, tok.span, opaque=True)
            changed = True
        argv.append(tok)
    if not changed:
        return inv
    from dataclasses import replace

    return replace(inv, argv=tuple(argv), partial=True)


def yaml_invocation(
    yf: Any,
    argv: Sequence[Token],
    origin: str,
    anchor: Any,
    image: Token | None = None,
    env: dict[str, Token] | None = None,
    hint: ReleaseChoice | None = None,
) -> Invocation:
    """A launch that a YAML structure (chart values, an operator resource) stands for."""
    from pathlib import Path

    from vllm_lint.read.yaml import span

    return Invocation(
        path=yf.path,
        argv=tuple(argv),
        env=env or {},
        origin=origin,
        image=image,
        version_hint=hint or release_hint(image),
        base_dir=str(Path(yf.path).parent),
        partial=any(t.opaque for t in argv),
        anchor=span(yf, anchor),
    )
