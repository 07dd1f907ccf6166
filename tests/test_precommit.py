"""The real pre-commit, through `pre-commit try-repo`, in a temporary git repo."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BAD_DEPLOYMENT as BAD
from conftest import REPO, write

pytestmark = [
    pytest.mark.slow,  # the real `pre-commit try-repo` builds the hook's environment
    pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def _try_repo(cwd: Path, *files: str) -> subprocess.CompletedProcess[str]:
    args = ["--files", *files] if files else ["--all-files"]
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "vllm-lint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_pre_commit_fails_on_the_bad_manifest_and_prints_path_line(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    write(tmp_path, "deploy/vllm.yaml", BAD)
    write(tmp_path, "README.md", "# not YAML: the hook never sees it\n")
    _git(tmp_path, "add", ".")
    proc = _try_repo(tmp_path)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    # the finding names the line of one of the two flags (12: --use-replayssm, 13: the spec config)
    assert re.search(r"deploy/vllm\.yaml:1[23]:15: VL101", output), output
    assert "does not support speculative decoding" in output


def test_pre_commit_passes_a_clean_repo(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    write(
        tmp_path,
        "deploy/vllm.yaml",
        BAD.replace("v0.28.0", "v0.26.0").replace("            - --use-replayssm\n", ""),
    )
    write(tmp_path, "other.yaml", "a: 1\n")
    _git(tmp_path, "add", ".")
    proc = _try_repo(tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
