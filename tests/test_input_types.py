"""Exit 3 never comes from input: the documents the linter parses beside the linted files —
the release pins of pyproject.toml, uv.lock / pylock.toml, Pipfile.lock, and the
configuration's home pyproject.toml — may hold a value of any type where a table, a list or a
string is expected (`tool = 1` at the root). Each such document is a result (the pin found or
not, exit 0/1) or a one-line error naming the file (exit 2), never an internal error.

The variants are made, not listed: every value of a real-shaped document, at every depth, is
swapped for a value of each other type, and the real CLI lints a launch beside it.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli

PIN = "0.8.5"
DOCUMENTS: dict[str, dict[str, Any]] = {
    "pyproject.toml": {
        "project": {
            "name": "app",
            "dependencies": [f"vllm=={PIN}"],
            "optional-dependencies": {"gpu": [f"vllm=={PIN}"]},
        },
        "dependency-groups": {"dev": [f"vllm=={PIN}"]},
        "tool": {
            "poetry": {
                "dependencies": {"vllm": {"version": PIN}},
                "group": {"dev": {"dependencies": {"vllm": PIN}}},
            },
            "ruff": {"line-length": 100},
        },
    },
    "uv.lock": {"version": 1, "package": [{"name": "vllm", "version": PIN}]},
    "pylock.toml": {"lock-version": "1.0", "packages": [{"name": "vllm", "version": PIN}]},
    "Pipfile.lock": {
        "_meta": {"hash": {"sha256": "0"}},
        "default": {"vllm": {"version": f"=={PIN}"}},
        "develop": {"vllm": {"version": f"=={PIN}"}},
    },
}
OTHERS: list[Any] = [1, "vllm==0.8.5", [], {}, True, ["vllm"], {"vllm": 1}, 1.5]
LAUNCH = "#!/bin/sh\nvllm serve m --max-num-batched-token=8192\n"


def _toml_value(value: Any) -> str:
    """TOML for a JSON-like value, inline (tables as `{k = v}`): enough to write any shape."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"


def _written(name: str, document: dict[str, Any]) -> str:
    if name.endswith(".lock") and name.startswith("Pipfile"):
        return json.dumps(document)
    # the comment keeps the word the pin reader looks for first, whatever the variant dropped
    return "# vllm\n" + "".join(
        f"{json.dumps(k)} = {_toml_value(v)}\n" for k, v in document.items()
    )


def _variants(value: Any) -> Iterator[Any]:
    """`value` with one of its parts (itself included) swapped for a value of another type."""
    for other in OTHERS:
        if type(other) is not type(value):
            yield other
    if isinstance(value, dict):
        for key, inner in value.items():
            for changed in _variants(inner):
                yield {**value, key: changed}
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            for changed in _variants(inner):
                yield [*value[:index], changed, *value[index + 1 :]]


def _outcome(root: Path) -> str | None:
    """What is wrong with linting the launch beside the document, or None."""
    run = run_cli("--format", "json", "run.sh", cwd=root)
    if run.code == 2 and run.err.count("\n") == 1 and run.err.startswith("vllm-lint: error:"):
        return None
    if run.code not in (0, 1) or run.err:
        return f"exit {run.code}: {run.err.strip()[:200]}"
    return None


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_a_value_of_any_type_in_a_pin_file_is_never_an_internal_error(
    tmp_path: Path, name: str
) -> None:
    (tmp_path / "run.sh").write_text(LAUNCH)
    document = DOCUMENTS[name]
    (tmp_path / name).write_text(_written(name, document))
    pinned = run_cli("--show-invocations", "--format", "json", "run.sh", cwd=tmp_path)
    assert PIN in pinned.out, f"the unchanged {name} pins {PIN}: {pinned.out[:300]}"
    failures = []
    count = 0
    for variant in _variants(document):
        if not isinstance(variant, dict):
            continue  # the root of TOML is a table; of Pipfile.lock, below
        count += 1
        (tmp_path / name).write_text(_written(name, variant))
        wrong = _outcome(tmp_path)
        if wrong:
            failures.append(f"{_written(name, variant).strip()[:160]} -> {wrong}")
    assert count > 20
    assert not failures, f"{len(failures)} of {count} variants:\n" + "\n".join(failures[:10])


@pytest.mark.parametrize("root", ["1", '"x"', "[1]", "null", "true"])
def test_a_pipfile_lock_of_any_json_type_is_never_an_internal_error(
    tmp_path: Path, root: str
) -> None:
    (tmp_path / "run.sh").write_text(LAUNCH)
    (tmp_path / "Pipfile.lock").write_text(root + " ")
    assert _outcome(tmp_path) is None


@pytest.mark.parametrize("tool", ["1", '"vllm-lint"', "[1, 2]", "true", "{vllm-lint = 1}"])
def test_a_tool_of_any_type_in_pyproject_toml_is_never_an_internal_error(
    tmp_path: Path, tool: str
) -> None:
    (tmp_path / "run.sh").write_text(LAUNCH)
    (tmp_path / "pyproject.toml").write_text(f"tool = {tool}\n")
    run = run_cli("run.sh", cwd=tmp_path)
    assert _outcome(tmp_path) is None, run.err
    if tool.startswith("{"):
        assert run.code == 2 and "[tool.vllm-lint] must be a table" in run.err
    else:  # no [tool.vllm-lint] table: no configuration here, the launch is linted
        assert run.code == 0 and "VL008" in run.out, run.err  # info: exit 0


@pytest.mark.skipif(os.name == "nt" or sys.platform == "darwin", reason="names are bytes")
def test_a_file_name_that_is_not_utf8_is_never_an_internal_error(tmp_path: Path) -> None:
    name = os.fsdecode(b"run\xff\x1b.sh")  # undecodable, and an escape
    (tmp_path / name).write_text(LAUNCH.replace("token=", "token=8 --swap-space 4 #"))
    sarif = run_cli("--vllm-version", "0.34.0", "--sarif-file", "out.sarif", ".", cwd=tmp_path)
    assert sarif.code == 1 and sarif.err == "", sarif.err
    document = json.loads((tmp_path / "out.sarif").read_text("utf-8"))
    [uri] = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in document["runs"][0]["results"]
    }
    assert uri == "run%FF%1B.sh"
    wrote = run_cli("--vllm-version", "0.34.0", "--write-baseline", "b.json", ".", cwd=tmp_path)
    assert wrote.code == 0, wrote.err
    again = run_cli("--vllm-version", "0.34.0", "--baseline", "b.json", ".", cwd=tmp_path)
    assert again.code == 0 and "All clean" in again.out, again.err
