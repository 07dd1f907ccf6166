"""`vllm-lint rules`, `vllm-lint explain ID`, and the generated rule reference (docs/rules.md)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from . import rules
from .rules import Rule


def rules_command(args: Sequence[str]) -> int:
    for rule in rules.builtin_rules():
        releases = rule.releases_text() if rule.rejects is not None else "all"
        print(f"{rule.id:<6} {rule.slug:<48} {rule.severity.label:<8} {releases}")
    return 0


def explain_command(args: Sequence[str]) -> int:
    if len(args) != 1:
        print("vllm-lint: error: usage: vllm-lint explain RULE-ID-OR-SLUG", file=sys.stderr)
        return 2
    try:
        rule = rules.get(args[0])
    except KeyError:
        print(f"vllm-lint: error: no rule {args[0]!r} (see `vllm-lint rules`)", file=sys.stderr)
        return 2
    print(explain(rule))
    return 0


def _example_text(example: object) -> str:
    if isinstance(example, dict):
        env = " ".join(f"{k}={v}" for k, v in example.get("env", {}).items())
        return f"{env} vllm serve MODEL {example['argv']}".strip()
    return f"vllm serve MODEL {example}"


def explain(rule: Rule) -> str:
    """One rule's page, in Markdown (the same text as its section of docs/rules.md)."""
    lines = [f"## {rule.id} {rule.slug}", "", rule.summary, ""]
    lines += [f"- Severity: {rule.severity.label}"]
    if rule.rejects is not None:
        lines += [f"- Releases: {rule.releases_text()}"]
        lines += [f"- Flags: {', '.join('`' + f + '`' for f in rule.flags)}"]
    if rule.source:
        lines += [f"- vLLM source: {rule.source}"]
    if rule.vllm_error:
        lines += [f"- vLLM's error: `{rule.vllm_error}`"]
    if rule.assumes:
        lines += [f"- Assumes: {rule.assumes}"]
    lines += [""]
    fails = rule.examples.get("fail", [])
    passes = rule.examples.get("pass", [])
    if fails:
        lines += ["Fails:", "", "```sh", *(_example_text(e) for e in fails), "```", ""]
    if passes:
        lines += ["Passes:", "", "```sh", *(_example_text(e) for e in passes), "```", ""]
    if rule.fix:
        lines += [f"Fix: {rule.fix}", ""]
    return "\n".join(lines)


def reference() -> str:
    """docs/rules.md: every rule, generated; a test fails when the file is stale."""
    all_rules = rules.builtin_rules()
    header = [
        "# vllm-lint rules",
        "",
        "Generated from `schemas/rules/*.json` by `python -m vllm_lint.rule_docs > docs/rules.md`;"
        " do not edit by hand.",
        "",
        f"{len(all_rules)} rules.",
        "",
        "| id | slug | severity | releases |",
        "|---|---|---|---|",
    ]
    for rule in all_rules:
        releases = rule.releases_text() if rule.rejects is not None else "all"
        anchor = f"{rule.id.lower()}-{rule.slug}"
        header.append(
            f"| [{rule.id}](#{anchor}) | {rule.slug} | {rule.severity.label} | {releases} |"
        )
    return "\n".join(header) + "\n\n" + "\n".join(explain(r) for r in all_rules)


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(reference())
