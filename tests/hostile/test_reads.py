"""What is read: regular files of the repo only, capped, never blocking. Links out of the repo,
devices and FIFOs are neither followed by the linter nor by its reporters."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from childrun import TIMING_FILE, lint
from test_traps import AUDIT

MANIFEST = (
    "services:\n  s:\n    image: vllm/vllm-openai:v0.28.0\n"
    '    command: [m, --use-replayssm, -sc, \'{"method": "ngram", "num_speculative_tokens": 3}\']\n'
)
pytestmark = [
    pytest.mark.slow,  # each input is linted in a child process with time and memory limits
    pytest.mark.skipif(sys.platform == "win32", reason="links and FIFOs"),
]


def _opened(log: Path) -> list[str]:
    lines = log.read_text().splitlines() if log.exists() else []
    return [
        line.split("\t", 1)[1]
        for line in lines
        if line.startswith("open\t") and not line.endswith(TIMING_FILE)
    ]


def _audited(root: Path, log: Path, *args: str) -> list[str]:
    os.environ["AUDIT_LOG"] = str(log)
    try:
        lint(root, *args, prelude=AUDIT)
    finally:
        del os.environ["AUDIT_LOG"]
    return _opened(log)


@pytest.mark.parametrize("output", ["text", "json", "github", "sarif", "markdown"])
def test_no_reporter_reads_through_a_link_out_of_the_repo(tmp_path: Path, output: str) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET first line\n")
    os.symlink(secret, root / "x.yaml")
    (root / "d.yaml").write_text(MANIFEST)
    opened = _audited(root, tmp_path / "audit.log", "--format", output, ".")
    assert not [p for p in opened if p.endswith("secret.txt")], opened
    child = lint(root, "--format", output, "--sarif-file", str(tmp_path / "out.sarif"), ".")
    assert "TOP-SECRET" not in child.out
    assert "TOP-SECRET" not in (tmp_path / "out.sarif").read_text()


def test_a_link_to_a_device_costs_nothing(tmp_path: Path) -> None:
    os.symlink("/dev/zero", tmp_path / "zero.yaml")  # read whole: all memory (23 GB seen)
    os.symlink("/dev/urandom", tmp_path / "random.yaml")
    child = lint(tmp_path, "--format", "text", ".")
    assert "zero.yaml:1:1: VL921" in child.out and "random.yaml:1:1: VL921" in child.out
    assert "    1 |" not in child.out  # no excerpt: the target is not read


def test_a_fifo_in_a_walked_folder_is_reported_not_waited_for(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "deploy.yaml")  # outside git: the folder is walked, not listed by git
    (tmp_path / "d.yaml").write_text(MANIFEST)
    data = json.loads(lint(tmp_path, "--format", "json", ".").out)
    found = {(f["rule"], f["path"]) for f in data["findings"]}
    assert ("VL902", "deploy.yaml") in found and ("VL101", "d.yaml") in found
    [fifo] = [f for f in data["findings"] if f["path"] == "deploy.yaml"]
    assert "not a regular file" in fifo["message"]
    named = json.loads(lint(tmp_path, "--format", "json", "deploy.yaml").out)
    assert [f["rule"] for f in named["findings"]] == ["VL902"]


def test_fifos_as_pin_files_and_config_targets_are_skipped(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "requirements.txt")  # a release pin is looked for here
    os.mkfifo(tmp_path / "engine.yaml")
    (tmp_path / "d.yaml").write_text(
        "services:\n  s:\n    image: vllm/vllm-openai\n    command: [m, --config, engine.yaml]\n"
    )
    data = json.loads(lint(tmp_path, "--format", "json", "d.yaml").out)
    assert [f["rule"] for f in data["findings"]] == ["VL904"]


def test_link_loops_are_reported_not_followed(tmp_path: Path) -> None:
    os.symlink("b.yaml", tmp_path / "a.yaml")
    os.symlink("a.yaml", tmp_path / "b.yaml")
    os.symlink("self.yaml", tmp_path / "self.yaml")
    (tmp_path / "d.yaml").write_text(
        "services:\n  s:\n    image: vllm/vllm-openai\n    command: [m, --config, a.yaml]\n"
    )
    data = json.loads(lint(tmp_path, "--format", "json", ".").out)
    found = sorted((f["rule"], f["path"]) for f in data["findings"])
    assert found == [
        ("VL902", "a.yaml"),
        ("VL902", "b.yaml"),
        ("VL902", "self.yaml"),
        ("VL904", "d.yaml"),
    ], found
    lint(tmp_path, "a.yaml")  # named on the command line: the same finding, no crash


def test_a_config_target_through_a_link_out_of_the_repo_is_not_read(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (tmp_path / "outside.yaml").write_text("model: m\nuse-replayssm: true\n")
    os.symlink(tmp_path / "outside.yaml", root / "engine.yaml")
    (root / "d.yaml").write_text(
        "services:\n  s:\n    image: vllm/vllm-openai\n    command: [m, --config, engine.yaml]\n"
    )
    opened = _audited(root, tmp_path / "audit.log", "--format", "json", "d.yaml")
    assert not [p for p in opened if p.endswith("outside.yaml")], opened
