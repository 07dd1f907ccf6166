"""The engine commands of each release (schemas/commands/, argv/commands.py) as the linter reads
them: every catalogued release has an entry, a client is never one, and a command's parser is
the engine's flags less the server's frontend plus its own."""

from __future__ import annotations

from vllm_lint.argv import commands
from vllm_lint.argv.catalog import catalog_for
from vllm_lint.release import known_releases


def test_every_catalogued_release_lists_its_engine_commands() -> None:
    for release in known_releases():
        for name, entry in commands.commands_of(release).items():
            assert entry["source"].startswith("vllm/"), (release, name)
    assert set(known_releases()) <= set(commands._index())


def test_clients_and_serve_are_not_engine_commands() -> None:
    known = commands.known_commands()
    assert "vllm bench serve" not in known  # a client of a running server
    assert "vllm serve" not in known  # the flag catalogs' own
    assert "vllm collect-env" not in known


def test_bench_latency_takes_the_engine_flags_and_its_own_not_the_servers() -> None:
    serve = catalog_for("0.34.0")
    bench = commands.command_catalog(serve, "vllm bench latency")
    assert bench is not None
    assert bench.resolve("--max-model-len") is not None  # EngineArgs
    assert bench.resolve("--input-len") is not None  # its own
    assert bench.resolve("--port") is None and serve.resolve("--port") is not None
    assert not bench.positional


def test_a_command_is_dated_by_the_releases_that_have_it() -> None:
    assert commands.first_with_command("vllm run-batch") == "0.9.1"
    assert commands.command_catalog(catalog_for("0.9.0"), "vllm run-batch") is None
    assert commands.last_with_command("vllm bench latency", "0.8.4") is None
