"""No module keeps state between runs (issue 26): the CLI runs several times in one process
on different inputs of the same shapes, and what the package's modules hold must be the same
after the later runs as after the first ones. Caches live on the objects of a run (Options,
a Config, a parser), which go when the run does; a module may keep only what is built from
the shipped data (schemas/), bounded by it and the same for every input (KEPT below)."""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli, write

# What stays in a module although it changes with the input, and why. (The caches of shipped
# data stay too and need no entry: keyed by a release or by nothing — argv/catalog.py's
# catalogs, rules/registry.py's built-in rules, the envs, mined validation, Python API and
# model facts of a release — they are full after the first runs, and the later runs on new
# input do not change them, which is what the test below checks.)
KEPT: dict[str, str] = {
    # read/yaml.py's memos of one file's mappings and walks: emptied by every `yaml.load`, so
    # they hold one file at most; they move onto the YamlFile when `items`/`walk` take it.
    "vllm_lint.read.yaml._ENTRIES": "one file's mappings, emptied by every load",
    "vllm_lint.read.yaml._WALKS": "one file's walks, emptied by every load",
    "vllm_lint.read.yaml._MERGED": "one file's merge budget, reset by every load",
    # release.py is being rewritten (issue 24); its memo of pin files (keyed by path, time
    # and size, at most 1024) moves to the run's Options there.
    "vllm_lint.release._one_file_pins": "release.py's rewrite (issue 24) moves it to the run",
}


def _measure(key: str, value: Any, state: dict[str, object], depth: int = 0) -> None:
    info = getattr(value, "cache_info", None)
    if callable(info) and not isinstance(value, type):  # functools.cache / lru_cache
        state[key] = info().currsize
    elif isinstance(value, (dict, list, set, bytearray, collections.deque)):
        # a small container by its contents (a one-element list used as a cell), a large one
        # by its size
        state[key] = repr(value) if len(value) <= 8 else len(value)
    elif depth == 0 and isinstance(value, type) and value.__module__.startswith("vllm_lint"):
        for name, inner in vars(value).items():  # class attributes
            if not name.startswith("__"):
                _measure(f"{key}.{name}", inner, state, 1)
    elif depth == 0 and type(value).__module__.startswith("vllm_lint"):
        for name, inner in getattr(value, "__dict__", {}).items():  # a module-level object
            _measure(f"{key}.{name}", inner, state, 1)


def package_state() -> dict[str, object]:
    """What every loaded module of the package holds that a run could change."""
    state: dict[str, object] = {}
    for name, module in list(sys.modules.items()):
        if name == "vllm_lint" or name.startswith("vllm_lint."):
            for attr, value in list(vars(module).items()):
                _measure(f"{name}.{attr}", value, state)
    return state


def changed(before: dict[str, object], after: dict[str, object]) -> list[str]:
    return sorted(
        key
        for key in before.keys() | after.keys()
        if before.get(key) != after.get(key) and key not in KEPT
    )


def _repo(root: Path, i: int) -> Path:
    """One repo of every shape the CLI reads; `i` changes every value a user writes (flag
    names, models, variables, patterns, paths), not the shapes or the release."""
    write(
        root,
        "deploy.yaml",
        f"""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {{name: server-{i}}}
        spec:
          template:
            spec:
              containers:
                - name: vllm
                  image: vllm/vllm-openai:v0.28.0
                  args: [org/model-{i}, --use-replayssm, --no-such-flag-{i}, --config, cfg-{i}.yaml,
                         --speculative-config, '{{"method": "ngram", "num_speculative_tokens": {i + 2}}}']
                  env: [{{name: VLLM_NO_SUCH_VARIABLE_{i}, value: "1"}}]
        """,
    )
    write(root, f"cfg-{i}.yaml", f"max-model-len: {1024 + i}\nseed: {i}\nbogus-key-{i}: 1\n")
    write(
        root,
        "serve.sh",
        f"#!/bin/sh\n# pin: vllm==0.28.0\nvllm serve org/other-{i} --swap-space {i + 1} "
        f"--tensor-parallel-size {i + 3} --typo-flag-{i}\n",
    )
    write(
        root,
        "launch.py",
        f"""
        from vllm import LLM
        llm = LLM(model="org/py-{i}", tensor_parallel_size={i + 1}, unknown_kw_{i}=1)
        """,
    )
    write(
        root, "Dockerfile", f'FROM vllm/vllm-openai:v0.28.0\nCMD ["--model", "m{i}", "--bad-{i}"]\n'
    )
    write(root, "README.md", f"```sh\nvllm serve m{i} --max-num-seqs {i + 7} --oops-{i}\n```\n")
    pack = {
        "rules": [
            {
                "id": f"ORG{100 + i}",
                "slug": f"org-rule-{i}",
                "severity": "warning",
                "summary": "s",
                "message": "m",
                "flags": ["model"],
                "rejects": {"properties": {"model": {"pattern": f"^org/model-{i}$"}}},
                "examples": {"fail": [], "pass": ["m"]},
            }
        ]
    }
    (root / "pack.json").write_text(json.dumps(pack), encoding="utf-8")
    write(root, ".vllm-lint.yaml", "extra-rules: [pack.json]\n")
    return root


def _runs(tmp: Path, numbers: range) -> None:
    for i in numbers:
        root = _repo(tmp / f"repo-{i}", i)
        for args in (["-o", "json", "."], ["--show-invocations", "."], ["--diff", "."]):
            run = run_cli(*args, cwd=root)
            assert run.code in (0, 1), (args, run.err)


def test_runs_leave_no_state_behind(tmp_path: Path) -> None:
    _runs(tmp_path, range(2))  # what any run loads (catalogs, rules of the release) is loaded
    before = package_state()
    _runs(tmp_path, range(2, 5))
    assert changed(before, package_state()) == []


def test_the_state_probe_sees_a_cell_and_a_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: a one-element list used as a counter and a cache keyed by input both show."""
    import functools

    from vllm_lint.read import yaml

    cell = [0]
    monkeypatch.setattr(yaml, "_PLANTED_CELL", cell, raising=False)
    cached = functools.cache(lambda text: len(text))
    monkeypatch.setattr(yaml, "_PLANTED_CACHE", cached, raising=False)
    before = package_state()
    cell[0] += 1
    cached("a launch's text")
    assert changed(before, package_state()) == [
        "vllm_lint.read.yaml._PLANTED_CACHE",
        "vllm_lint.read.yaml._PLANTED_CELL",
    ]
