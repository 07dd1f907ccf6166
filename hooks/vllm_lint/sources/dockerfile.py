"""Dockerfiles: the command each stage's image runs, and the vLLM release it holds.

Per Docker's rules: instructions are joined across escape-char continuations (comment lines
inside are dropped), `ENTRYPOINT`/`CMD` come in exec form (a JSON array) or shell form
(`/bin/sh -c "…"`), a stage inherits both from the stage it is built `FROM`, and setting
`ENTRYPOINT` clears an inherited `CMD`. A `vllm/vllm-openai` base image has the server as
its entrypoint, so `CMD ["--model", …]` on it are server arguments; its tag, or a
`pip install vllm==X` in the stage, gives the release. Only stages that write their own
`ENTRYPOINT`/`CMD` are reported, so a stage is never counted twice.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from vllm_lint.effective.entrypoints import SHELL_FORM_CMD
from vllm_lint.files.textpos import FilePositions, MappedPositions
from vllm_lint.images import is_server_image
from vllm_lint.model import Invocation, Mount, ReleaseEvidence, Span, Token
from vllm_lint.read.shell import ArrayValue, Command, Lexer, Point, Value, VarValue
from vllm_lint.read.variables import substitute
from vllm_lint.release import image_evidence, pip_evidence
from vllm_lint.sources.document import Document
from vllm_lint.sources.shell_commands import (
    Launch,
    ScriptContext,
    anchor_of,
    invocation,
    launches_in,
    launches_of,
)

_DIRECTIVE = re.compile(r"#\s*([a-zA-Z]+)\s*=\s*(\S+)\s*$")


class _Line(NamedTuple):
    """One instruction with its continuations joined; `points` locate each character."""

    keyword: str
    text: str  # the arguments (after the keyword)
    points: list[Point]
    span: Span  # of the keyword

    def span_token(self) -> Token:
        """The arguments as one word, spanning where they are written."""
        if not self.points:
            return Token(self.text, self.span)
        first, last = min(self.points), max(self.points)
        return Token(self.text, Span(self.span.path, first[0], first[1], last[0], last[1] + 1))


class _Cmd(NamedTuple):
    words: list[Token] | None = None  # exec form
    points: Sequence[tuple[Point, ...]] = ()
    shell: _Line | None = None  # shell form
    line: _Line | None = None

    @property
    def given(self) -> bool:
        return self.words is not None or self.shell is not None


class _Stage:
    """One build stage: what its image runs, holds and sets (filled in line by line)."""

    def __init__(
        self,
        name: str,
        image: Token | None,
        evidence: tuple[ReleaseEvidence, ...],
        server_base: bool,  # the entrypoint is the vLLM server (from a vllm-openai base)
        entrypoint: _Cmd | None = None,
        cmd: _Cmd | None = None,
        env: dict[str, Token] | None = None,
        args: dict[str, str | None] | None = None,
        workdir: str = "/",
        files: dict[str, Path] | None = None,
        dirs: list[tuple[str, Path]] | None = None,
    ) -> None:
        self.name = name
        self.image = image
        self.evidence = evidence  # what names the release, most specific first
        self.server_base = server_base
        self.entrypoint = _Cmd() if entrypoint is None else entrypoint
        self.cmd = _Cmd() if cmd is None else cmd
        self.env: dict[str, Token] = {} if env is None else env
        self.args: dict[str, str | None] = {} if args is None else args
        self.wrote = False  # this stage has its own ENTRYPOINT or CMD
        self.workdir = workdir
        self.files: dict[str, Path] = {} if files is None else files  # container path → repo file
        self.dirs: list[tuple[str, Path]] = [] if dirs is None else dirs  # container → repo dir
        self.runs: list[_Line] = []  # this stage's RUN lines

    def mounts(self) -> tuple[Mount, ...]:
        """What the image holds from the repo, in COPY order."""
        found = [Mount(folder, str(repo)) for folder, repo in self.dirs]
        return tuple(found + [Mount(where, str(repo)) for where, repo in self.files.items()])

    def repo_file(self, container_path: str) -> Path | None:
        """The repo file a COPY/ADD put at `container_path`, the latest COPY winning."""
        if container_path in self.files:
            return self.files[container_path]
        for folder, repo in reversed(self.dirs):
            if container_path.startswith(folder.rstrip("/") + "/"):
                return repo / container_path[len(folder.rstrip("/")) + 1 :]
        # `COPY run.sh /home/app` where /home/app is a folder of the base image
        folder, name = posixpath.split(container_path)
        copied = self.files.get(folder)
        return copied if copied is not None and copied.name == name else None


def find(doc: Document) -> Iterator[Invocation]:
    path, text = doc.path, doc.text
    positions = FilePositions(path, text)
    stages: list[_Stage] = []
    named: dict[str, _Stage] = {}
    global_args: dict[str, str | None] = {}
    for line in _instructions(path, text, positions):
        kw = line.keyword
        if kw == "FROM":
            stage = _from(line, stages, named, global_args)
            stages.append(stage)
            named[stage.name] = stage  # the last stage of a name is the one FROM refers to
            continue
        if kw == "ARG":
            target = stages[-1].args if stages else global_args
            words, assigned = _lex(line)
            for word in words:  # `ARG NAME` without a default
                target.setdefault(word.text, global_args.get(word.text))
            for name, value in assigned.items():
                target[name] = value.text if isinstance(value, Value) else None
            continue
        if not stages:
            continue
        stage = stages[-1]
        if kw == "ENV":
            _env(line, stage)
        elif kw == "RUN":
            # `pip install vllm==${VLLM_VERSION}` reads the stage's ARG or ENV (or the default)
            known = {**stage.args, **{n: t.text for n, t in stage.env.items() if not t.opaque}}
            resolved = substitute(line.text, known)
            pinned = pip_evidence(resolved, f"line {line.span.line}")
            if pinned is not None:
                stage.evidence = (pinned, *stage.evidence)
            stage.runs.append(line)
        elif kw == "WORKDIR":
            words = _words(line)
            if words and not words[0].opaque:
                stage.workdir = posixpath.normpath(posixpath.join(stage.workdir, words[0].text))
        elif kw in ("COPY", "ADD"):
            _copy(line, stage, Path(path).parent, doc.root)
        elif kw in ("ENTRYPOINT", "CMD"):
            command = _command(line, stage)
            stage.wrote = True
            if kw == "ENTRYPOINT":
                stage.entrypoint, stage.cmd = command, _Cmd()  # ENTRYPOINT resets CMD
                stage.server_base = False
            else:
                stage.cmd = command
    base = str(Path(path).parent)
    for stage in stages:
        origin = f"Dockerfile stage {stage.name}"

        def made(launch: Launch, where: str, stage: _Stage = stage) -> Invocation:
            found = invocation(path, launch, where, base, stage.image, stage.evidence, stage.env)
            return found._replace(mounts=stage.mounts(), workdir=stage.workdir)

        if stage.wrote:
            found = False
            for launch in _launches(path, stage):
                found = True
                yield made(launch, origin)
            if not found:
                for launch, script in _entrypoint_script(path, stage, doc):
                    yield made(launch, f"{origin}, entrypoint script {script}")
        for run in stage.runs:
            for launch in launches_in(run.text, _positions(path, run), ScriptContext()):
                yield made(launch, f"{origin}, RUN line {run.span.line}")


# -- instructions ---------------------------------------------------------------------------


def _instructions(path: str, text: str, positions: FilePositions) -> Iterator[_Line]:
    escape = "\\"
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    k = 0
    directives = True
    heredoc: str | None = None
    while k < len(lines):
        raw = lines[k].rstrip("\r")
        if heredoc is not None:
            if raw.strip() == heredoc:
                heredoc = None
            k += 1
            continue
        stripped = raw.strip()
        if directives:
            match = _DIRECTIVE.match(stripped)
            if match and match.group(1).lower() == "escape" and match.group(2) in ("`", "\\"):
                escape = match.group(2)
            if match:
                k += 1
                continue
            directives = False
        if not stripped or stripped.startswith("#"):
            k += 1
            continue
        chars: list[str] = []
        points: list[Point] = []
        row = k
        while True:
            body = lines[row].rstrip("\r")
            start = len(body) - len(body.lstrip()) if row != k else 0
            cont = body.rstrip().endswith(escape)
            end = len(body.rstrip()) - 1 if cont else len(body)
            for col in range(start, end):
                chars.append(body[col])
                points.append(positions.at(offsets[row] + col))
            row += 1
            if not cont:
                break
            while row < len(lines) and (
                not lines[row].strip() or lines[row].lstrip().startswith("#")
            ):
                row += 1  # comment and empty lines inside a continuation are dropped
            if row >= len(lines):
                break
            chars.append(" ")
            points.append(positions.at(offsets[row]))
        k = row
        joined = "".join(chars)
        match = re.match(r"\s*(\S+)\s*", joined)
        if not match:
            continue
        keyword = match.group(1).upper()
        span = Span(
            path,
            *points[match.start(1)],
            points[match.end(1) - 1][0],
            points[match.end(1) - 1][1] + 1,
        )
        rest = joined[match.end() :]
        heredoc_match = re.search(r"<<-?[\"']?([A-Za-z_][A-Za-z0-9_]*)[\"']?", rest)
        if heredoc_match and keyword in ("RUN", "COPY", "ADD"):
            heredoc = heredoc_match.group(1)
        yield _Line(keyword, rest, points[match.end() :], span)


def _positions(path: str, line: _Line) -> MappedPositions:
    return MappedPositions(path, line.points, line.points[0] if line.points else (1, 1))


def _words(line: _Line, variables: dict[str, VarValue] | None = None) -> list[Token]:
    return _lex(line, variables)[0]


def _lex(
    line: _Line, variables: dict[str, VarValue] | None = None
) -> tuple[list[Token], dict[str, VarValue]]:
    """The words of an instruction, and the `NAME=value` pairs it holds (as assignments)."""
    before = dict(variables or {})
    lexer = Lexer(line.text, _positions(line.span.path, line), before)
    words = [w for command in lexer.commands() for w in command.words]
    assigned = {k: v for k, v in lexer.variables.items() if k not in before or before[k] != v}
    return words, assigned


def _from(
    line: _Line, stages: list[_Stage], named: dict[str, _Stage], global_args: dict[str, str | None]
) -> _Stage:
    words = [w for w in _words(line) if not w.text.startswith("--")]
    image = words[0] if words else None
    name = words[2].text if len(words) >= 3 and words[1].text.lower() == "as" else str(len(stages))
    if image is None:
        return _Stage(name, None, (), False)
    text = substitute(image.text, global_args)
    resolved = Token(text, image.span, "${" in text or "$" in text)
    parent = named.get(resolved.text)  # a look-up, not a scan of the stages before
    if parent is not None:  # FROM an earlier stage: inherit what it runs and holds
        return _Stage(
            name,
            parent.image,
            parent.evidence,
            parent.server_base,
            parent.entrypoint,
            parent.cmd,
            dict(parent.env),
            dict(parent.args),
            workdir=parent.workdir,
            files=dict(parent.files),
            dirs=list(parent.dirs),
        )
    server = not resolved.opaque and is_server_image(resolved.text)
    return _Stage(
        name, resolved, (image_evidence(resolved, f"FROM, line {line.span.line}"),), server
    )


def _env(line: _Line, stage: _Stage) -> None:
    variables: dict[str, VarValue] = {
        n: (None if t.opaque else Value(t.text)) for n, t in stage.env.items()
    }
    words, assigned = _lex(line, variables)
    if words and len(words) >= 2:  # legacy `ENV NAME value words…`
        rest = words[1:]
        joined = " ".join(w.text for w in rest)
        stage.env[words[0].text] = Token(joined, anchor_of(rest), any(w.opaque for w in rest))
        return
    for name, value in assigned.items():
        if isinstance(value, Value) and value.points:
            first, last = min(value.points), max(value.points)
            span = Span(line.span.path, first[0], first[1], last[0], last[1] + 1)
            stage.env[name] = Token(value.text, span)
        elif isinstance(value, Value):
            stage.env[name] = Token("", line.span)
        else:
            stage.env[name] = Token("", line.span, opaque=True)


def _command(line: _Line, stage: _Stage) -> _Cmd:
    parsed = _exec_form(line)
    if parsed is not None:
        words, points = parsed
        return _Cmd(words, points, None, line)
    return _Cmd(None, [], line, line)


def _exec_form(line: _Line) -> tuple[list[Token], list[tuple[Point, ...]]] | None:
    """The JSON array of an exec-form instruction, each string with its characters' places."""
    text = line.text
    i = len(text) - len(text.lstrip())
    if not text[i:].startswith("["):
        return None
    i += 1
    words: list[Token] = []
    points: list[tuple[Point, ...]] = []
    expect_value = True
    n = len(text.rstrip())
    while i < n:
        ch = text[i]
        if ch in " \t":
            i += 1
            continue
        if ch == "]" and i == n - 1:
            return words, points
        if ch == "," and not expect_value:
            expect_value = True
            i += 1
            continue
        if ch != '"' or not expect_value:
            return None
        chars: list[str] = []
        where: list[Point] = []
        i += 1
        while i < n and text[i] != '"':
            if text[i] == "\\" and i + 1 < n:
                escaped = text[i + 1]
                mapping = {"n": "\n", "t": "\t", "/": "/", "b": "\b", "f": "\f", "r": "\r"}
                if escaped == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2 : i + 6]):
                    chars.append(chr(int(text[i + 2 : i + 6], 16)))
                    where.append(line.points[i])
                    i += 6
                    continue
                chars.append(mapping.get(escaped, escaped))
                where.append(line.points[i])
                i += 2
                continue
            chars.append(text[i])
            where.append(line.points[i])
            i += 1
        if i >= n:
            return None
        quote_at = line.points[i]
        i += 1
        span_points = where or [quote_at]
        first, last = min(span_points), max(span_points)
        words.append(
            Token("".join(chars), Span(line.span.path, first[0], first[1], last[0], last[1] + 1))
        )
        points.append(tuple(where))
        expect_value = False
    return None


