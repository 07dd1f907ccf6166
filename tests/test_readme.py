"""README states the number of rules and releases covered; it must match the schemas."""

from __future__ import annotations

import re

from conftest import REPO
from vllm_lint.argv import catalog
from vllm_lint.rules import registry as rules


def test_readme_counts_are_current() -> None:
    from tools.cases import readme_with_counts

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme == readme_with_counts(readme), "run `python -m tools.cases docs`"


def test_readme_counts_match_the_schemas() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(
        r"\*\*(\d+) rules\*\* over \*\*(\d+) vLLM releases \(([\d.]+) to ([\d.]+)\)\*\*: "
        r"(\d+) checks of flag combinations[^,]*, and (\d+) checks",
        readme.replace("\n", " "),
    )
    assert match, "README lost its rule-count sentence"
    total, releases, first, last, combos, others = match.groups()
    builtin = rules.builtin_rules()
    ids = {r.id for r in builtin}
    schema_ids = {r.id for r in builtin if r.rejects is not None}
    known = catalog.known_releases()
    assert int(total) == len(ids)
    assert int(combos) == len(schema_ids) and int(others) == len(ids - schema_ids)
    assert int(releases) == len(known)
    assert (first, last) == (known[0], known[-1])
