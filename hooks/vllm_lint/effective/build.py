"""The effective settings of one launch: its `--config` file's flags (read before, by
`sources/config_file.py`) and its command line parsed by the argv grammar of its release, its
environment, the release's defaults, derived values. Nothing here reads a file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from vllm_lint import release as releases
from vllm_lint.argv import commands, unused
from vllm_lint.argv.catalog import Catalog, catalog_for
from vllm_lint.argv.parser import ArgvParser
from vllm_lint.effective.derive import derive
from vllm_lint.effective.entrypoints import launch_problems
from vllm_lint.effective.settings import Settings
from vllm_lint.model import Invocation, Problem, Span, Token

if TYPE_CHECKING:
    from vllm_lint.options import Options
    from vllm_lint.sources.config_file import ConfigFile


def settings_for(
    invocation: Invocation, options: Options, config: ConfigFile
) -> tuple[Settings, list[Problem]]:
    """The effective settings of an invocation, given what its `--config` file holds, and the
    flag problems met on the way (the file's own only when vLLM would read it)."""
    release = releases.for_launch(invocation, options)
    deployed = None  # the upgrade check: what the launch deploys, for what its words meant
    if options.vllm_version:
        deployed = releases.for_launch(invocation, options.forcing(None)).version
    cat = catalog_for(releases.catalog_release(release.version))
    problems, reaches_parser = launch_problems(invocation, release, cat.release)
    if reaches_parser and invocation.entrypoint in commands.known_commands():
        # `vllm bench latency`, `vllm run-batch`…: the engine's flags and the command's own
        cat = commands.command_catalog(cat, invocation.entrypoint) or cat
    parser = ArgvParser(
        cat, release, deployed if deployed != release.version else None, options.hints
    )
    settings = Settings(release)
    settings.judged = reaches_parser
    if reaches_parser:
        problems += unused.config_problems(invocation.argv, release)
    from_file: dict[str, Span] = {}
    if reaches_parser and (config.argv or config.problems):
        problems += config.problems
        problems += parser.parse(list(config.argv), into=settings).problems
        from_file = dict(settings.spans)
    if reaches_parser:
        argv: Sequence[Token] = invocation.argv
        if invocation.api is not None:  # keyword arguments, as that class of the release takes
            from vllm_lint.effective import python_api

            argv, refused = python_api.prepare(invocation.api, argv, release, parser.cat)
            problems += refused
            parser.python_api = True
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
    for k, grant in enumerate(invocation.gpus):  # what the carrier says of the node's GPUs
        record = {"count": grant.number, "how": grant.how, "vendor": grant.vendor}
        settings.document.setdefault("gpus", []).append(record)
        settings.spans[f"gpus.{k}"] = grant.span
        settings.labels[f"gpus.{k}"] = f"the {grant.how}"
    if invocation.env:
        from vllm_lint.effective import environ

        problems += environ.check(settings, parser.cat.release, options.hints)
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
