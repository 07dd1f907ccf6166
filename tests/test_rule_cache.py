"""The per-user cache of the built-in rule files (hooks/vllm_lint/rules/cache.py): used only
when it was made from exactly the files there are, never an error, never a different result."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO
from vllm_lint import __version__
from vllm_lint.rules import cache

RULES = REPO / "schemas" / "rules"


class CountingReader:
    """Reads rule files as the registry does, counting them."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self, path: Path) -> Any:
        self.reads += 1
        return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two real rule areas copied to a folder of their own, and a cache folder of the test's."""
    folder = tmp_path / "rules"
    for area in ("replayssm", "launch"):
        shutil.copytree(RULES / area, folder / area)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    return folder


def _cache_file(tmp_path: Path, folder: Path | None = None) -> Path:
    found = cache.cache_file(folder or tmp_path / "rules")
    assert found is not None and found.parent == tmp_path / "cache"
    return found


def test_a_second_read_comes_from_the_cache(rules: Path, tmp_path: Path) -> None:
    first, second = CountingReader(), CountingReader()
    files = len(list(rules.glob("*/*.json")))
    assert cache.parsed_files(rules, first) == cache.parsed_files(rules, second)
    assert (first.reads, second.reads) == (files, 0)
    assert _cache_file(tmp_path).is_file()


@pytest.mark.parametrize("change", ["edit", "same-size-edit", "add", "remove"])
def test_a_changed_rule_folder_is_read_again(rules: Path, change: str) -> None:
    cache.parsed_files(rules, CountingReader())
    rule = sorted(rules.glob("replayssm/*.json"))[0]
    data = json.loads(rule.read_text(encoding="utf-8"))
    if change == "edit":
        data["rules"][0]["summary"] += " (edited)"
        rule.write_text(json.dumps(data), encoding="utf-8")
    elif change == "same-size-edit":  # the same bytes count, a later modification time
        text = rule.read_text(encoding="utf-8")
        rule.write_text(text.replace('"summary": "', '"summary": "X', 1)[:-1], encoding="utf-8")
        stat = rule.stat()
        os.utime(rule, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    elif change == "add":
        shutil.copy(rule, rules / "launch" / "VL999-added.json")
    else:
        rule.unlink()
    reader = CountingReader()
    got = cache.parsed_files(rules, reader)
    assert reader.reads == len(list(rules.glob("*/*.json")))
    assert got == [[str(p), CountingReader()(p)] for p in sorted(rules.glob("*/*.json"))]


@pytest.mark.parametrize(
    "content",
    [b"", b"not json", b"[]", b'{"listing": [], "files": []}', b"[" * 100_000, b"\xff\xfe"],
    ids=["empty", "garbage", "list", "other-listing", "deep", "bad-utf8"],
)
def test_a_broken_cache_is_ignored_and_rewritten(
    rules: Path, tmp_path: Path, content: bytes
) -> None:
    expected = cache.parsed_files(rules, CountingReader())
    _cache_file(tmp_path).write_bytes(content)
    reader = CountingReader()
    assert cache.parsed_files(rules, reader) == expected
    assert reader.reads > 0
    assert json.loads(_cache_file(tmp_path).read_bytes())["files"] == expected


def test_a_cache_of_another_shape_is_ignored(rules: Path, tmp_path: Path) -> None:
    """The same listing, but the files' contents are not rule files: read the files."""
    expected = cache.parsed_files(rules, CountingReader())
    stored = json.loads(_cache_file(tmp_path).read_bytes())
    stored["files"] = [[path, {"not": "rules"}] for path, _data in stored["files"]]
    _cache_file(tmp_path).write_text(json.dumps(stored), encoding="utf-8")
    assert cache.parsed_files(rules, CountingReader()) == expected


def test_off_when_the_setting_is_empty(
    rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", "")
    assert cache.cache_folder() is None
    reader = CountingReader()
    cache.parsed_files(rules, reader)
    cache.parsed_files(rules, reader)
    assert reader.reads == 2 * len(list(rules.glob("*/*.json")))
    assert not (tmp_path / "cache").exists()


def test_two_installs_keep_a_cache_each(rules: Path, tmp_path: Path) -> None:
    """A checkout and pre-commit's copy of the same version do not overwrite each other."""
    other = tmp_path / "other-install" / "rules"
    shutil.copytree(rules, other)
    cache.parsed_files(rules, CountingReader())
    cache.parsed_files(other, CountingReader())
    again, other_again = CountingReader(), CountingReader()
    cache.parsed_files(rules, again)
    cache.parsed_files(other, other_again)
    assert (again.reads, other_again.reads) == (0, 0)
    assert _cache_file(tmp_path) != _cache_file(tmp_path, other)


def test_the_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_folder() == tmp_path / "vllm-lint"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_folder() == tmp_path / "home" / ".cache" / "vllm-lint"


def test_a_folder_that_cannot_be_written_is_no_error(
    rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(blocker / "cache"))
    expected = [[str(p), CountingReader()(p)] for p in sorted(rules.glob("*/*.json"))]
    assert cache.parsed_files(rules, CountingReader()) == expected
    assert blocker.read_text() == "not a folder"
    assert not list(tmp_path.glob("**/*.tmp"))


def test_the_real_cli_gives_the_same_answer_from_the_cache(tmp_path: Path) -> None:
    """The built-in rules, read by the real program with a cold cache, then from it."""
    deploy = tmp_path / "deploy.yaml"
    deploy.write_text((REPO / "examples/kubernetes/nemotron-replayssm-v0.28.yaml").read_text())
    env = {**os.environ, "VLLM_LINT_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "vllm_lint", "-o", "json", str(deploy)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )

    cold = run()
    written = list((tmp_path / "cache").glob(f"rules-{__version__}-*.json"))
    assert len(written) == 1
    warm = run()
    assert (cold.returncode, cold.stdout, cold.stderr) == (
        warm.returncode,
        warm.stdout,
        warm.stderr,
    )
    assert cold.returncode == 1 and "VL101" in cold.stdout
    stored = json.loads(written[0].read_bytes())
    assert len(stored["files"]) == len(list(RULES.glob("*/*.json")))
