"""`vllm-lint rules`, `vllm-lint explain ID`, and the generated rule reference (docs/rules.md).

Every rule gets the same layout, built from its schema entry alone: what it catches, vLLM's
own error text, the releases it holds for, a failing and a passing example, the fix, and
where vLLM raises it. A rule whose check changed between releases has several entries
(variants); they share one section with a part per release range.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Iterable, Mapping, Sequence

from vllm_lint import release as versions
from vllm_lint.argv import catalog
from vllm_lint.rules import registry as rules
from vllm_lint.rules.registry import BUILTIN, Rule, RuleSet

_GENERATE = "python -m tools.cases docs"


def _id_key(rule_id: str) -> tuple[str, int]:
    match = re.fullmatch(r"([A-Z]+)(\d+)", rule_id)
    return (match.group(1), int(match.group(2))) if match else (rule_id, 0)


def _grouped(all_rules: Iterable[Rule]) -> list[list[Rule]]:
    """Rules by id (VL001, VL002 … VL101 …), variants sorted by release."""
    groups: dict[str, list[Rule]] = {}
    for rule in all_rules:
        groups.setdefault(rule.id, []).append(rule)
    return [
        sorted(groups[rule_id], key=lambda r: versions.key(r.since or "0.0.0"))
        for rule_id in sorted(groups, key=_id_key)
    ]


def _range_text(group: Sequence[Rule]) -> str:
    first, last = group[0].since, group[-1].before
    if group[0].rejects is None and not (first or last):  # a flag check with no release bound
        return "all"
    if any(a.before != b.since for a, b in itertools.pairwise(group)):
        return ", ".join(r.releases_text() for r in group)
    return _between(first, last)


def _between(first: str | None, before: str | None) -> str:
    if first and before:
        return f"{first} up to (not including) {before}"
    if first:
        return f"{first} and later"
    return f"before {before}" if before else "every release"


def rules_command(args: Sequence[str], ruleset: RuleSet = BUILTIN) -> int:
    """`vllm-lint rules [SELECTOR ...] [--format text|json]`: the rules the selectors (ids, id
    prefixes or slugs, any case) select, or every rule."""
    import argparse

    parser = argparse.ArgumentParser(prog="vllm-lint rules", add_help=True, allow_abbrev=False)
    parser.add_argument("selectors", nargs="*", metavar="SELECTOR")
    parser.add_argument(
        "-o", "--output-format", "--format", dest="format", default="text", choices=("text", "json")
    )
    try:
        ns = parser.parse_args(list(args))
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    from vllm_lint.config import matches, selector_problem

    for selector in ns.selectors:
        problem = selector_problem(selector, ruleset)
        if problem is not None:
            print(f"vllm-lint: error: {problem}", file=sys.stderr)
            return 2
    groups = [
        g
        for g in _grouped(ruleset.all)
        if not ns.selectors or matches(ns.selectors, g[0].id, g[0].slug)
    ]
    if ns.format == "json":
        import json

        print(json.dumps([_rule_record(g) for g in groups], indent=2))
        return 0
    for group in groups:
        head = group[0]
        print(f"{head.id:<6} {head.slug:<48} {head.severity.label:<8} {_range_text(group)}")
    return 0


def _rule_record(group: Sequence[Rule]) -> dict[str, object]:
    """One rule as `rules --format json` lists it."""
    head = group[0]
    return {
        "id": head.id,
        "slug": head.slug,
        "severity": head.severity.label,
        "summary": head.summary,
        "kind": "flag-check" if head.rejects is None else "combination",
        "releases": [{"since": r.since, "before": r.before} for r in group],
        "flags": sorted({f for r in group for f in r.flags}),
        "url": head.help_uri,
    }


def explain_command(args: Sequence[str], ruleset: RuleSet = BUILTIN) -> int:
    if len(args) != 1:
        print("vllm-lint: error: usage: vllm-lint explain RULE-ID-OR-SLUG", file=sys.stderr)
        return 2
    group = ruleset.variants(args[0])
    if not group:
        print(f"vllm-lint: error: no rule {args[0]!r} (see `vllm-lint rules`)", file=sys.stderr)
        return 2
    print(explain_group(_grouped(group)[0]))
    return 0


def explain(rule: Rule, ruleset: RuleSet = BUILTIN) -> str:
    """One rule's section (all its variants), in Markdown."""
    return explain_group(_grouped(ruleset.variants(rule.id) or [rule])[0])


# -- the fixed layout -----------------------------------------------------------------------


def _flag_label(path: str) -> str:
    if path.startswith("env."):
        return f"`{path[4:]}` (environment)"
    head, dot, rest = path.partition(".")
    return f"`--{head.replace('_', '-')}{dot}{rest}`"


def _example_text(example: object) -> str:
    if isinstance(example, str):
        example = {"argv": example}
    assert isinstance(example, Mapping)
    env = " ".join(f"{k}={v}" for k, v in example.get("env", {}).items())
    pinned = example.get("releases")
    if "python" in example:
        code = str(example["python"])
        return f"{code}  # vLLM {', '.join(pinned)}" if pinned else code
    line = f"{env} vllm serve {example['argv']}".strip()
    return f"{line}    # vLLM {', '.join(pinned)}" if pinned else line