# -- launches -------------------------------------------------------------------------------


def _launches(path: str, stage: _Stage) -> Iterator[Launch]:
    ep, cmd = stage.entrypoint, stage.cmd
    context = ScriptContext(
        variables={n: (None if t.opaque else Value(t.text)) for n, t in stage.env.items()}
    )
    if ep.shell is not None:  # shell-form ENTRYPOINT: CMD is ignored
        yield from launches_in(ep.shell.text, _positions(path, ep.shell), context)
        return
    if ep.words:  # `ENTRYPOINT []` clears it: CMD is then the whole command
        words = list(ep.words) + list(cmd.words or [])
        points = list(ep.points) + list(cmd.points if cmd.words is not None else [])
        yield from launches_of(Command(tuple(words), tuple(points)), path)
        return
    if stage.server_base:
        if cmd.words is not None and cmd.line is not None:
            argv = tuple(cmd.words)
            yield Launch(argv, {}, cmd.line.span, entrypoint="image")
        elif cmd.shell is not None and cmd.line is not None:
            # Docker runs a shell-form CMD as `/bin/sh -c "…"`, appended to the exec-form
            # ENTRYPOINT: the server gets those three words as its arguments
            where = cmd.line.span
            script = Token(cmd.shell.text.strip(), anchor_of([cmd.line.span_token()]))
            shell = (Token("/bin/sh", where), Token("-c", where), script)
            yield Launch(shell, {}, where, entrypoint=SHELL_FORM_CMD)
        return
    if cmd.words is not None:
        yield from launches_of(Command(tuple(cmd.words), tuple(cmd.points)), path)
    elif cmd.shell is not None:
        yield from launches_in(cmd.shell.text, _positions(path, cmd.shell), context)


