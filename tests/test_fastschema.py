"""The compiled fast path (`fastschema`) and jsonschema give the same verdict: for every rule on
the effective settings of every rule example and every recorded vLLM verdict, for the
configuration schema, and keyword by keyword on the JSON Schema corner cases."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from vllm_lint import config
from vllm_lint.argv import catalog
from vllm_lint.effective.settings import Settings
from vllm_lint.fastschema import compile_schema
from vllm_lint.options import Options
from vllm_lint.pipeline import command_line_invocation, settings_of
from vllm_lint.rules import registry as rules
from vllm_lint.rules.evaluate import compare_holds, validator_class
from vllm_lint.rules.registry import Rule

ROOT = Path(__file__).resolve().parent.parent
VERDICTS = ROOT / "tests" / "data" / "verdicts"
PACKS = sorted((ROOT / "examples" / "rule-packs").glob("*.json"))


def _all_rules() -> list[Rule]:
    packs = [rule for path in PACKS for rule in rules.load_rule_file(path)]
    return [r for r in (*rules.builtin_rules(), *packs) if r.rejects is not None]


@cache
def _pairs() -> list[tuple[Rule, Any, Any]]:
    """(rule, fast predicate, jsonschema's is_valid) for every schema rule, packs included."""
    slow = validator_class()
    pairs = []
    for rule in _all_rules():
        fast = compile_schema(rule.rejects, compare_holds)
        assert fast is not None, f"{rule.id} ({rule.origin}) fell back to jsonschema"
        pairs.append((rule, fast, slow(rule.rejects).is_valid))
    return pairs


def _settings(argv: str, release: str, env: dict[str, str] | None) -> Settings:
    invocation = command_line_invocation(argv, env)
    return settings_of(invocation, Options(vllm_version=release))[0]


def _written(rule: Rule, settings: Settings) -> bool:
    """Whether `evaluate` runs the rule's schema: a flag of it was written."""
    return any(p not in settings.defaulted and settings.span(p) for p in rule.flags)


def _example_cases() -> Iterator[tuple[str, str, dict[str, str] | None]]:
    """(argv, release, env) of every example of every rule, at the ends of its releases."""
    known = catalog.known_releases()
    for rule in _all_rules():
        inside = [r for r in known if rule.applies_to(r)]
        for verdict in ("fail", "pass"):
            for example in rule.examples.get(verdict, []):
                example = {"argv": example} if isinstance(example, str) else example
                if "argv" not in example:
                    continue  # Python (`LLM(...)`): the Python reader's tests run it
                for release in example.get("releases") or sorted({inside[0], inside[-1]}):
                    yield example["argv"], release, example.get("env")


def _verdict_cases(path: Path) -> Iterator[tuple[str, str, dict[str, str] | None]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        yield shlex.join(record["argv"]), record["release"], record.get("env") or None


def _disagreements(
    cases: Iterator[tuple[str, str, dict[str, str] | None]], every_rule: bool
) -> list[str]:
    """Cases where the two disagree: on every rule of the release, or on those `evaluate` runs."""
    found = []
    seen: set[tuple[str, str, str]] = set()
    for argv, release, env in cases:
        key = (argv, release, json.dumps(env, sort_keys=True))
        if key in seen:
            continue
        seen.add(key)
        settings = _settings(argv, release, env)
        document = settings.document
        for rule, fast, slow in _pairs_for(release):
            if (every_rule or _written(rule, settings)) and fast(document) != slow(document):
                found.append(f"{rule.id} at {release}: {argv} (env {env})")
    return found


@cache
def _pairs_for(release: str) -> list[tuple[Rule, Any, Any]]:
    return [pair for pair in _pairs() if pair[0].applies_to(release)]


def test_every_rule_schema_is_in_the_fast_subset() -> None:
    assert _pairs()


@pytest.mark.slow  # every rule example through both engines
def test_fast_path_agrees_with_jsonschema_on_every_rule_example() -> None:
    assert _disagreements(_example_cases(), every_rule=True) == []


@pytest.mark.slow  # every recorded verdict through both engines
@pytest.mark.parametrize("path", sorted(VERDICTS.glob("*.jsonl")), ids=lambda p: p.stem)
def test_fast_path_agrees_with_jsonschema_on_every_recorded_verdict(path: Path) -> None:
    # every rule on each of ~9,000 documents would take jsonschema minutes: the rules that run
    assert _disagreements(_verdict_cases(path), every_rule=False) == []


def test_there_are_recorded_verdicts() -> None:
    assert len(sorted(VERDICTS.glob("*.jsonl"))) >= 5


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"fail-on": "error", "exclude": ["legacy/**"], "max-file-size": 4096},
        {"vllm-version": "0.33.0", "select": ["VL1"], "ignore": ["VL950"]},
        {"per-path-ignores": {"ops/**": ["VL101", "replayssm-no-spec-decode"]}},
        {"vllm-version": "latest"},
        {"vllm-version": "v0.33.0"},
        {"fail-on": "fatal"},
        {"max-file-size": 10},
        {"max-file-size": 4096.0},
        {"max-file-size": True},
        {"select": "VL101"},
        {"select": [""]},
        {"per-path-ignores": {"a": "VL101"}},
        {"per-path-ignores": {"a": [1]}},
        {"unknown-key": 1},
    ],
)
def test_fast_path_agrees_with_jsonschema_on_the_configuration(data: dict[str, Any]) -> None:
    fast = compile_schema(config.schema())
    assert fast is not None
    assert fast(data) == Draft202012Validator(config.schema()).is_valid(data)


