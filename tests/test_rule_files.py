"""The shipped rule files pass the same meta-schema check as a user's rule pack."""

from __future__ import annotations

from pathlib import Path

import pytest

from vllm_lint.resources import schemas_dir
from vllm_lint.rules import registry as rules

FILES = sorted((schemas_dir() / "rules").glob("*/*.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_builtin_rule_file_is_valid(path: Path) -> None:
    assert rules.load_rule_file(path, validate=True)


def test_ids_and_slugs_are_unique_per_release() -> None:
    rules.check_variants(rules.builtin_rules())


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_one_rule_per_file_named_after_it(path: Path) -> None:
    """schemas/rules/<area>/VLnnn-<slug>.json holds one rule: its entries, one per release
    range where vLLM's check changed, share the id and slug the file is named after."""
    entries = rules.load_rule_file(path, validate=False)
    assert {f"{r.id}-{r.slug}" for r in entries} == {path.stem}
    assert (path.parent / "README.md").is_file(), "each area folder says what it holds"
