"""Programs that run another command (`srun`, `nsys profile`, `uv run`, `docker run`, `sh -c` …),
read from the one table every reader shares: `schemas/launchers.json`.

For each launcher the table says which of its options take a value (from the tool's own
documentation or source, cited there), how many words come before the command it runs, and
what form that command takes:

- `argv` (the default): the words that follow are a command line, maybe another launcher;
- `python`: a Python script or, with the launcher's module flag, `-m`-style module name
  (`torchrun`, `accelerate launch`, `deepspeed`);
- `string-option`: one option's value is a whole shell command (`sbatch --wrap "…"`, `su -c`);
- `string-or-argv`: the first word is a command string when it holds a space (`pm2 start "…"`),
  else the program, with its arguments after `--`;
- `container-run` / `container-exec`: an image, then its arguments or a command;
- `kubectl-run`: `NAME --image=IMAGE [--command] -- …`;
- `after-dashdash`: the command follows `--` (`ray job submit … -- cmd`);
- `shell-c`: `sh [-opts] -c SCRIPT [$0 [$@…]]`.

Nothing here decides what the wrapped command is: `unwrap` only says where it starts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from vllm_lint.model import Token
from vllm_lint.read.shell import TEMPLATE_MARK
from vllm_lint.resources import shipped_json

# -c, -lc, -ec …: letters only, one of them `c` (`-[a-z]*c[a-z]*` backtracked quadratically)
_SHELL_C = re.compile(r"-(?=[a-z]*c)[a-z]+")
# `${X:+--env "X=$X"}`: an option only when X is set; never the command
_LITERAL_OPTION = re.compile(r"--?[A-Za-z0-9][\w.-]*=")
_OPTIONAL_WORD = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?\+")


class Launcher(NamedTuple):
    id: str
    words: frozenset[str]
    subcommand: tuple[str, ...] = ()
    command: str = "argv"
    values: frozenset[str] = frozenset()
    values2: frozenset[str] = frozenset()  # options followed by two words (`--mca key value`)
    flags: frozenset[str] = frozenset()
    value_prefixes: tuple[str, ...] = ()
    takes_value_by_default: bool = False
    short_flags: str = ""  # bundled single-letter flags (`-dit`)
    positionals: int = 0  # words before the command (`timeout DURATION`, `taskset MASK`)
    after_image: int = 0  # words between the image and its arguments (an instance name)
    not_run_by: frozenset[str] = frozenset()  # options that make it run nothing (`--help`)
    env_options: frozenset[str] = frozenset()
    string_options: frozenset[str] = frozenset()
    module_flags: frozenset[str] = frozenset()
    no_python_flags: frozenset[str] = frozenset()
    image_option: str = ""
    entrypoint_option: str = ""
    command_flag: str = ""
    package_program: bool = False  # the program may be written `vllm@0.9.1` / `vllm==0.9.1`
    dash_is_underscore: bool = False
    doc: str = ""
    ends_at: frozenset[str] = frozenset()  # words that end the command (parallel's `:::`)
    # input items in the command: an option's value (`xargs -I {}`), or words of a pattern
    placeholder_options: frozenset[str] = frozenset()
    default_placeholder: str = ""  # `xargs -i` with no value of its own
    placeholder_pattern: str = ""
    appends_input: bool = False  # with no placeholder, the items are added after the words
    shell_string: bool = False  # a command written as one word with a space: a shell runs it

    def name_of(self, option: str) -> str:
        if self.dash_is_underscore and option.startswith("--"):
            return "--" + option[2:].replace("-", "_")
        return option


def _launcher(entry: Mapping[str, Any], base: Mapping[str, Any] | None) -> Launcher:
    merged = {**(base or {}), **entry}
    under = bool(merged.get("dash_is_underscore"))

    def names(key: str) -> frozenset[str]:
        found = merged.get(key, [])
        return frozenset(
            "--" + n[2:].replace("-", "_") if under and n.startswith("--") else n for n in found
        )

    return Launcher(
        id=merged["id"],
        words=frozenset(merged["words"]),
        subcommand=tuple(entry.get("subcommand", ())),
        command=merged.get("command", "argv"),
        values=names("values"),
        values2=names("values2"),
        flags=names("flags"),
        value_prefixes=tuple(
            "--" + p[2:].replace("-", "_") if under else p for p in merged.get("value_prefixes", ())
        ),
        takes_value_by_default=merged.get("default", "flag") == "value",
        short_flags=merged.get("short_flags", ""),
        positionals=int(merged.get("positionals", 0)),
        after_image=int(entry.get("after_image", 0)),
        not_run_by=names("not_run_by"),
        env_options=names("env_options"),
        string_options=names("string_options"),
        module_flags=names("module_flags"),
        no_python_flags=names("no_python_flags"),
        image_option=merged.get("image_option", ""),
        entrypoint_option=merged.get("entrypoint_option", ""),
        command_flag=merged.get("command_flag", ""),
        package_program=bool(merged.get("package_program")),
        dash_is_underscore=under,
        doc=merged.get("doc", ""),
        ends_at=frozenset(merged.get("ends_at", ())),
        placeholder_options=names("placeholder_options"),
        default_placeholder=merged.get("default_placeholder", ""),
        placeholder_pattern=merged.get("placeholder_pattern", ""),
        appends_input=bool(merged.get("appends_input")),
        shell_string=bool(merged.get("shell_string")),
    )


@lru_cache(maxsize=1)
def table() -> Mapping[str, tuple[Launcher, ...]]:
    """Launchers by program word, those with the longest subcommand first."""
    entries = shipped_json("launchers.json")["launchers"]
    by_id = {e["id"]: e for e in entries}
    by_word: dict[str, list[Launcher]] = {}
    for entry in entries:
        base = by_id.get(entry["same_as"]) if "same_as" in entry else None
        launcher = _launcher(entry, base)
        for word in launcher.words:
            by_word.setdefault(word, []).append(launcher)
    return {w: tuple(sorted(ls, key=lambda x: -len(x.subcommand))) for w, ls in by_word.items()}


def program_word(text: str) -> str:
    """`/usr/bin/srun` → `srun` (each line's text after its last `/`: `re.sub(".*/", …)`
    took time quadratic in a long word without a `/`)."""
    if "/" not in text:
        return text
    return "\n".join(line.rpartition("/")[2] for line in text.split("\n"))


def launcher_at(words: Sequence[Token], i: int) -> Launcher | None:
    """The launcher whose words (and subcommand) start at `words[i]`."""
    if i >= len(words) or words[i].opaque:
        return None
    candidates = table().get(program_word(words[i].text))
    if not candidates:
        return None
    for launcher in candidates:
        sub = launcher.subcommand
        if all(
            i + 1 + k < len(words) and words[i + 1 + k].text == part for k, part in enumerate(sub)
        ):
            return launcher
    return None


class Wrapped:
    """Where the command a launcher runs starts, and what it is (filled in as it is read)."""

    __slots__ = (
        "entrypoint",
        "env",
        "image",
        "kind",
        "launcher",
        "options",
        "pin",
        "run_command",
        "start",
        "string",
        "string_args",
        "words",
    )

    def __init__(
        self,
        launcher: Launcher,
        kind: str,  # argv | python-module | python-script | string | container | none
        string: Token | None = None,  # a command written as one string
        string_args: tuple[Token, ...] = (),  # `sh -c SCRIPT $0 $@…`
    ) -> None:
        self.launcher = launcher
        self.kind = kind
        self.start = 0  # index of the command's first word in the launcher's words
        self.words: Sequence[Token] | None = None  # the command's words, if not a slice (`pm2`)
        self.string = string
        self.string_args = string_args
        self.image: Token | None = None
        self.entrypoint: Token | None = None
        self.run_command = False  # container: the words after the image are a command
        self.env: dict[str, Token] = {}
        self.pin: str | None = None  # `uvx vllm@0.9.1`: the release the program was pinned to
        # every option given a value, as written (`--gpus`, `--gres`: read by sources/hardware.py)
        self.options: list[tuple[str, Token]] = []


_PACKAGE_PIN = re.compile(r"([A-Za-z0-9_.-]+?)(?:\[[^\]]*\])?(?:@|==)v?(\d+\.\d+\.\d+\S*)")


def _arity(launcher: Launcher, option: str) -> int:
    """How many words follow `option` as its value(s)."""
    name = launcher.name_of(option)
    if name in launcher.values2:
        return 2
    if name in launcher.values or any(name.startswith(p) for p in launcher.value_prefixes):
        return 1
    if name in launcher.string_options or name in launcher.env_options:
        return 1
    if name in (launcher.image_option, launcher.entrypoint_option):
        return 1
    if name in launcher.flags:
        return 0
    if not option.startswith("--") and len(option) > 2:  # `-dit`, `-N1`, `-pgpu`
        letters = option[1:]
        if launcher.short_flags and all(c in launcher.short_flags for c in letters):
            return 0
        for k, letter in enumerate(letters):
            short = f"-{letter}"
            if short in launcher.values:
                return 1 if k == len(letters) - 1 else 0  # the rest is its value
            if short not in launcher.flags and not (
                launcher.short_flags and letter in launcher.short_flags
            ):
                break
        else:
            return 0
    return 1 if launcher.takes_value_by_default else 0


def _env_value(value: Token) -> tuple[str, Token]:
    name, has, text = value.text.partition("=")
    return name, Token(text, value.span, value.opaque or not has)


def unwrap(
    words: Sequence[Token],
    i: int,
    launcher: Launcher,
    is_image: Callable[[Token], bool] | None = None,
) -> Wrapped | None:
    """What the launcher at `words[i]` runs; None when it runs nothing the linter can follow
    (`sbatch script.sh`, `srun --help`, a `pm2 start app.js`). `is_image` tells a server image:
    an unknown word before one (`docker run {{ gpu_flags }} vllm/vllm-openai …`) is taken for
    options, not for the image."""
    k = i + 1 + len(launcher.subcommand)
    if launcher.command == "shell-c":
        return _shell_c(words, k, launcher)
    found = Wrapped(launcher, "argv")
    module = no_python = run_command = False
    positionals = 0
    dashdash = False
    n = len(words)
    while k < n:
        word = words[k]
        text = word.text
        if word.opaque and not _LITERAL_OPTION.match(text):  # `--nodelist=${NODE}` is an option
            if _OPTIONAL_WORD.match(text) or _image_follows(words, k, launcher, is_image):
                k += 1
                continue
            break
        if text == "--":
            dashdash = True
            k += 1
            if launcher.command in ("after-dashdash", "kubectl-run", "string-or-argv"):
                break
            break
        if not text.startswith("-") or (text == "-" and "-" not in launcher.flags):
            if launcher.command in ("kubectl-run",) and positionals < launcher.positionals:
                positionals += 1
                k += 1
                continue
            break
        option, eq, inline = text.partition("=")
        name = launcher.name_of(option)
        if name in launcher.not_run_by:
            return None
        arity = 0 if eq else _arity(launcher, option)
        value: Token | None = None
        if eq:
            value = Token(inline, word.span, word.opaque)
        elif arity and k + 1 < n:
            value = words[k + 1]
        if name in launcher.module_flags:
            module = True
        if name in launcher.no_python_flags:
            no_python = True
        if launcher.command_flag and name == launcher.command_flag:
            run_command = True
        if value is not None:
            found.options.append((name, value))
            if name in launcher.env_options:
                env_name, env_token = _env_value(value)
                found.env[env_name] = env_token
            elif name in launcher.string_options:
                found.string = value
            elif launcher.image_option and name == launcher.image_option:
                found.image = value
            elif launcher.entrypoint_option and name == launcher.entrypoint_option:
                found.entrypoint = value
        k += 1 + arity
    kind = launcher.command
    if kind == "string-option":
        if found.string is None:
            return None
        found.kind = "string"
        return found
    if kind == "after-dashdash":
        if not dashdash:
            return None
        found.start = k
        return found
    if kind == "kubectl-run":
        found.kind = "container"
        found.run_command = run_command
        found.start = k if dashdash else n
        return found if found.image is not None else None
    if k + launcher.positionals > n:
        return None
    k += launcher.positionals
    if k >= n:
        return None
    if kind == "string-or-argv":
        first = words[k]
        if not first.opaque and any(c in first.text for c in " \t\n"):
            found.kind, found.string = "string", first
            return found
        rest = list(words[k + 1 :])
        after = (
            rest[rest.index(next(t for t in rest if t.text == "--")) + 1 :]
            if any(t.text == "--" for t in rest)
            else []
        )
        found.words = [first, *after]
        return found
    if kind in ("container-run", "container-exec"):
        found.kind = "container"
        found.image = words[k]
        found.run_command = kind == "container-exec"
        found.start = min(n, k + 1 + launcher.after_image)
        return found
    if kind == "python" and not no_python:
        found.kind = "python-module" if module else "python-script"
        found.start = k
        return found
    if module and launcher.module_flags:  # `uv run -m module`
        found.kind, found.start = "python-module", k
        return found
    found.start = k
    if launcher.package_program:
        match = _PACKAGE_PIN.fullmatch(words[k].text)
        if match and not words[k].opaque:
            found.pin = match.group(2)
            found.words = [Token(match.group(1), words[k].span), *words[k + 1 :]]
    if launcher.ends_at or launcher.appends_input:
        found.words = _with_input(words, i, k, launcher)
        script = _shell_string(found.words, launcher)
        if script is not None:  # `parallel "vllm serve {} -tp 2" ::: m1 m2`
            found.kind, found.string, found.words = "string", script, None
    return found


def _with_input(words: Sequence[Token], i: int, k: int, launcher: Launcher) -> list[Token]:
    """The command `xargs` or `parallel` runs for each input item: up to the word that ends
    it (`:::`), the words standing for an item unknown (`{}`, `-I %`'s `%`), and the items
    added after the command's words when none stands for them. In a word that is a script
    (it holds a space: `sh -c 'vllm serve {} …'`) only the placeholders are unknown: each of
    their characters becomes TEMPLATE_MARK, which the shell lexer reads as unknown."""
    ends = launcher.ends_at
    end = next((j for j in range(k, len(words)) if words[j].text in ends), len(words))
    marks = list(_placeholders(words[i + 1 : k], launcher))
    pattern = re.compile(launcher.placeholder_pattern) if launcher.placeholder_pattern else None
    out: list[Token] = []
    stands = False
    for word in words[k:end]:
        if not word.opaque and (
            any(m in word.text for m in marks) or (pattern and pattern.search(word.text))
        ):
            text = word.text
            if any(c.isspace() for c in text):
                for mark in marks:
                    text = text.replace(mark, TEMPLATE_MARK * len(mark))
                if pattern:
                    text = pattern.sub(lambda m: TEMPLATE_MARK * len(m.group(0)), text)
            word = Token(text, word.span, opaque=True)
            stands = True
        out.append(word)
    if launcher.appends_input and not marks and not stands:
        out.append(Token(INPUT, words[i].span, opaque=True))
    return out


INPUT = "{input}"  # the input items a launcher adds after the command's words


def _shell_string(command: Sequence[Token], launcher: Launcher) -> Token | None:
    """A launcher whose shell runs its command line (`shell_string`), given that line as one
    word holding a space: the word, with the items added after it when nothing in it stands
    for them (an unknown word at its end)."""
    if not launcher.shell_string or not command:
        return None
    first, rest = command[0], command[1:]
    appended = len(rest) == 1 and rest[0].opaque and rest[0].text == INPUT
    if (rest and not appended) or not any(c.isspace() for c in first.text):
        return None
    if first.opaque and TEMPLATE_MARK not in first.text:
        return None  # unknown for another reason than its placeholders
    text = first.text + (f" {TEMPLATE_MARK}" if appended else "")
    return Token(text, first.span, opaque=TEMPLATE_MARK in text)


def _placeholders(options: Sequence[Token], launcher: Launcher) -> Iterator[str]:
    """The strings the launcher's placeholder options set (`-I {}`, `-I{}`, `--replace=%`,
    `-i` alone: its default)."""
    for at, word in enumerate(options):
        for option in launcher.placeholder_options:
            text = word.text
            if text == option:
                if option in launcher.values and at + 1 < len(options):
                    yield options[at + 1].text
                elif launcher.default_placeholder:
                    yield launcher.default_placeholder
            elif text.startswith(option + "=") or (
                not option.startswith("--") and text.startswith(option) and len(text) > 2
            ):
                value = text[len(option) :].removeprefix("=")
                if value:
                    yield value


def _image_follows(
    words: Sequence[Token], k: int, launcher: Launcher, is_image: Callable[[Token], bool] | None
) -> bool:
    """Past unknown words and options from `words[k]`, is the next word a server image?"""
    if is_image is None or not launcher.command.startswith("container") or is_image(words[k]):
        return False
    k += 1
    while k < len(words):
        word = words[k]
        if (word.opaque and not is_image(word)) or word.text.startswith("-"):
            k += 1 + (0 if word.opaque or "=" in word.text else _arity(launcher, word.text))
            continue
        return is_image(word)
    return False


def _shell_c(words: Sequence[Token], k: int, launcher: Launcher) -> Wrapped | None:
    """`sh [-opts] -c SCRIPT [$0 [args…]]` (`-lc`, `-ec`, `-c --` included)."""
    n = len(words)
    while k < n and words[k].text.startswith("-") and not words[k].opaque:
        if _SHELL_C.fullmatch(words[k].text):
            k += 1
            if k < n and words[k].text == "--":
                k += 1
            if k >= n:
                return None
            return Wrapped(launcher, "string", string=words[k], string_args=tuple(words[k + 1 :]))
        k += 1
    return None