def _examples(title: str, examples: Sequence[object]) -> list[str]:
    """A rule's examples: command lines, then Python (what only the Python API refuses), each
    a program of its own."""
    lines: list[str] = []
    python = [e for e in examples if isinstance(e, Mapping) and "python" in e]
    shell = [e for e in examples if e not in python]
    if shell:
        lines += ["```sh", *(_example_text(e) for e in shell), "```", ""]
    for example in python:
        lines += ["```python", _example_text(example), "```", ""]
    return [f"**{title}:**", "", *lines] if lines else []


def _errors(rule: Rule) -> list[str]:
    if not rule.vllm_error:
        return []
    if isinstance(rule.vllm_error, str):
        return [f"> {rule.vllm_error}"]
    lines = []
    for first in sorted(rule.vllm_error, key=versions.key):
        lines += [f"> {first} on: {rule.vllm_error[first]}", ">"]
    return lines[:-1]


def _sources(rule: Rule) -> str:
    if isinstance(rule.source, str):
        return rule.source
    return "; ".join(
        f"{release}: `{place}`"
        for release, place in sorted(rule.source.items(), key=lambda i: versions.key(i[0]))
    )


def _part(rule: Rule) -> list[str]:
    lines = [f"**What:** {rule.summary}", ""]
    if rule.rejects is not None:
        lines += [f"**Releases:** {rule.releases_text()}", ""]
        inputs = [p for p in rule.flags if not p.startswith("derived.")]
        if inputs:
            lines += [f"**Flags:** {', '.join(_flag_label(p) for p in inputs)}", ""]
    errors = _errors(rule)
    if errors:
        lines += ["**vLLM's error:**", "", *errors, ""]
    if rule.assumes:
        lines += [f"**Assumes:** {rule.assumes}", ""]
    fails, passes = rule.examples.get("fail", []), rule.examples.get("pass", [])
    lines += _examples("Fails", fails) + _examples("Passes", passes)
    if rule.fix:
        lines += [f"**Fix:** {rule.fix}", ""]
    if rule.source:
        lines += [f"**Source:** {_sources(rule)}", ""]
    return lines


def _history_commands(group: Sequence[Rule]) -> str:
    """`vllm-lint flag --x` for each flag the rule names that a catalogued release has."""
    from vllm_lint.argv.history import canonical, history

    heads = dict.fromkeys(
        canonical(p.partition(".")[0])
        for rule in group
        for p in rule.flags
        if not p.startswith(("derived.", "env."))
    )
    return ", ".join(f"`vllm-lint flag {flag}`" for flag in heads if history(flag))


def explain_group(group: Sequence[Rule], output: str | None = None) -> str:
    """A rule's section; `output`: what vllm-lint prints for its golden case (docs only)."""
    head = group[0]
    lines = [f"## {head.id} {head.slug}", "", f"Severity: {head.severity.label}.", ""]
    if len(group) == 1:
        lines += _part(head)
    else:
        for variant in group:
            lines += [f"### {head.id}: {variant.releases_text()}", "", *_part(variant)]
    named = _history_commands(group)
    if named:
        lines += [f"**History:** {named} (when each came, changed and went)", ""]
    if output:
        lines += ["**vllm-lint says:**", "", "```text", *output.rstrip("\n").split("\n"), "```", ""]
    return "\n".join(lines)


def reference(outputs: Mapping[str, str] | None = None) -> str:
    """docs/rules.md: every built-in rule, with `outputs` (rule id → what vllm-lint prints
    for the rule's golden case, tools/cases.py); a test fails when the file is stale."""
    groups = _grouped(rules.builtin_rules())
    checks = [g for g in groups if g[0].rejects is not None]
    known = catalog.known_releases()
    covered = [r for r in known if any(v.applies_to(r) for g in checks for v in g)]
    header = [
        "# vllm-lint rules",
        "",
        "Generated from `schemas/rules/` and the golden cases in `tests/cases/rules/` by"
        f" `{_GENERATE}`; do not edit by hand.",
        "",
        f"{len(groups)} rules: {len(checks)} checks of flag combinations that vLLM refuses"
        f" ({sum(len(g) for g in checks)} release-specific entries), covering the"
        f" {len(covered)} catalogued vLLM releases {versions.normalize(covered[0])} to"
        f" {versions.normalize(covered[-1])}, and"
        f" {len(groups) - len(checks)} checks of the flags and files themselves.",
        "",
        "| id | slug | severity | releases |",
        "|---|---|---|---|",
    ]
    for group in groups:
        head = group[0]
        anchor = f"{head.id.lower()}-{head.slug}"
        header.append(
            f"| [{head.id}](#{anchor}) | {head.slug} | {head.severity.label}"
            f" | {_range_text(group)} |"
        )
    outputs = outputs or {}
    sections = (explain_group(g, outputs.get(g[0].id)) for g in groups)
    return "\n".join(header) + "\n\n" + "\n".join(sections)


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(reference())
