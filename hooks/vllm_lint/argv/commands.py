"""The commands other than `vllm serve` that build vLLM's engine parser, per release.

`vllm bench latency`, `vllm run-batch`, `python -m vllm.entrypoints.openai.run_batch` … take
the engine's flags (`EngineArgs.add_cli_args`, or the server's whole `make_arg_parser`) and
refuse a flag their release does not have exactly as `vllm serve` does. `schemas/commands/`
(written by `tools/extract_commands.py` from each release's wheel) lists them for every
catalogued release, each against the release's `serve` catalog: `without` (serve's options it
lacks: the server's frontend), `flags` (its own options), `positional`, `source`. Stdlib only.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from vllm_lint.argv.catalog import Catalog, build_catalog
from vllm_lint.argv.catalog import _records as serve_records
from vllm_lint.release import full_key, key
from vllm_lint.resources import shipped_json


@cache
def _load(name: str) -> Mapping[str, Any]:
    data: dict[str, Any] = shipped_json("commands", name)
    return data


@cache
def _index() -> Mapping[str, Mapping[str, Any]]:
    """Every catalogued release -> its entry, oldest first (the file keeps them sorted as text)."""
    releases: Mapping[str, Mapping[str, Any]] = _load("index.json")["releases"]
    return dict(sorted(releases.items(), key=lambda item: full_key(item[0])))


@cache
def known_commands() -> frozenset[str]:
    """Every command any catalogued release has (`vllm bench latency`, a module name)."""
    return frozenset(c for entry in _index().values() for c in entry["commands"])


@cache
def cli_words() -> frozenset[tuple[str, ...]]:
    """The words after `vllm` of every CLI command: `("bench", "latency")`, `("run-batch",)`."""
    return frozenset(tuple(c.split()[1:]) for c in known_commands() if c.startswith("vllm "))


@cache
def markers() -> tuple[str, ...]:
    """Words a text holding one of these commands contains (`bench`, `run_batch`): the cheap
    tests the readers make before they lex a string."""
    found = {
        c.split()[1] if c.startswith("vllm ") else c.rpartition(".")[2] for c in known_commands()
    }
    return tuple(sorted(found))


def commands_of(release: str) -> Mapping[str, Mapping[str, Any]]:
    """The engine commands of a catalogued release (its exact key in `schemas/flags/`)."""
    entry = _index().get(release)
    if entry is None:
        return {}
    commands: Mapping[str, Mapping[str, Any]] = _load(entry["file"])["commands"]
    return commands


def last_with_command(command: str, before: str) -> str | None:
    """The newest catalogued release up to `before` that has `command`."""
    found = None
    for release, entry in _index().items():
        if key(release) <= key(before) and command in entry["commands"]:
            found = release
    return found


def first_with_command(command: str) -> str | None:
    """The oldest catalogued release that has `command`."""
    return next((r for r, entry in _index().items() if command in entry["commands"]), None)


@cache
def command_catalog(serve: Catalog, command: str) -> Catalog | None:
    """The flags `command` accepts in the release of `serve` (that release's serve catalog less
    its `without`, plus its own `flags`), or None when the release lacks the command."""
    entry = commands_of(serve.release).get(command)
    if entry is None:
        return None
    records, features = serve_records(serve.release)
    flags = {n: r for n, r in records.items() if n not in set(entry.get("without", ()))}
    flags.update(entry.get("flags", {}))
    features = dict(features)
    features["positional"] = list(entry.get("positional", ()))
    features.pop("serve_model_option", None)  # `vllm serve --model`'s own history
    return build_catalog(serve.release, flags, features)
