"""Shell commands → vLLM launches: shared by scripts, Dockerfiles, `sh -c` strings and the
`run:` blocks of CI and PaaS files.

A launch is `vllm serve …` / `python -m vllm.entrypoints.openai.api_server …` after any env
prefix and wrapper (`exec`, `nohup`, `uv run`, `timeout 60` …), a `docker run` of a vLLM server
image (its arguments are the server's, its tag names the release), or a nested `sh -c "…"`
whose string is read again with positions kept.
"""

from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from vllm_lint.files.textpos import MappedPositions, Positions
from vllm_lint.images import image_text, runs_a_command, server_image_of
from vllm_lint.model import GpuGrant, Invocation, ReleaseEvidence, Span, Token
from vllm_lint.read.shell import (
    TEMPLATE_MARK,
    ArrayValue,
    Command,
    Lexer,
    Point,
    Sourcer,
    Value,
    VarValue,
    drop_gaps,
    element_points,
)
from vllm_lint.release import image_evidence
from vllm_lint.sources import hardware
from vllm_lint.sources.launchers import Wrapped
from vllm_lint.sources.programs import (
    find_server,
    module_at,
    program_at,
    skip_wrappers,
)

SHELLS = re.compile(r"(?:.*/)?(?:ba|da|z|k)?sh")
# -c, -lc, -ec …: letters only, one of them `c` (`-[a-z]*c[a-z]*` backtracked quadratically)
SHELL_C = re.compile(r"-(?=[a-z]*c)[a-z]+")
_MAX_NESTING = 3
_OPTIONAL_FLAG = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?\+-")


class Launch(NamedTuple):
    """One vLLM server start found in shell words."""

    argv: tuple[Token, ...]
    env: Mapping[str, Token]  # may be a ChainMap view over the exports (see _launches_of)
    anchor: Span
    image: Token | None = None  # the image of a `docker run`
    conditional: bool = False
    entrypoint: str = "vllm serve"  # what starts the server (`programs.ServerCall.entrypoint`)
    pin: str | None = None  # a release the command itself pins (`uvx vllm@0.9.1`)
    via: str = ""  # the container launcher it runs in (`docker run`, `apptainer exec`)
    gpus: tuple[GpuGrant, ...] = ()  # what its launchers grant it (`docker run --gpus 2`)


class ScriptContext:
    """What a script's launches inherit: the variables it starts with, and kubelet's."""

    __slots__ = ("exported", "kube_vars", "source", "variables")

    def __init__(
        self,
        variables: dict[str, VarValue] | None = None,
        kube_vars: Mapping[str, str] | None = None,
        exported: dict[str, Token] | None = None,
        source: Sourcer | None = None,  # reads a file `source`d by the script (in the repo)
    ) -> None:
        self.variables: dict[str, VarValue] = {} if variables is None else variables
        self.kube_vars: Mapping[str, str] = {} if kube_vars is None else kube_vars
        self.exported: dict[str, Token] = {} if exported is None else exported
        self.source = source


class _Kept:
    """Positions of a text some of whose characters were taken out (`drop_gaps`)."""

    def __init__(self, inner: Positions, kept: Sequence[int]) -> None:
        self.path = inner.path
        self._inner = inner
        self._kept = kept

    def at(self, index: int) -> tuple[int, int]:
        if 0 <= index < len(self._kept):
            return self._inner.at(self._kept[index])
        return self._inner.at(self._kept[-1] + 1 if self._kept else 0)


def launches_in(text: str, positions: Positions, context: ScriptContext) -> Iterator[Launch]:
    """Every vLLM launch of a script."""
    kept = drop_gaps(text)
    if kept is not None:  # lines a template rendering leaves out (read/templates.py)
        text, positions = "".join(text[k] for k in kept), _Kept(positions, kept)
    lexer = Lexer(
        text,
        positions,
        context.variables,
        context.kube_vars,
        context.exported,
        source=context.source,
    )
    yield from _scan(lexer, 0)
    # the next script of the same session (dstack `commands:`) sees what this one assigned
    context.variables, context.exported = lexer.variables, lexer.exported


def _scan(lexer: Lexer, depth: int) -> Iterator[Launch]:
    for command in lexer.commands():
        yield from launches_of(command, lexer.path, depth)