CORNERS: list[tuple[dict[str, Any], list[Any]]] = [
    ({"const": 1}, [1, 1.0, True, "1", None, [1]]),
    ({"const": True}, [True, 1, False, 0]),
    ({"const": [1, {"a": False}]}, [[1, {"a": False}], [1.0, {"a": 0}], [True, {"a": False}]]),
    ({"enum": [0, "x", None]}, [0, 0.0, False, "x", None, "y"]),
    ({"type": "integer"}, [1, 1.0, 1.5, True, "1"]),
    ({"type": ["number", "null"]}, [1, 2.5, None, False, "2"]),
    ({"type": "object"}, [{}, [], "x"]),
    ({"minimum": 2, "exclusiveMaximum": 5}, [2, 1.9, 5, 4.99, "3", True, None]),
    ({"maximum": 0, "exclusiveMinimum": -1}, [0, -1, -0.5, 1]),
    ({"minLength": 2, "maxLength": 3}, ["a", "ab", "abcd", "é€", 12]),
    ({"minItems": 1, "maxItems": 2}, [[], [1], [1, 2, 3], "ab"]),
    ({"minProperties": 1}, [{}, {"a": 1}, []]),
    ({"pattern": "b+"}, ["abbc", "ac", 3]),
    ({"items": {"type": "string"}}, [["a"], ["a", 1], [], "a"]),
    ({"required": ["a"], "properties": {"a": {"const": 1}}}, [{"a": 1}, {"a": 2}, {}, [1]]),
    (
        {"properties": {"a": {"type": "string"}}, "additionalProperties": False},
        [{"a": "x"}, {"b": 1}],
    ),
    ({"additionalProperties": {"type": "integer"}}, [{"a": 1}, {"a": "x"}, {}, 3]),
    ({"not": {"anyOf": [{"const": 1}, {"type": "string"}]}}, [1, "s", 2, None]),
    ({"allOf": [{"minimum": 1}, {"maximum": 3}], "description": "annotated"}, [0, 2, 4]),
    ({"anyOf": [False, {"const": 2}]}, [2, 3]),
    ({"properties": {"a": True, "b": False}}, [{"a": 1}, {"b": 1}, {}]),
    (
        {"uniqueItems": True},
        [[1, 1.0], [1, True], [0, False], [[1], [1.0]], [{"a": 1}, {"a": True}], ["a", "a"], "aa"],
    ),
    ({"uniqueItems": True}, [[{"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}], [None, 0], []]),
    ({"uniqueItems": False}, [[1, 1], [1, 2]]),
    ({"contains": {"const": ""}}, [["a", ""], ["a"], [], "", {"x": ""}]),
    ({"propertyNames": {"pattern": "^re:"}}, [{"re:a": 1}, {"re:a": 1, "b": 2}, {}, ["b"]]),
    ({"contains": {"type": "string"}}, [[1, "a"], [1, 2], [], "a", {"a": "b"}]),
    ({"contains": {"const": False}}, [[0], [False], [None, False]]),
    (
        {"uniqueItems": True},
        [[1, 2], [1, 1.0], [1, True], [[1], [1.0]], [{"a": 1}, {"a": 1}], [], 1],
    ),
    ({"uniqueItems": False}, [[1, 1], "x"]),
    ({"not": {"uniqueItems": True}}, [[0, 0], ["a", "b"], [0, False]]),
    ({"propertyNames": {"enum": ["a", "b"]}}, [{"a": 1}, {"c": 1}, {}, ["c"]]),
]


@pytest.mark.parametrize(("schema", "instances"), CORNERS)
def test_fast_path_agrees_with_jsonschema_on_corner_cases(
    schema: dict[str, Any], instances: list[Any]
) -> None:
    fast = compile_schema(schema)
    assert fast is not None
    slow = Draft202012Validator(schema)
    for instance in instances:
        assert fast(instance) == slow.is_valid(instance), (schema, instance)


# The rules' own keywords, with the verdict each instance must get (True: the keyword holds)
RULE_KEYWORDS: list[tuple[dict[str, Any], list[tuple[Any, bool]]]] = [
    (
        {"pairwise": "<"},
        [([1, 2, 3.5], True), ([1, 1], False), ([3, 2], False), ([], True), ([1], True)],
    ),
    ({"pairwise": "<"}, [(["b", "a"], True), ([1, "x", 0], True), ({"a": 1}, True), (5, True)]),
    ({"pairwise": ">="}, [([1.0, 0.5, 0.5, 0], True), ([0.5, 0.6], False), ([True, 2], True)]),
    ({"pythonRegex": True}, [("a+b", True), ("(a", False), ("[", False), ("*", False), (3, True)]),
    (
        {"pythonRegex": {"after": "re:"}},
        [("re:.*proj", True), ("re:(", False), ("(", True), ("re:" + "(" * 5000, True)],
    ),
    ({"not": {"propertyNames": {"pythonRegex": {"after": "re:"}}}}, [({"re:[": 1}, True)]),
]


@pytest.mark.parametrize(("schema", "cases"), RULE_KEYWORDS)
def test_the_rule_keywords_agree_with_their_jsonschema_form(
    schema: dict[str, Any], cases: list[tuple[Any, bool]]
) -> None:
    fast = compile_schema(schema, compare_holds)
    assert fast is not None
    slow = validator_class()(schema)
    for instance, holds in cases:
        assert fast(instance) is holds, (schema, instance)
        assert slow.is_valid(instance) is holds, (schema, instance)


def test_the_rule_keywords_are_off_outside_rules() -> None:
    """The configuration schema is plain JSON Schema: there the rules' keywords are unknown
    (jsonschema ignores them), so the fast path leaves such a schema to jsonschema."""
    assert compile_schema({"pairwise": "<"}) is None
    assert compile_schema({"pythonRegex": True}) is None


def test_unique_items_costs_linear_time_on_a_long_list() -> None:
    fast = compile_schema({"uniqueItems": True})
    assert fast is not None
    assert fast(list(range(200_000)))
    assert not fast([*range(200_000), 0.0])


@pytest.mark.parametrize(
    "schema",
    [{"$ref": "#/x"}, {"oneOf": [True]}, {"if": True}, {"patternProperties": {}}, {"requird": []}],
)
def test_a_keyword_outside_the_subset_is_left_to_jsonschema(schema: dict[str, Any]) -> None:
    assert compile_schema(schema) is None
    assert compile_schema({"not": schema}) is None
