"""The effective settings of one launch: its `--config` file and command line read by the
argv grammar of its release, its environment, the release's defaults, derived values."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from vllm_lint import release as releases
from vllm_lint.argv import unused
from vllm_lint.argv.catalog import Catalog, catalog_for
from vllm_lint.argv.parser import ArgvParser
from vllm_lint.effective.derive import derive
from vllm_lint.effective.entrypoints import launch_problems
from vllm_lint.effective.mounts import Target, configmap_manifest, configmap_value, resolve
from vllm_lint.effective.settings import Settings
from vllm_lint.files import reader
from vllm_lint.model import Invocation, Problem, Span, Token, problem
from vllm_lint.options import Options
from vllm_lint.read import yaml


def settings_for(invocation: Invocation, options: Options) -> tuple[Settings, list[Problem]]:
    """The effective settings of an invocation and the flag problems met on the way."""
    release = releases.for_launch(invocation, options)
    deployed = None  # the upgrade check: what the launch deploys, for what its words meant
    if options.vllm_version:
        deployed = releases.for_launch(invocation, options.forcing(None)).version
    cat = catalog_for(releases.catalog_release(release.version))
    parser = ArgvParser(cat, release, deployed if deployed != release.version else None)
    settings = Settings(release)
    problems, reaches_parser = launch_problems(invocation, release)
    settings.judged = reaches_parser
    if reaches_parser:
        problems += unused.config_problems(invocation.argv, release)
    config = config_argument(invocation.argv) if reaches_parser else None
    from_file: dict[str, Span] = {}
    if config is not None and not config.opaque:
        config_argv, config_problems = _config_argv(config, invocation, options)
        problems += config_problems
        problems += parser.parse(config_argv, into=settings).problems
        from_file = dict(settings.spans)
    if reaches_parser:
        argv: Sequence[Token] = invocation.argv
        if invocation.api is not None:  # keyword arguments, as that class of the release takes
            from vllm_lint.effective import python_api

            argv, refused = python_api.prepare(invocation.api, argv, release, parser.cat)
            problems += refused
        problems += parser.parse(argv, into=settings).problems
    if from_file:
        problems += unused.overridden(from_file, settings, next(iter(from_file.values())).path)
    if settings.spans:  # what the launch wrote, before defaults: pydantic judges no default
        from vllm_lint.argv import mined

        problems += mined.check(settings, parser.cat)
        data = mined.validation_for(parser.cat.release)
        if data and data["conditional"]:
            problems += unused.switched_off(settings, parser.cat, data["conditional"])
    if invocation.image is not None and not invocation.image.opaque:
        settings.set("image", invocation.image.text, invocation.image.span)
    for name, token in invocation.env.items():
        settings.set(f"env.{name}", token.text, token.span)
        if token.opaque:
            settings.opaque.add(f"env.{name}")
    if invocation.env:
        from vllm_lint.effective import environ

        problems += environ.check(settings, parser.cat.release)
    _fill_defaults(settings, parser.cat)
    if invocation.api is not None:
        _python_api_defaults(settings, invocation)
    derive(settings)
    if invocation.api is not None:  # rules on what only the Python API refuses read it
        settings.document["derived"]["python_api"] = invocation.api.rpartition(".")[2]
        if invocation.anchor is not None:
            settings.spans["derived.python_api"] = invocation.anchor
    return settings, problems


def _python_api_defaults(settings: Settings, invocation: Invocation) -> None:
    """`LLM(...)` sets some engine arguments itself unless given (llm.py: disable_log_stats)."""
    from vllm_lint.effective.python_api import api_of, class_of

    if invocation.api is None or class_of(invocation.api) != "LLM":
        return

    for path, value in api_of(settings.release.version).llm_sets.items():
        if path in settings.defaulted or not settings.has(path):
            settings.document[path] = value
            settings.defaulted.add(path)


def _fill_defaults(settings: Settings, cat: Catalog) -> None:
    document = settings.document
    for path, default in cat.defaults:
        if path not in document:  # top-level paths only: `Settings.has` and `set`, inlined
            document[path] = default
            settings.defaulted.add(path)


def config_argument(argv: Iterable[Token]) -> Token | None:
    """The word naming the `--config` file vLLM loads, if the launch names one: only after the
    word `--config` standing alone (`--config=FILE` is stored and never read, VL018)."""
    words = list(argv)
    for i, tok in enumerate(words):
        if tok.text == "--config" and i + 1 < len(words):
            return words[i + 1]
    return None


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
    config: Token, invocation: Invocation, options: Options
) -> tuple[list[Token], list[Problem]]:
    """The flags of a `--config` file in the repo, as argv words pointing into that file."""
    from vllm_lint.sources.vllm_config import argv_of

    root = Path(os.path.realpath(options.root))
    target = config_target(config, invocation, options)
    if target is None:
        note = problem(
            "VL904",
            config.span,
            invocation.version_hint,
            problem=f"{config.text} is not in the repo",
        )
        return [], [note]
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
    return [Token(t.text, remap(t.span), t.opaque) for t in words], []
