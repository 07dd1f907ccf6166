"""Shared helpers: run the real CLI in-process on real files written to a temporary folder."""

from __future__ import annotations

import io
import json
import os
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from vllm_lint.cli import main

REPO = Path(__file__).resolve().parents[1]

# The per-user cache of the built-in rules (rules/cache.py) lives under the test session's own
# folder: no test reads or writes the user's ~/.cache, and every run of the CLI a test makes,
# in-process or as a child, goes through the cache as a user's second run does.
_SESSION_CACHE: str | None = None
if "VLLM_LINT_CACHE_DIR" not in os.environ:
    import tempfile

    _SESSION_CACHE = tempfile.mkdtemp(prefix="vllm-lint-test-cache-")
    os.environ["VLLM_LINT_CACHE_DIR"] = _SESSION_CACHE


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _SESSION_CACHE is not None:
        import shutil

        shutil.rmtree(_SESSION_CACHE, ignore_errors=True)


# Real public files kept as test data (never collected, imported or run)
collect_ignore = ["corpus"]
DATA = REPO / "tests" / "data"
# Real public deployment files (tests/corpus/real-world/SOURCES.md: URL, commit, license)
CORPUS = REPO / "tests" / "corpus" / "real-world"

# A Deployment that vLLM 0.28.0 refuses at startup: --use-replayssm with speculative decoding
# (line 12: --use-replayssm, line 13: --speculative-config).
BAD_DEPLOYMENT = """
apiVersion: apps/v1
kind: Deployment
metadata: {name: nemotron}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.28.0
          args:
            - nvidia/NVIDIA-Nemotron-Nano-9B-v2
            - --use-replayssm
            - --speculative-config
            - '{"method":"ngram","num_speculative_tokens":3}'
"""


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)

    def findings(self) -> list[dict[str, Any]]:
        return list(self.json()["findings"])


@contextmanager
def chdir(path: Path) -> Iterator[None]:
    old = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def run_cli(*args: str, cwd: Path | None = None) -> Run:
    out, err = io.StringIO(), io.StringIO()
    with chdir(cwd or Path.cwd()), redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return Run(code, out.getvalue(), err.getvalue())


def write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return tmp_path


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        help="rewrite tests/cases/**/expected.txt from the real output (then review the diff)",
    )
    parser.addoption(
        "--all-lanes",
        action="store_true",
        help="run every lane (CI); a bare `python -m pytest` runs the fast lane, -m slow or "
        "-m tools another, and naming files, folders or tests runs what they select",
    )


# The lanes (CONTRIBUTING.md): `slow` holds what starts other programs or replays whole corpora
# (pre-commit try-repo builds, the action's install, hostile inputs in children with limits,
# growth ratios), `tools` the tests of tools/ (the generators of the shipped data). A bare run
# (no paths, no -m) is the fast lane: neither.
LANE_MARKS = frozenset({"slow", "tools"})


def _fast_lane(config: pytest.Config) -> bool:
    bare = config.args_source is pytest.Config.ArgsSource.TESTPATHS
    return bare and not config.option.markexpr and not config.getoption("--all-lanes")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not _fast_lane(config):
        return
    kept, left = [], []
    for item in items:
        in_a_lane = any(m.name in LANE_MARKS for m in item.iter_markers())
        (left if in_a_lane else kept).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


def pytest_report_header(config: pytest.Config) -> str | None:
    if _fast_lane(config):
        return "lane: fast (the others: -m slow, -m tools; every lane: --all-lanes)"
    return None
