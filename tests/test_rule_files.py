"""The shipped rule files pass the same meta-schema check as a user's rule pack."""

from __future__ import annotations

from pathlib import Path

import pytest

from vllm_lint.resources import schemas_dir
from vllm_lint.rules import registry as rules

FILES = sorted((schemas_dir() / "rules").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_builtin_rule_file_is_valid(path: Path) -> None:
    assert rules.load_rule_file(path, validate=True)


def test_ids_and_slugs_are_unique_per_release() -> None:
    rules.check_variants(rules.builtin_rules())