# -- files put into the image, and the entrypoint script ------------------------------------

_PATH_DIRS = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
_SHELL_WORDS = re.compile(r"(?:.*/)?(?:ba|da|z|k)?sh")


def _copy(line: _Line, stage: _Stage, here: Path, root: Path | None) -> None:
    """`COPY [--chmod=…] SRC… DEST` from the build context (not `--from` another stage): which
    repo file lands where. The context is the Dockerfile's folder or, if the source is not
    there, the nearest parent (inside the root) that holds it."""
    if "<<" in line.text:
        return  # a heredoc: the content is inline, no repo file
    words = _words(line)
    if any(w.text.startswith("--from") for w in words):
        return
    words = [w for w in words if not w.text.startswith("--")]
    if len(words) < 2 or any(w.opaque for w in words):
        return
    sources, dest = words[:-1], words[-1].text
    target = posixpath.normpath(posixpath.join(stage.workdir, dest))
    into_dir = dest.endswith("/") or len(sources) > 1
    for source in sources:
        if any(c in source.text for c in "*?["):
            continue
        repo = _in_context(source.text, here, root)
        if repo is None:
            continue
        if repo.is_dir():
            stage.dirs.append((target, repo))
        elif into_dir:
            stage.files[posixpath.join(target, repo.name)] = repo
        else:
            stage.files[target] = repo