def launches_of(command: Command, path: str, depth: int = 0) -> Iterator[Launch]:
    seen: list[Wrapped] = []
    for launch in _launches_of(command, path, depth, seen):
        granted = hardware.of_launchers(seen)
        if granted:  # the outer launchers' grants first (`srun --gres … docker run --gpus …`)
            launch = launch._replace(gpus=hardware.merged(granted, launch.gpus))
        yield launch


def _launches_of(command: Command, path: str, depth: int, seen: list[Wrapped]) -> Iterator[Launch]:
    words = list(command.words)
    points = list(command.points) or [element_points(w) for w in words]
    words, points = _skip_alternatives(words, points, command)
    found, i, env, wrapped, pin = skip_wrappers(words, seen)
    if found is not words:  # a launcher rewrote the words (`pm2 start vllm -- serve …`)
        # a word it kept, or rewrote to as many characters, keeps the place of each one
        place = {w.span: p for w, p in zip(words, points, strict=False)}
        points = [
            place[w.span] if len(place.get(w.span, ())) == len(w.text) else element_points(w)
            for w in found
        ]
    # a view, not a copy: the exports so far are made into a table only for a launch that
    # reads them (a copy per command grew as the square of a script of exports)
    prefix_env = ChainMap({k: _value_of(t) for k, t in env.items()}, command.exported)  # type: ignore[arg-type]  # read only
    if wrapped is None:
        program = program_at(found, i)
        if program is not None:
            first, entrypoint = program
            yield Launch(
                tuple(found[first:]),
                prefix_env,
                anchor_of(found[i:first]),
                None,
                command.conditional,
                entrypoint,
                pin,
            )
        return
    if wrapped.kind == "python-module":
        module = module_at(found, wrapped.start)
        if module is not None:
            yield Launch(
                tuple(found[module[0] :]),
                prefix_env,
                anchor_of(found[wrapped.start : module[0]]),
                None,
                command.conditional,
                module[1],
                pin,
            )
        return
    if wrapped.kind == "container":
        launch = _container(found, points, i, wrapped, path, depth, command)
        if launch is not None:
            yield launch
        return
    if wrapped.kind == "string" and wrapped.string is not None and depth < _MAX_NESTING:
        index = next((k for k, w in enumerate(found) if w is wrapped.string), None)
        same = found is words and index is not None and index < len(command.unknown)
        if index is None:  # a launcher rewrote the word (`parallel "vllm serve {} …"`)
            index = next((k for k, w in enumerate(found) if w.span == wrapped.string.span), None)
        yield from _string_command(
            wrapped.string,
            points[index] if index is not None else element_points(wrapped.string),
            command.unknown[index] if same and index is not None else None,
            wrapped.string_args,
            path,
            depth,
            prefix_env,
            command.alternatives,
        )


def _skip_alternatives(
    words: list[Token], points: list[tuple[Point, ...]], command: Command
) -> tuple[list[Token], list[tuple[Point, ...]]]:
    """`${NSYS_CMD} vllm serve …` where every value the script gives NSYS_CMD is empty or a
    launcher (`NSYS_CMD="nsys profile"` on one branch): the word is left out, as it runs
    the command that follows either way."""
    k = 0
    while k < len(words) and words[k].opaque:
        if "{{" in words[k].text or TEMPLATE_MARK in words[k].text:
            k += 1  # `{{ prefix }} vllm serve …` in a template: the launch as written
            continue
        name = _VAR_WORD.fullmatch(words[k].text)
        values = command.alternatives.get(name.group(1) or name.group(2)) if name else None
        if not values or not all(_runs_next(v) for v in values):
            break
        k += 1
    return (words[k:], points[k:]) if k else (words, points)


_VAR_WORD = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _runs_next(value: str) -> bool:
    """A variable's value that, put before a command, still runs that command."""
    words = value.split()
    if not words:
        return True
    tokens = [Token(w, Span("", 1, 1, 1, 1)) for w in [*words, "vllm", "serve"]]
    found, i, _env, wrapped, _pin = skip_wrappers(tokens)
    return wrapped is None and i == len(found) - 2


