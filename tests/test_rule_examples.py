"""Every rule's own examples: each `fail` example raises the rule and each `pass` example does
not, at both ends of every variant's release range; outside the rule's releases, it is silent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from vllm_lint import release as versions
from vllm_lint.argv import catalog
from vllm_lint.pipeline import check_command_line, check_python
from vllm_lint.rules import registry as rules
from vllm_lint.rules.registry import Rule


def _releases_of(rule: Rule) -> list[str]:
    """First and last catalogued release inside [since, before)."""
    # a rule without `since` was written against 0.8.5.post1 and later (tools/cases.py)
    inside = [
        r
        for r in catalog.known_releases()
        if rule.applies_to(r) and (rule.since or versions.full_key(r) >= (0, 8, 5, 1))
    ]
    if rule.since and inside and versions.key(inside[0])[:2] == versions.key(rule.since)[:2]:
        inside[0] = rule.since  # the exact first release, e.g. 0.27.0 rather than 0.27.1
    return sorted({inside[0], inside[-1]}, key=versions.key) if inside else []


def _cases() -> Iterator[Any]:
    for rule in rules.builtin_rules():
        if rule.rejects is None:
            continue
        for verdict in ("fail", "pass"):
            for n, example in enumerate(rule.examples.get(verdict, [])):
                example = {"argv": example} if isinstance(example, str) else example
                for release in example.get("releases") or _releases_of(rule):
                    yield pytest.param(
                        rule,
                        verdict,
                        example,
                        release,
                        id=f"{rule.id}-{rule.since}-{verdict}{n}-{release}",
                    )


def _fires(rule_id: str, example: dict[str, Any], release: str) -> list[str]:
    if "python" in example:  # what only the Python API refuses (`LLM(...)`)
        findings = check_python(example["python"], release)
    else:
        findings = check_command_line(example["argv"], release, example.get("env"))
    return [f.rule for f in findings if f.rule == rule_id]


@pytest.mark.parametrize(("rule", "verdict", "example", "release"), list(_cases()))
def test_rule_example(rule: Rule, verdict: str, example: dict[str, Any], release: str) -> None:
    assert rule.applies_to(release), f"example release {release} outside the rule's range"
    fired = _fires(rule.id, example, release)
    if verdict == "fail":
        assert fired, f"{rule.id} did not fire at {release} for: {example}"
    else:
        assert not fired, f"{rule.id} fired at {release} for: {example}"


def _outside_cases() -> Iterator[Any]:
    ids = sorted({r.id for r in rules.builtin_rules() if r.rejects is not None})
    known = catalog.known_releases()
    for rule_id in ids:
        entries = rules.BUILTIN.variants(rule_id)
        outside = [r for r in known if not any(v.applies_to(r) for v in entries)]
        inside = [r for r in known if any(v.applies_to(r) for v in entries)]
        # the catalogued releases just before and just after the rule's whole range
        edges = [r for r in outside if versions.key(r) < versions.key(inside[0])][-1:]
        edges += [r for r in outside if versions.key(r) > versions.key(inside[-1])][:1]
        for release in edges:
            for entry in entries:
                for n, example in enumerate(entry.examples.get("fail", [])):
                    example = {"argv": example} if isinstance(example, str) else example
                    yield pytest.param(rule_id, example, release, id=f"{rule_id}-{n}-{release}")


@pytest.mark.parametrize(("rule_id", "example", "release"), list(_outside_cases()))
def test_rule_silent_outside_its_releases(
    rule_id: str, example: dict[str, Any], release: str
) -> None:
    assert not _fires(rule_id, example, release)


def test_every_rule_has_examples_both_ways() -> None:
    for rule in rules.builtin_rules():
        if rule.rejects is not None:
            assert rule.examples.get("fail") and rule.examples.get("pass"), rule.id
