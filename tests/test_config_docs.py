"""docs/configuration.md is generated from the config schema and must not go stale."""

from __future__ import annotations

from conftest import REPO
from vllm_lint.config_docs import reference


def test_configuration_reference_is_current() -> None:
    current = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert current == reference(), (
        "docs/configuration.md is stale: python -m vllm_lint.config_docs > docs/configuration.md"
    )
