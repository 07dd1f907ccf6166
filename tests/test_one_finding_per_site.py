"""One finding per vLLM raise site: every rule's `fail` examples (the launches its golden case
is written from), at both ends of every variant's release range, never put two findings that
stand for one raise site on one span — a rule added next year is covered without an edit.

A finding's sites are data: the `file:line` a rule's `source` cites for the release, the
mined constraints it `preempts`, and the `field:Class.field` or `registry:name` of a generic
check on the mined data (rules/findings.py, `one_per_site`)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_rule_examples import _releases_of
from vllm_lint.model import Finding, Span
from vllm_lint.pipeline import check_command_line, check_python
from vllm_lint.rules import registry as rules
from vllm_lint.rules.findings import one_per_site
from vllm_lint.rules.registry import Rule

ROOT = Path(__file__).resolve().parents[1]


def _examples() -> Iterator[tuple[Rule, dict[str, Any], str]]:
    for rule in rules.builtin_rules():
        if rule.rejects is None:
            continue
        for example in rule.examples.get("fail", []):
            example = {"argv": example} if isinstance(example, str) else example
            for release in example.get("releases") or _releases_of(rule):
                yield rule, example, release


def _findings(example: dict[str, Any], release: str) -> list[Finding]:
    if "python" in example:
        return check_python(example["python"], release)
    return check_command_line(example["argv"], release, example.get("env"))


def _unranked(argv: str, env: dict[str, str] | None, release: str) -> list[Finding]:
    """A launch's findings before the precedence: the pipeline's two kinds, as `_judged`
    makes them."""
    from vllm_lint.options import Options
    from vllm_lint.pipeline import command_line_invocation, settings_of
    from vllm_lint.rules.evaluate import evaluate
    from vllm_lint.rules.findings import from_problems

    options = Options().forcing(release)
    settings, problems = settings_of(command_line_invocation(argv, env), options)
    return from_problems(problems) + evaluate(settings, rules.BUILTIN)


def _doubles(findings: list[Finding]) -> list[str]:
    """Each site that two findings on one span stand for, with the rules that report it."""
    on: dict[tuple[Span, str], list[str]] = defaultdict(list)
    for finding in findings:
        for site in finding.sites:
            on[(finding.span, site)].append(finding.rule)
    return [f"{site}: {' and '.join(ids)}" for (_, site), ids in on.items() if len(ids) > 1]


def test_no_span_carries_two_findings_for_one_raise_site() -> None:
    doubles = []
    seen: set[tuple[str, str, str]] = set()
    for rule, example, release in _examples():
        key = (str(example), release, rule.id)
        if key in seen:
            continue
        seen.add(key)
        for double in _doubles(_findings(example, release)):
            doubles.append(f"{rule.id} fail example at {release} ({example}): {double}")
    assert not doubles, "\n".join(doubles)


_BOUND = re.compile(r"Input should be (greater|less) than( or equal to)? (-?[0-9.]+)\)")


def _repaired(value: str, message: str) -> str | None:
    """The nearest value a generic bound check (VL014) accepts, as text, or None."""
    found = _BOUND.search(message)
    if found is None or not re.fullmatch(r"-?[0-9]+", value):
        return None
    bound = float(found.group(3))
    if not bound.is_integer():
        return None
    step = 0 if found.group(2) else (1 if found.group(1) == "greater" else -1)
    return str(int(bound) + step)


def test_a_rule_that_refuses_a_value_for_a_generic_checks_reason_shares_its_site() -> None:
    """A double the data does not declare: a rule fires on a span where a generic bound
    check fires, and repairing that value (to the bound) silences the rule too — the rule
    refuses the value for the bound's reason, so the two are one refusal and the rule must
    name the constraint in `preempts` (after checking in vLLM that its site raises first)."""
    undeclared = []
    for rule, example, release in _examples():
        argv = example.get("argv")
        if argv is None:
            continue
        findings = _unranked(argv, example.get("env"), release)
        for generic in (f for f in findings if f.generic and f.span.line == 1):
            # the span holds `--flag value` or `--flag=value`: the value is its last word
            end = generic.span.end_col - 1
            start = max(argv.rfind(" ", 0, end), argv.rfind("=", 0, end)) + 1
            value = _repaired(argv[start:end], generic.message)
            if value is None:
                continue
            specific = [f for f in findings if f.rule == rule.id and f.span == generic.span]
            if not specific or set(specific[0].sites) & set(generic.sites):
                continue  # no rule there, or one that names the constraint (folded)
            again = check_command_line(
                argv[:start] + value + argv[end:], release, example.get("env")
            )
            if not any(f.rule == rule.id for f in again):
                undeclared.append(f"{rule.id} at {release}: {argv!r} ({generic.sites[0]})")
    assert not undeclared, "\n".join(undeclared)


def test_the_examples_meet_a_generic_check_a_rule_preempts() -> None:
    """The contract above is not empty: some example launch has a rule and a mined check on
    one site (VL226 at 0.27.0: `--node-rank -1` with 2 nodes; vLLM raises at arg_utils.py
    before pydantic sees ParallelConfig.node_rank), which the precedence folds into one."""
    preempting = [(r, e, rel) for r, e, rel in _examples() if r.preempts]
    assert preempting
    folded = 0
    for rule, example, release in preempting:
        kept = _findings(example, release)
        generic = [f for f in kept if f.generic and set(f.sites) & set(rule.sites_for(release))]
        assert not generic, generic
        folded += any(f.rule == rule.id for f in kept)
    assert folded


def _finding(rule: str, span: Span, sites: tuple[str, ...], generic: bool) -> Finding:
    from vllm_lint.model import Severity

    return Finding(rule, rule.lower(), Severity.ERROR, "m", span, sites=sites, generic=generic)


def test_precedence_keeps_the_specific_finding_and_distinct_checks() -> None:
    here, there = Span("f", 1, 5, 1, 9), Span("f", 2, 5, 2, 9)
    generic = _finding("VL014", here, ("field:ParallelConfig.node_rank",), generic=True)
    rule = _finding("VL226", here, ("vllm/a.py:1", "field:ParallelConfig.node_rank"), False)
    other = _finding("VL227", here, ("vllm/a.py:7",), False)  # another check on the flag
    elsewhere = _finding("VL014", there, ("field:ParallelConfig.node_rank",), generic=True)
    same_site = _finding("VL230", here, ("vllm/a.py:7",), False)
    unknown = _finding("VL001", here, (), False)  # a grammar problem: no site, always kept
    kept = one_per_site([generic, rule, other, elsewhere, same_site, unknown])
    assert kept == [rule, other, elsewhere, unknown]


@pytest.mark.parametrize(
    ("source", "release", "expected"),
    [
        ({"0.11.2": "vllm/e/a.py:10", "0.26.0": "vllm/e/a.py:20"}, "0.20.0", ("vllm/e/a.py:10",)),
        ({"0.11.2": "vllm/e/a.py:10", "0.26.0": "vllm/e/a.py:20"}, "0.34.0", ("vllm/e/a.py:20",)),
        ("vllm/config/vllm.py:3460 (_get_dbo_unsupported_features)", "0.34.0",
         ("vllm/config/vllm.py:3460",)),
        ("pydantic Field constraints of vLLM's config classes", "0.34.0", ()),
    ],
)  # fmt: skip
def test_a_rules_sites_are_the_line_it_cites_for_the_release(
    source: Any, release: str, expected: tuple[str, ...]
) -> None:
    entry = {"id": "VL999", "slug": "x", "severity": "error", "summary": "s", "message": "m"}
    assert Rule({**entry, "source": source}, "").sites_for(release) == expected
    preempting = Rule({**entry, "source": source, "preempts": ["A.b"]}, "")
    assert preempting.sites_for(release) == (*expected, "field:A.b")


# The corpora of real files and the bundled examples, each repository folder linted as its
# own root (as a user lints their repo): every finding reported, across the file's launches.
_CORPORA = ("examples", "tests/corpus/real-world", "tests/corpus/shapes", "tests/corpus/docs")


def _roots() -> Iterator[Path]:
    for corpus in _CORPORA:
        folder = ROOT / corpus
        if corpus == "examples":
            yield folder
            continue
        yield from sorted(p for p in folder.iterdir() if p.is_dir())
    yield ROOT / "tests/corpus/python"


@pytest.mark.slow
def test_no_span_in_the_corpora_and_examples_carries_two_findings_for_one_site() -> None:
    from vllm_lint.files.collect import expand
    from vllm_lint.options import Options
    from vllm_lint.pipeline import lint_paths, reported

    doubles: list[str] = []
    found = with_sites = 0
    for root in _roots():
        options = Options(root=root)
        findings = reported(lint_paths(expand([str(root)], root), options), options)
        found += len(findings)
        with_sites += sum(1 for f in findings if f.sites)
        doubles += [f"{root.name}: {d}" for d in _doubles(findings)]
    # ~200 findings, 5 of them from rules with sites (the corpora are mostly clean launches;
    # most findings are the grammar's, which stand for argparse, not a raise site)
    assert found > 100 and with_sites >= 5, f"the scan is broken: {found}, {with_sites}"
    assert not doubles, "\n".join(doubles)