def _string_command(
    script: Token,
    script_points: Sequence[Point],
    unknown: frozenset[int] | None,
    rest: Sequence[Token],
    path: str,
    depth: int,
    exported: Mapping[str, Token],
    alternatives: Mapping[str, frozenset[str]] | None = None,
) -> Iterator[Launch]:
    """A command written as one string (`bash -c "…"`, `pm2 start "…"`, `sbatch --wrap "…"`),
    read again with the place of each character kept; the characters that were not known
    (an unknown `$1` in it) make the words holding them unknown."""
    if not script.text:
        return
    kept = drop_gaps(script.text)
    if kept is not None:  # lines a template rendering leaves out (read/templates.py)
        old = set(unknown) if unknown is not None else None
        script = Token("".join(script.text[k] for k in kept), script.span, script.opaque)
        last = script_points[-1] if script_points else None
        script_points = [script_points[k] if k < len(script_points) else last for k in kept]  # type: ignore[misc]
        if old is not None:
            unknown = frozenset(n for n, k in enumerate(kept) if k in old)
    if unknown is None:
        # an unknown script whose unknown characters are marked (an xargs or parallel
        # placeholder, a Python f-string's field) is read; the marks are unknown to the lexer
        marked = script.opaque and TEMPLATE_MARK in script.text
        every = frozenset(range(len(script.text)))
        unknown = every if script.opaque and not marked else frozenset()
    if len(unknown) == len(script.text):
        return
    variables: dict[str, VarValue] = {
        name: (None if tok.opaque else Value(tok.text, element_points(tok)))
        for name, tok in exported.items()
    }
    if rest:
        variables["0"] = None if rest[0].opaque else rest[0].text
        variables["@"] = ArrayValue(tuple(rest[1:]))
    positions = MappedPositions(
        path, tuple(script_points), script_points[0] if script_points else (1, 1)
    )
    inner = Lexer(
        script.text,
        positions,
        variables,
        {},
        dict(exported),
        unknown=unknown,
        alternatives=alternatives,
    )
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


def anchor_of(program: Sequence[Token]) -> Span:
    """The span of the words that start the server (`vllm serve`, `python -m …`)."""
    first, last = program[0].span, program[-1].span
    if first.path == last.path and (first.line, first.col) <= (last.line, last.col):
        return Span(first.path, first.line, first.col, last.end_line, last.end_col)
    return first


def _container(
    words: Sequence[Token],
    points: Sequence[tuple[Point, ...]],
    at: int,
    wrapped: Wrapped,
    path: str,
    depth: int,
    command: Command,
) -> Launch | None:
    """`docker run [options] IMAGE [args]`, `apptainer exec IMAGE cmd`, `kubectl run`: the
    server started inside, or the arguments handed to an image whose entrypoint is it."""
    image = wrapped.image
    args = list(words[wrapped.start :])
    env = dict(wrapped.env)
    if wrapped.entrypoint is not None:
        call = find_server([wrapped.entrypoint, *args])
        if call is None:
            return _shell_entrypoint(words, points, wrapped, path, depth, command)
        return Launch(
            call.argv,
            env,
            anchor_of(args[: call.first - 1] or [wrapped.entrypoint]),
            image,
            command.conditional,
            call.entrypoint,
            None,
            wrapped.launcher.id,
        )
    inner = _tail(command, words, points, wrapped.start)
    if args and depth < _MAX_NESTING:
        for launch in launches_of(inner, path, depth + 1):
            return Launch(
                launch.argv,
                {**env, **launch.env},
                launch.anchor,
                launch.image or image,
                command.conditional,
                launch.entrypoint,
                launch.pin,
                launch.via or wrapped.launcher.id,
                launch.gpus,
            )
    if image is not None and image.opaque and args and depth < _MAX_NESTING:
        # `docker run $EXTRA_ARGS $IMAGE bash -c "…"`: an unknown word may be options, the
        # image a later unknown word; the command after it tells
        for k in range(wrapped.start, len(words)):
            maybe_image = words[k].opaque or ":" in words[k].text or "/" in words[k].text
            if not maybe_image or k + 1 >= len(words) or words[k + 1].opaque:
                continue
            rest = _tail(command, words, points, k + 1)
            for launch in launches_of(rest, path, depth + 1):
                return launch._replace(
                    env={**env, **launch.env},
                    image=launch.image or words[k],
                    via=launch.via or wrapped.launcher.id,
                )
    if image is not None and image.opaque:  # `$IMAGE` from `IMAGE=${IMAGE:-vllm/vllm-openai:v1}`
        ref = _VAR_WORD.fullmatch(image.text)
        shape = command.shapes.get(ref.group(1) or ref.group(2)) if ref else None
        if shape is not None:
            image = Token(shape, image.span, opaque=True)
    if wrapped.run_command or image is None or not server_image(image):
        return None
    if args and runs_a_command(args[0]):  # `docker run vllm/vllm-openai /bin/bash`
        return None
    anchor = _written(words, image, command)
    via = wrapped.launcher.id
    return Launch(tuple(args), env, anchor, image, command.conditional, "image", None, via)


