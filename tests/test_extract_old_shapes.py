"""tools/extract_flags.py on the code shapes of releases before ServeSubcommand (0.2 - 0.8.x),
read from real excerpts of the wheels (tests/data/vllm-excerpts/, SOURCES.md cites each),
and the argv grammar of the `KEY=VALUE` lists those releases parse.

No network: the one test that reads unpacked wheels is marked `tools` and skips without them."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from tools import extract_flags as ef

from vllm_lint.argv.values import JSON_OBJECT, parse_kvs
from vllm_lint.pipeline import check_command_line

EXCERPTS = Path(__file__).parent / "data" / "vllm-excerpts"


def _records(release: str) -> dict[str, dict[str, object]]:
    """The flag records the OpenAI server's `__main__` block of an excerpt builds."""
    tree = ef.SourceTree(EXCERPTS / release)
    _, sink = ef.interpret_server_main(tree)
    return dict(ef.build_record(rec, False) for rec in sink if not rec.positional)


def test_the_main_block_of_0_2_0_builds_the_parser() -> None:
    """0.2.0: `argparse.ArgumentParser` in `if __name__ == "__main__":` (api_server.py:567),
    six options of its own, then `AsyncEngineArgs.add_cli_args(parser)` (arg_utils.py)."""
    flags = _records("0.2.0")
    assert len(flags) == 30
    assert flags["--host"] == {"default": "localhost", "type": "str"}
    assert flags["--allowed-origins"]["type"] == "json"  # type=json.loads
    assert flags["--tensor-parallel-size"]["aliases"] == ["-tp"]
    assert flags["--block-size"]["choices"] == [8, 16, 32]
    assert flags["--disable-log-requests"]["is_bool"] is True  # AsyncEngineArgs adds it
    assert "--chat-template" not in flags  # new in 0.2.3


def test_no_get_kwargs_is_no_profile() -> None:
    """Before 0.8.5 every flag is an explicit add_argument: no get_kwargs to replicate."""
    profile = ef.detect_profile(ef.SourceTree(EXCERPTS / "0.2.0"))
    assert profile.source == "" and not profile.json_kvs_fallback


def test_vllm_serve_of_0_5_2_takes_the_model_as_a_positional() -> None:
    """vllm/scripts.py (0.5.2 - 0.7.x): `serve_parser.add_argument("model_tag", ...)`."""
    assert ef.legacy_serve_positional(EXCERPTS / "0.5.2") == ["model_tag"]
    assert ef.legacy_serve_positional(EXCERPTS / "0.2.0") == []


def _add_cli_args(release: str) -> dict[str, dict[str, object]]:
    tree = ef.SourceTree(EXCERPTS / release)
    interp = ef.Interpreter(tree, ef.detect_profile(tree))
    module = tree.module("vllm.engine.arg_utils")
    assert module is not None
    engine_args = ef.ClassRef(module, _class(module, "EngineArgs"))
    method = interp.find_method(engine_args, "add_cli_args")
    assert method is not None
    sink: list[ef.ArgRecord] = []
    interp.run_function(method, [ef.ParserObj(sink)], {})
    return dict(ef.build_record(rec, False) for rec in sink)


def _class(module: ef.Module, name: str) -> ast.ClassDef:
    return next(n for n in module.ast.body if isinstance(n, ast.ClassDef) and n.name == name)


def test_nullable_kvs_is_a_kvs_type() -> None:
    """0.7.3 `--limit-mm-per-prompt` has `type=nullable_kvs` (arg_utils.py:631): `image=16`
    pairs only, an empty value is None (`if len(val) == 0: return None`)."""
    rec = _add_cli_args("0.7.3")["--limit-mm-per-prompt"]
    assert rec["type"] == "kvs" and rec["nullable"] is True


@pytest.mark.parametrize(("release", "fallback"), [("0.8.5", True), ("0.10.0", False)])
def test_json_dicts_fall_back_to_kvs_until_0_10(release: str, fallback: bool) -> None:
    """0.8.5: optional_type(json.loads) reads a value that is not `{...}` with nullable_kvs
    (arg_utils.py:58); 0.10.0's parse_type has no such branch (arg_utils.py:64)."""
    profile = ef.detect_profile(ef.SourceTree(EXCERPTS / release))
    assert profile.json_kvs_fallback is fallback


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [
        ("image=16,video=2", {"image": 16, "video": 2}),
        (" Image = 3 ", {"image": 3}),  # nullable_kvs lower-cases and strips each part
        ("image=1,image=1", {"image": 1}),
        ('{"image": 2}', "Each item should be in the form KEY=VALUE"),
        ("image=two", "Failed to parse value of item image=two"),
        ("image=1,image=2", "Conflicting values specified for key: image"),
    ],
)
def test_parse_kvs_is_nullable_kvs(raw: str, parsed: object) -> None:
    """vLLM 0.7.3 vllm/engine/arg_utils.py:53-87 (the excerpt), message for message."""
    assert parse_kvs(raw) == parsed


def test_json_object_is_vllms_test() -> None:
    """`re.match("^{.*}$", val)` (0.8.5 arg_utils.py:58)."""
    assert JSON_OBJECT.match('{"image": 2}') and not JSON_OBJECT.match("image=2")


@pytest.mark.parametrize(
    ("value", "release", "rule"),
    [
        ('{"image": 2}', "0.8.4", "VL004"),  # nullable_kvs only
        ('{"image": 2}', "0.8.5", None),
        ("image=2", "0.8.4", None),
        ("image=2", "0.9.2", None),  # the fallback
        ("image=2", "0.10.0", "VL007"),  # JSON only
        ("image=x", "0.9.2", "VL004"),
        ("", "0.8.4", None),  # None
    ],
)
def test_limit_mm_per_prompt_per_release(value: str, release: str, rule: str | None) -> None:
    argv = f"m --limit-mm-per-prompt '{value}'"
    rules = [f.rule for f in check_command_line(argv, release) if f.rule in ("VL004", "VL007")]
    assert rules == ([rule] if rule else [])


@pytest.mark.tools
@pytest.mark.skipif(
    not (Path(os.environ.get("VLLM_SRC", "/tmp/vllm-src")) / "0.2.0").is_dir(),
    reason="needs the unpacked wheels (tools/README.md): /tmp/vllm-src/<release>/",
)
def test_extraction_of_the_unpacked_wheels_matches_the_catalogs() -> None:
    """Every catalogued release, extracted again from its wheel, gives the shipped catalog."""
    from vllm_lint.argv.catalog import catalog_for, known_releases

    src = Path(os.environ.get("VLLM_SRC", "/tmp/vllm-src"))
    for release in known_releases():
        got = ef.extract_release(src / release, ef.minor_of(release))
        shipped = catalog_for(release)
        assert got["flags"] == {name: dict(spec.record) for name, spec in shipped.flags.items()}