def _in_context(source: str, here: Path, root: Path | None) -> Path | None:
    # realpath, not Path.resolve (a RuntimeError on a link loop); a NUL byte: no such file
    top = Path(os.path.realpath(root or Path.cwd()))
    folder = Path(os.path.realpath(here))
    while True:
        try:
            candidate = Path(os.path.realpath(folder / source.lstrip("/")))
            found = candidate.is_relative_to(top) and candidate.exists()
        except (OSError, ValueError):
            return None
        if found:
            return candidate
        if folder == top or folder.parent == folder or not folder.is_relative_to(top):
            return None
        folder = folder.parent


def _entrypoint_script(path: str, stage: _Stage, doc: Document) -> Iterator[tuple[Launch, str]]:
    """An exec-form ENTRYPOINT (or CMD) that runs a script the image got from the repo
    (`COPY entrypoint.sh /usr/local/bin/` + `ENTRYPOINT ["entrypoint.sh"]`, or
    `["/bin/bash", "entrypoint.sh"]`): the script's launches, with CMD as its `$@`. Each is
    anchored at the ENTRYPOINT line; its flags point into the script."""
    ep, cmd = stage.entrypoint, stage.cmd
    words = (
        list(ep.words or []) + list(cmd.words or [])
        if ep.words is not None
        else list(cmd.words or [])
    )
    line = ep.line if ep.words is not None else cmd.line
    if not words or line is None:
        return
    k = 0
    if _SHELL_WORDS.fullmatch(words[0].text):
        k = 1
        while k < len(words) and words[k].text.startswith("-"):
            if "c" in words[k].text[1:]:
                return  # `sh -c "…"`: read as a command already
            k += 1
    if k >= len(words) or words[k].opaque:
        return
    name = words[k].text
    found = None
    if "/" in name or k:  # a path, or a script a shell opens from the working directory
        found = stage.repo_file(posixpath.normpath(posixpath.join(stage.workdir, name)))
    else:
        for folder in _PATH_DIRS:
            found = stage.repo_file(f"{folder}/{name}")
            if found is not None:
                break
    if found is None:
        return
    text = doc.read_other(found)
    if text is None or "vllm" not in text:
        return
    shown = _shown(found)
    variables: dict[str, VarValue] = {
        n: (None if t.opaque else Value(t.text)) for n, t in stage.env.items()
    }
    variables["0"] = name
    variables["@"] = ArrayValue(tuple(words[k + 1 :]))
    anchor = line.span
    for launch in launches_in(text, FilePositions(shown, text), ScriptContext(variables)):
        yield (
            Launch(
                launch.argv,
                launch.env,
                anchor,
                launch.image,
                launch.conditional,
                launch.entrypoint,
                launch.pin,
                launch.via,
            ),
            shown,
        )


def _shown(target: Path) -> str:
    """A path as the other paths are shown: relative to the working directory when inside."""
    try:
        return os.path.relpath(target)
    except ValueError:
        return str(target)
