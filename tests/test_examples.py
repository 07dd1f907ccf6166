"""Golden outputs: `vllm-lint examples/` in text and JSON, byte for byte.

After an intended change, regenerate with `VLLM_LINT_UPDATE_GOLDEN=1 python -m pytest
tests/test_examples.py` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import REPO, run_cli

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_examples_golden(fmt: str) -> None:
    run = run_cli("--format", fmt, "--color", "never", "examples", cwd=REPO)
    assert run.code == 1, run.err
    expected = GOLDEN / f"examples.{fmt}"
    if os.environ.get("VLLM_LINT_UPDATE_GOLDEN"):
        expected.write_text(run.out, encoding="utf-8")
    assert run.out == expected.read_text(encoding="utf-8")


def test_every_example_file_is_linted_and_the_fixed_one_is_clean() -> None:
    run = run_cli("--format", "json", "examples", cwd=REPO)
    flagged = {f["path"] for f in run.findings()}
    assert "examples/kubernetes/nemotron-replayssm-v0.33-fixed.yaml" not in flagged
    assert flagged == {
        "examples/compose/docker-compose.yaml",
        "examples/kubernetes/nemotron-replayssm-v0.28.yaml",
        "examples/vllm-config/nemotron.yaml",
    }
