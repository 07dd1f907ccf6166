"""The `--config` file a launch names, read before its settings are built: a step of the
pipeline between the readers and `effective/` (every byte the linter reads is read in
`files/`, `sources/` or the pipeline, never by a later room).

vLLM loads the file only after the word `--config` standing alone (`--config=FILE` is stored
and never read, VL018); where the file is comes from the container's mounts (`mounts.py`),
else the folder of the file that names it. Its flags become argv words pointing into it
(`vllm_config.argv_of`), parsed ahead of the command line by `effective/build.py`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from vllm_lint.files import reader
from vllm_lint.model import Invocation, Problem, Span, Token, problem
from vllm_lint.read import yaml
from vllm_lint.release import for_launch
from vllm_lint.sources.mounts import Target, configmap_manifest, configmap_value, resolve

if TYPE_CHECKING:
    from vllm_lint.options import Options


class ConfigFile(NamedTuple):
    """What a launch's `--config` holds: its flags as argv words and what stopped the read;
    `path` is the repo file read (None: no file named, not literal, or a ConfigMap key)."""

    argv: tuple[Token, ...] = ()
    problems: tuple[Problem, ...] = ()
    path: str | None = None


NONE = ConfigFile()


def config_argument(argv: Iterable[Token]) -> Token | None:
    """The word naming the `--config` file vLLM loads, if the launch names one: only after the
    word `--config` standing alone (`--config=FILE` is stored and never read, VL018)."""
    words = list(argv)
    for i, tok in enumerate(words):
        if tok.text == "--config" and i + 1 < len(words):
            return words[i + 1]
    return None


def read(invocation: Invocation, options: Options) -> ConfigFile:
    """The `--config` file of a launch, read from the repo (NONE when it names none)."""
    config = config_argument(invocation.argv)
    if config is None or config.opaque:
        return NONE
    target = config_target(config, invocation, options)
    if target is None:
        note = problem(
            "VL904",
            config.span,
            for_launch(invocation, options),
            problem=f"{config.text} is not in the repo",
        )
        return ConfigFile(problems=(note,))
    words, problems = _remembered_argv(config, target, options)
    return ConfigFile(tuple(words), tuple(problems), None if target.configmap else str(target.path))


def _remembered_argv(
    config: Token, target: Target, options: Options
) -> tuple[list[Token], list[Problem]]:
    """`_config_argv`, once per file and run: hundreds of launches that name one config file
    (a Dockerfile of many stages) would otherwise read and parse it hundreds of times, time
    that grows with the product of the two sizes. What does not point at the naming word is
    the file's alone, so it is kept (the run's memo, `Options.hints`, not module state)."""
    try:
        stat = target.path.stat()
    except OSError:
        return _config_argv(config, target, options)
    key = (
        "config-file",
        str(target.path),
        target.configmap or "",
        target.key or "",
        str(stat.st_size),
        str(stat.st_mtime_ns),
    )
    found = options.hints.get(key)
    if found is not None:
        return list(found[0]), list(found[1])
    words, problems = _config_argv(config, target, options)
    if all(p.span != config.span for p in problems):
        options.hints[key] = (tuple(words), tuple(problems))
    return words, problems


def config_target(config: Token, invocation: Invocation, options: Options) -> Target | None:
    """Where the `--config` file of a launch is in the repo: through the container's mounts,
    else relative to the file that names it; None when the repo does not hold it."""
    root = Path(os.path.realpath(options.root))
    target = resolve(config.text, invocation.mounts, invocation.workdir)
    if target is None and config.text.startswith("/") and not invocation.mounts:
        return None
    if target is None:
        target = Target(Path(invocation.base_dir) / config.text)
    try:  # realpath, not Path.resolve: that raises RuntimeError on a link loop
        path = Path(os.path.realpath(target.path))
        usable = path.is_relative_to(root) and path.is_file()
    except (OSError, ValueError):  # a NUL byte, a name too long
        usable = False
    return Target(path, target.configmap, target.key) if usable else None


def _config_argv(
    config: Token, target: Target, options: Options
) -> tuple[list[Token], list[Problem]]:
    """The flags of a `--config` file in the repo, as argv words pointing into that file."""
    from vllm_lint.sources.vllm_config import argv_of

    root = Path(os.path.realpath(options.root))
    path = target.path
    shown = str(path.relative_to(root)) if path.is_relative_to(Path.cwd()) else str(path)
    try:
        limit = options.max_bytes(str(path))
        text = reader.read_bytes(path, limit, inside=root).decode("utf-8")
        yf = yaml.load(shown, text)
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        return [], [problem("VL904", config.span, problem=f"{config.text}: {why}")]
    except yaml.YamlError as exc:
        span = Span(shown, exc.line, exc.col, exc.line, exc.col + 1)
        return [], [problem("VL901", span, problem=f"YAML syntax error: {exc}")]
    if target.configmap:
        found = configmap_manifest(yf, target, root, options.max_bytes(str(path)))
        return _configmap_argv(config, found or yf, target)
    if len(yf.documents) != 1 or not yaml.is_mapping(yf.documents[0]):
        return [], []
    try:
        return argv_of(yf, yf.documents[0]), []
    except yaml.YamlError as exc:  # merge keys or aliases past the expansion limit
        line, col = yaml.located(exc, yf)
        span = Span(shown, line, col, line, col + 1)
        return [], [problem("VL901", span, problem=f"YAML: {exc}")]


def _configmap_argv(
    config: Token, yf: yaml.YamlFile, target: Target
) -> tuple[list[Token], list[Problem]]:
    """A `--config` mounted from a ConfigMap key: the YAML inside that string, its spans in
    the manifest."""
    from vllm_lint.read import nested
    from vllm_lint.sources.vllm_config import argv_of

    node = configmap_value(yf, target.configmap, target.key)
    parsed = nested.parse(yf, node) if node is not None and yaml.is_scalar(node) else None
    if node is None or parsed is None:
        what = f"{config.text}: ConfigMap {target.configmap} has no YAML key {target.key}"
        return [], [problem("VL904", config.span, problem=what)]
    inner, remap = parsed
    if len(inner.documents) != 1 or not yaml.is_mapping(inner.documents[0]):
        return [], []
    try:
        words = argv_of(inner, inner.documents[0])
    except yaml.YamlError as exc:  # merge keys or aliases past the expansion limit
        return [], [problem("VL901", config.span, problem=f"YAML: {exc}")]
    return [
        Token(t.text, remap(t.span), t.opaque, tuple((k, remap(w)) for k, w in t.parts))
        for t in words
    ], []
