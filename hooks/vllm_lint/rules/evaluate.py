"""Evaluating the schema rules of a release on one launch's effective settings."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from vllm_lint.effective.settings import Settings
from vllm_lint.effective.settings import lookup as value_at
from vllm_lint.fastschema import OPERATORS, pairwise_holds, python_regex_holds
from vllm_lint.model import Finding
from vllm_lint.rules.findings import violation, where
from vllm_lint.rules.registry import Rule, RuleSet


def compare_holds(instance: Mapping[str, Any], spec: Mapping[str, Any]) -> bool:
    """`compare`: holds when `left op (right + add)` for two numbers of the document.

    JSON Schema compares a value with a constant only; rules such as
    `replayssm_buffer_len < 1 + num_speculative_tokens` need two values of the document.
    A missing or non-numeric operand means the comparison does not hold.
    """
    left = value_at(instance, spec["left"], None)
    right = spec["value"] if "value" in spec else value_at(instance, spec["right"], None)
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right))
    return numeric and bool(OPERATORS[spec["op"]](left, right + spec.get("add", 0)))


def _compare_keyword(validator: Any, spec: Any, instance: Any, schema: Any) -> Iterable[Any]:
    """`compare` for jsonschema (see `compare_holds`)."""
    from jsonschema import ValidationError

    if isinstance(instance, dict) and not compare_holds(instance, spec):
        yield ValidationError(f"comparison {spec} does not hold")


def _pairwise_keyword(validator: Any, op: Any, instance: Any, schema: Any) -> Iterable[Any]:
    """`pairwise` for jsonschema (see fastschema.pairwise_holds)."""
    from jsonschema import ValidationError

    if not pairwise_holds(instance, op):
        yield ValidationError(f"neighbours of {instance!r} do not hold {op}")


def _python_regex_keyword(validator: Any, arg: Any, instance: Any, schema: Any) -> Iterable[Any]:
    """`pythonRegex` for jsonschema (see fastschema.python_regex_holds)."""
    from jsonschema import ValidationError

    if not python_regex_holds(instance, arg):
        yield ValidationError(f"{instance!r} does not compile as a Python regular expression")


def _pattern_keyword(
    searches: dict[str, Callable[[str], bool]],
) -> Callable[[Any, Any, Any, Any], Iterable[Any]]:
    """`pattern`, searched in linear time (linear_regex.py) rather than by backtracking `re`;
    each pattern compiled once into `searches` (the validator's own: no module keeps them)."""
    from jsonschema import ValidationError

    from vllm_lint.linear_regex import compile_search

    def keyword(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterable[Any]:
        if not isinstance(instance, str):
            return
        search = searches.get(pattern)
        if search is None:
            search = searches[pattern] = compile_search(pattern)
        if not search(instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")

    return keyword


def validator_class() -> Any:
    """Draft 2020-12 with the `compare` keyword: what a rule's `rejects` is written in;
    `pattern` runs in linear time. One class per rule that needs it (few: most rules take
    the fast path of fastschema.py), which holds that rule's compiled patterns."""
    from jsonschema import Draft202012Validator, validators

    keywords = {
        "compare": _compare_keyword,
        "pairwise": _pairwise_keyword,
        "pythonRegex": _python_regex_keyword,
        "pattern": _pattern_keyword({}),
    }
    return validators.extend(Draft202012Validator, keywords)


def _refuse(uri: str) -> Any:
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # attrs class


@cache
def _local_only() -> Any:
    """A registry that retrieves nothing: a `$ref` outside the rule's schema fails rather than
    being fetched over the network or read from a file (packs are checked for it on loading)."""
    from referencing import Registry

    return Registry(retrieve=_refuse)  # type: ignore[call-arg]  # attrs class


def _check(rule: Rule) -> Callable[[Any], bool]:
    """The rule's schema compiled, on the first document that needs it, and kept on the rule
    (`Rule.compiled`); jsonschema only for a keyword outside the fast subset."""
    if rule.compiled is None:
        rule.compiled = _compile(rule)
    return rule.compiled


def _compile(rule: Rule) -> Callable[[Any], bool]:
    from vllm_lint.fastschema import compile_schema

    check = compile_schema(rule.rejects, compare_holds)
    if check is not None:
        return check
    validator: Callable[[Any], bool] = validator_class()(
        rule.rejects, registry=_local_only()
    ).is_valid
    return validator


def evaluate(settings: Settings, ruleset: RuleSet) -> list[Finding]:
    """Every rule of the release that the settings violate, as findings."""
    findings = []
    written = settings.spans.keys()
    for rule in ruleset.for_release(settings.release.version):
        if written.isdisjoint(rule.span_paths):
            continue  # the fast form of the next test
        if not any(p not in settings.defaulted and where(rule, p, settings) for p in rule.flags):
            continue  # nothing the file wrote takes part: a finding would have no line (and
            # `violation` would give none), so the schema need not run
        if any(settings.is_opaque(p) for p in rule.flags):
            continue  # never judge a value the linter could not read
        if settings.partial and any(p in settings.defaulted for p in rule.flags):
            continue  # unreadable flags (`$EXTRA_ARGS`) may have changed that default
        if _check(rule)(settings.document):
            finding = violation(rule, settings)
            if finding is not None:
                findings.append(finding)
    return findings + _lifted(settings, ruleset)


def _lifted(settings: Settings, ruleset: RuleSet) -> list[Finding]:
    """The refusals lifted from vLLM's source (rules/lifted.py) that hold, less the sites a
    rule of the run cites for the release: that rule reports them."""
    from vllm_lint.rules import lifted
    from vllm_lint.rules.findings import from_problems

    release = settings.release.version

    def claimed() -> set[str]:
        return {site for rule in ruleset.for_release(release) for site in rule.sites_for(release)}

    return from_problems(lifted.problems(settings, claimed))
