"""The rule reference (docs/rules.md) is generated from the schema and kept current; the
`rules` and `explain` commands print the same text."""

from __future__ import annotations

import re
from functools import cache

from tools.cases import rules_reference

from conftest import REPO, run_cli
from vllm_lint.rules import registry as rules
from vllm_lint.rules.docs import reference

DOCS = REPO / "docs" / "rules.md"


@cache
def _reference() -> str:
    """The reference without example outputs, made once for the tests that read it (~3 s)."""
    return reference()


def test_docs_are_current() -> None:
    assert DOCS.read_text(encoding="utf-8") == rules_reference(), (
        "docs/rules.md is stale: run `python -m tools.cases docs`"
    )


def test_every_rule_has_one_section_with_the_fixed_layout() -> None:
    text = _reference()
    ids = {r.id for r in rules.builtin_rules()}
    headings = re.findall(r"^## (\S+) ", text, re.MULTILINE)
    assert sorted(headings) == sorted(ids)
    for rule in rules.builtin_rules():
        if rule.rejects is None:
            continue
        section = text.split(f"## {rule.id} ", 1)[1].split("\n## ", 1)[0]
        for part in (
            "**What:**",
            "**Releases:**",
            "**vLLM's error:**",
            "**Fails:**",
            "**Passes:**",
            "**Fix:**",
            "**Source:**",
        ):
            assert part in section, (rule.id, part)


def test_table_links_to_every_section() -> None:
    text = _reference()
    for rule in rules.builtin_rules():
        anchor = f"{rule.id.lower()}-{rule.slug}"
        assert f"(#{anchor})" in text
        assert f"## {rule.id} {rule.slug}" in text


def test_explain_prints_the_section_of_its_variants() -> None:
    run = run_cli("explain", "dp-lb-modes-exclusive")
    assert run.code == 0
    assert run.out.startswith("## VL217 dp-lb-modes-exclusive")
    assert run.out.count("### VL217:") == len(rules.BUILTIN.variants("VL217")) == 3
    assert run.out.strip() in _reference()


def test_explain_unknown_rule_is_a_one_line_error() -> None:
    run = run_cli("explain", "VL99999")
    assert run.code == 2
    assert run.err.count("\n") == 1 and "no rule" in run.err


def test_rules_lists_each_rule_once() -> None:
    run = run_cli("rules")
    assert run.code == 0
    listed = [line.split()[0] for line in run.out.splitlines()]
    assert sorted(listed) == sorted({r.id for r in rules.builtin_rules()})
