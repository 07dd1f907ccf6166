"""Recognise the words that start the vLLM OpenAI server, wherever a command line is found,
and the images whose entrypoint is that server (`schemas/server-images.json`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from vllm_lint.argv.commands import cli_words, known_commands, markers
from vllm_lint.images import image_text, server_image_of
from vllm_lint.model import Token
from vllm_lint.sources.launchers import Wrapped, launcher_at, unwrap

# `python -m <module>` entry points of the server (which release has which: the flag catalogs'
# `entrypoints`, checked in `effective/build.py`).
SERVER_MODULES = frozenset({"vllm.entrypoints.openai.api_server", "vllm.entrypoints.api_server"})
_PYTHON = re.compile(r"(?:.*/)?python(?:3(?:\.\d+)?)?")
_VLLM = re.compile(r"(?:.*/)?vllm")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.S)
# `vllm --help`, `vllm -v`: the CLI answers and exits; no server
_NOT_A_SERVER = frozenset({"-h", "--help", "-v", "--version"})
_MODEL_LIKE = re.compile(r"[\w.-]+/[\w./-]+")


class ServerCall(NamedTuple):
    """A command that starts the server: its words (a launcher may have rewritten them), where
    the program is written, where its arguments start, and what the program is."""

    words: tuple[Token, ...]
    program: int  # index of the program's first word (`vllm`, `python`)
    first: int  # index of the first server argument
    env: dict[str, Token]
    entrypoint: str  # "vllm serve", "vllm", or a module name run with `python -m`
    pin: str | None = None  # `uvx vllm@0.9.1`

    @property
    def argv(self) -> tuple[Token, ...]:
        return self.words[self.first :]

    @property
    def program_words(self) -> tuple[Token, ...]:
        return self.words[self.program : self.first]


def skip_wrappers(
    words: Sequence[Token], seen: list[Wrapped] | None = None
) -> tuple[list[Token], int, dict[str, Token], Wrapped | None, str | None]:
    """Skip env prefixes and launchers that run an argv (`exec`, `srun -p gpu`, `env A=b`):
    (the words, the index of the command, the env set on the way, the launcher that takes over in
    another form (a string, an image, a Python script) or None, a version pin met on the way).
    The words come back as the same list unless a launcher rewrote them; `seen` collects every
    launcher on the way (its options: `srun --gres`, `docker run --gpus`)."""
    words = words if isinstance(words, list) else list(words)
    env: dict[str, Token] = {}
    pin: str | None = None
    i = 0
    while i < len(words):
        text = words[i].text
        if _ASSIGNMENT.fullmatch(text):
            env[text.partition("=")[0]] = words[i]
            i += 1
            continue
        launcher = launcher_at(words, i)
        if launcher is None:
            break
        wrapped = unwrap(words, i, launcher, looks_like_server_image)
        if wrapped is None:
            return words, len(words), env, None, pin
        if seen is not None:
            seen.append(wrapped)
        env.update(wrapped.env)
        pin = wrapped.pin or pin
        if wrapped.kind != "argv":
            return words, i, env, wrapped, pin
        if wrapped.words is not None:
            words, i = list(wrapped.words), 0
        else:
            i = wrapped.start
    return words, i, env, None, pin


def program_at(words: Sequence[Token], i: int) -> tuple[int, str] | None:
    """(index of the first server argument, entry point) if `words[i]` starts the server."""
    if i >= len(words):
        return None
    head = words[i].text
    if words[i].opaque:  # `"${VENV}/bin/python"`: the program's own name is literal
        head = head.rpartition("/")[2]
        if not words[i].text.count("/") or "$" in head or "{" in head or "`" in head:
            return None
    if _VLLM.fullmatch(head):
        after = words[i + 1] if i + 1 < len(words) else None
        if after is not None and after.text == "serve":
            return None if _asks_help(words[i + 2 :]) else (i + 2, "vllm serve")
        command = engine_command(words, i + 1)
        if command is not None:
            return command
        if after is not None and not after.opaque and _no_subcommand(after.text):
            return i + 1, "vllm"
        return None
    if _PYTHON.fullmatch(head):
        k = i + 1
        while k < len(words) and words[k].text.startswith("-") and words[k].text != "-m":
            k += 1
        if k + 1 < len(words) and words[k].text == "-m":
            return module_at(words, k + 1)
    return None


def module_at(words: Sequence[Token], k: int) -> tuple[int, str] | None:
    """`<module> args…` run with `python -m` (or a launcher's module flag)."""
    if k >= len(words):
        return None
    module = words[k].text
    if module in SERVER_MODULES and not _asks_help(words[k + 1 :]):
        return k + 1, module
    serve = k + 1 < len(words) and words[k + 1].text == "serve"
    if module == "vllm.entrypoints.cli.main" and serve and not _asks_help(words[k + 2 :]):
        return k + 2, "vllm serve"
    if module == "vllm.entrypoints.cli.main":
        return engine_command(words, k + 1)
    if module in known_commands() and not _asks_help(words[k + 1 :]):
        return k + 1, module
    return None


def engine_command(words: Sequence[Token], k: int) -> tuple[int, str] | None:
    """`bench latency …`, `run-batch …` after the `vllm` program: a command other than `serve`
    that builds the engine's parser in some release (`schemas/commands/`; whether the launch's
    release has it is judged later, VL504). `vllm bench serve` (a client) is not one."""
    for size in (2, 1):
        said = tuple(w.text for w in words[k : k + size])
        literal = len(said) == size and not any(w.opaque for w in words[k : k + size])
        if literal and said in cli_words() and not _asks_help(words[k + size :]):
            return k + size, " ".join(("vllm", *said))
    return None


def _asks_help(args: Sequence[Token]) -> bool:
    """`vllm serve --help`, `--help=cache`: the parser prints help and exits; no server."""
    return any(
        not t.opaque and (t.text in ("-h", "--help") or t.text.startswith("--help=")) for t in args
    )


def _no_subcommand(word: str) -> bool:
    """`vllm --model x`, `vllm meta-llama/…`: server arguments given to the CLI without `serve`
    (vLLM's CLI then refuses them); `vllm --version`, `vllm bench` are not launches."""
    if word in _NOT_A_SERVER:
        return False
    return word.startswith("--") or bool(_MODEL_LIKE.fullmatch(word))


def find_server(words: Sequence[Token]) -> ServerCall | None:
    """The server call in `words`, after env prefixes and argv launchers; None for anything else
    (including commands handed on as a string or to an image: `shell_commands` reads those)."""
    found, i, env, wrapped, pin = skip_wrappers(words)
    if wrapped is not None:
        if wrapped.kind != "python-module":
            return None
        module = module_at(found, wrapped.start)
        if module is None:
            return None
        return ServerCall(tuple(found), i, module[0], env, module[1], pin)
    program = program_at(found, i)
    if program is None:
        return None
    return ServerCall(tuple(found), i, program[0], env, program[1], pin)


def server_args(words: Sequence[Token]) -> tuple[int, dict[str, Token]] | None:
    """If `words` launch the vLLM server: the index of its first argument and the env prefix
    (for readers of fixed word lists; the index is into `words` as given)."""
    call = find_server(words)
    if call is None or list(call.words) != list(words):
        return None
    return call.first, call.env


def looks_like_server_image(word: Token) -> bool:
    """A word naming an image whose entrypoint takes the server's arguments."""
    found = server_image_of(image_text(word))
    return found is not None and found.args == "argv"


def mentions_server(text: str) -> bool:
    """Cheap test whether a shell string may launch the server (before lexing it)."""
    if "vllm" not in text:
        return False
    if "serve" in text or "api_server" in text or "vllm-openai" in text:
        return True
    return any(word in text for word in markers())  # `vllm bench latency`, `run_batch`