def _shell_entrypoint(
    words: Sequence[Token],
    points: Sequence[tuple[Point, ...]],
    wrapped: Wrapped,
    path: str,
    depth: int,
    command: Command,
) -> Launch | None:
    """`docker run --entrypoint /bin/bash IMAGE -c "vllm serve …"`: the shell's string, read
    as the shell would read it, with the places of its characters kept."""
    entrypoint = wrapped.entrypoint
    at = next((k for k, w in enumerate(words) if w is entrypoint), None)
    if at is None or depth >= _MAX_NESTING or entrypoint is None:
        return None
    if not SHELLS.fullmatch(entrypoint.text) or len(points) != len(words):
        return None
    shell = Command(
        (entrypoint, *words[wrapped.start :]),
        (points[at], *points[wrapped.start :]),
        command.conditional,
        {},
        command.alternatives,
        (),
        command.shapes,
    )
    for launch in launches_of(shell, path, depth + 1):
        return launch._replace(
            env={**wrapped.env, **launch.env},
            image=launch.image or wrapped.image,
            via=launch.via or wrapped.launcher.id,
        )
    return None


def _tail(
    command: Command, words: Sequence[Token], points: Sequence[tuple[Point, ...]], at: int
) -> Command:
    """The command that starts at `words[at]` (what a container runs), with what is known of
    its words."""
    same = len(words) == len(command.words)
    return Command(
        tuple(words[at:]),
        tuple(points[at:]),
        command.conditional,
        {},
        command.alternatives,
        command.starts[at:] if same else (),
        command.shapes,
        command.unknown[at:] if same else (),
    )


def _written(words: Sequence[Token], word: Token, command: Command) -> Span:
    """Where `word` is written in the command (`$IMAGE`), not where its value came from."""
    index = next((k for k, w in enumerate(words) if w is word), None)
    if index is None or index >= len(command.starts) or len(words) != len(command.words):
        return anchor_of([word])
    line, col = command.starts[index]
    return Span(word.span.path, line, col, line, col + 1)


def server_image(image: Token) -> bool:
    """An image whose entrypoint takes the server's arguments; `vllm/vllm-openai:${TAG}` counts,
    its repository being literal even if the tag is not, and so does `${IMAGE:-vllm/vllm-openai:…}`
    (the image the file writes when nothing overrides it)."""
    found = server_image_of(image_text(image))
    return found is not None and found.args == "argv"


def invocation(
    path: str,
    launch: Launch,
    origin: str,
    base_dir: str,
    image: Token | None = None,
    evidence: Sequence[ReleaseEvidence] = (),
    extra_env: Mapping[str, Token] | None = None,
) -> Invocation:
    """The launch as an Invocation; what names its release, most specific first: the
    command's own pin (`uvx vllm@0.9.1 serve`), the image it runs, then `evidence` (what the
    file around it installs or runs)."""
    own: list[ReleaseEvidence] = []
    if launch.pin is not None:
        own.append(ReleaseEvidence("command", launch.pin))
    if launch.image is not None:
        own.append(image_evidence(launch.image))
    image = launch.image or image
    return Invocation(
        path=path,
        argv=launch.argv,
        env={**(extra_env or {}), **launch.env},
        origin=origin,
        image=image,
        release_evidence=(*own, *evidence),
        base_dir=base_dir,
        partial=any(t.opaque for t in launch.argv),
        anchor=launch.anchor,
        entrypoint=launch.entrypoint,
        gpus=launch.gpus,
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

    return inv._replace(argv=tuple(argv), partial=True)


def yaml_invocation(
    yf: Any,
    argv: Sequence[Token],
    origin: str,
    anchor: Any,
    image: Token | None = None,
    env: dict[str, Token] | None = None,
    evidence: Sequence[ReleaseEvidence] = (),
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
        release_evidence=tuple(evidence),
        base_dir=str(Path(yf.path).parent),
        partial=any(t.opaque for t in argv),
        anchor=span(yf, anchor),
    )
