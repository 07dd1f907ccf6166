"""The rule registry: rule files in `schemas/rules/`, checked against the meta-schema.

A rule describes, as a JSON Schema under `rejects`, the effective settings that vLLM
refuses to start with, for the releases in [since, before). Rules without `rejects` are the
built-in flag checks (unknown flag, bad value …), raised by the argv grammar: they live here
too so that listing, explaining and documenting treat every rule alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from vllm_lint import release as versions
from vllm_lint.effective.settings import Settings
from vllm_lint.effective.settings import lookup as value_at
from vllm_lint.model import Finding, Related, Severity
from vllm_lint.resources import schemas_dir

DOCS_URL = "https://github.com/vllm-lint/vllm-lint/blob/main/docs/rules.md"
_key = cache(versions.key)  # the same few releases and bounds, parsed once


class RuleFileError(Exception):
    """A rule file that cannot be used: names the file and the JSON pointer."""


@dataclass(frozen=True)
class Rule:
    id: str
    slug: str
    severity: Severity
    summary: str
    message: str
    fix: str
    flags: tuple[str, ...] = ()
    since: str | None = None
    before: str | None = None
    rejects: Mapping[str, Any] | None = None
    vllm_error: str | Mapping[str, str] = ""  # text, or {first release: text} as it changed
    source: str = ""
    assumes: str = ""
    examples: Mapping[str, Any] = field(default_factory=dict)
    origin: str = ""  # the file the rule was read from
    url: str = ""  # documentation of a rule from a project's own pack

    def applies_to(self, release: str) -> bool:
        if self.since is not None and _key(release) < _key(self.since):
            return False
        return self.before is None or _key(release) < _key(self.before)

    def vllm_error_for(self, release: str) -> str:
        if isinstance(self.vllm_error, str):
            return self.vllm_error
        applicable = [r for r in self.vllm_error if versions.key(r) <= versions.key(release)]
        if not applicable:
            return ""
        return self.vllm_error[max(applicable, key=versions.key)]

    @property
    def help_uri(self) -> str:
        """The rule's documentation: its section of docs/rules.md, or a pack's own `url`."""
        if self.url or self.origin_is_pack:
            return self.url
        return f"{DOCS_URL}#{self.id.lower()}-{self.slug}"

    @property
    def origin_is_pack(self) -> bool:
        return bool(self.origin) and Path(self.origin).parent != schemas_dir() / "rules"

    def releases_text(self) -> str:
        if self.since and self.before:
            return f"{self.since} up to (not including) {self.before}"
        if self.since:
            return f"{self.since} and later"
        if self.before:
            return f"before {self.before}"
        return "every release"


def _rule_from(entry: Mapping[str, Any], origin: str) -> Rule:
    return Rule(
        id=entry["id"],
        slug=entry["slug"],
        severity=Severity.parse(entry["severity"]),
        summary=entry["summary"],
        message=entry["message"],
        fix=entry.get("fix", ""),
        flags=tuple(entry.get("flags", ())),
        since=entry.get("since"),
        before=entry.get("before"),
        rejects=entry.get("rejects"),
        vllm_error=entry.get("vllm_error", ""),
        source=entry.get("source", ""),
        assumes=entry.get("assumes", ""),
        examples=entry.get("examples", {}),
        origin=origin,
        url=entry.get("url", ""),
    )


def _pointer(path: Iterable[Any]) -> str:
    return "/" + "/".join(str(part) for part in path)


def load_rule_file(path: Path, validate: bool = True) -> list[Rule]:
    """Read and validate one rule file; any problem is a RuleFileError naming file and pointer.

    The built-in files are validated by the tests, not on every run (`validate=False`).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleFileError(f"{path}: cannot read rule file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RuleFileError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    if not validate:
        return [_rule_from(entry, str(path)) for entry in data["rules"]]
    from jsonschema import Draft202012Validator

    meta = Draft202012Validator(_meta_schema())
    errors = sorted(meta.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        raise RuleFileError(f"{path}: {_pointer(first.absolute_path)}: {first.message}")
    rules = [_rule_from(entry, str(path)) for entry in data["rules"]]
    for index, rule in enumerate(rules):
        if rule.rejects is not None:
            try:
                Draft202012Validator.check_schema(rule.rejects)
            except Exception as exc:  # jsonschema.SchemaError
                pointer = _pointer(["rules", index, "rejects"])
                raise RuleFileError(f"{path}: {pointer}: invalid schema: {exc}") from None
        for bound in (rule.since, rule.before):
            if bound is not None:
                try:
                    versions.key(bound)
                except ValueError:
                    raise RuleFileError(
                        f"{path}: {_pointer(['rules', index])}: bad release {bound!r}"
                    ) from None
    return rules


@lru_cache(maxsize=1)
def _meta_schema() -> dict[str, Any]:
    return json.loads((schemas_dir() / "rule-pack.schema.json").read_text(encoding="utf-8"))


@cache
def builtin_rules() -> tuple[Rule, ...]:
    rules: list[Rule] = []
    for path in sorted((schemas_dir() / "rules").glob("*.json")):
        rules.extend(load_rule_file(path, validate=False))
    check_variants(rules)
    return tuple(rules)


def _overlap(a: Rule, b: Rule) -> bool:
    low = max(versions.key(a.since or "0.0.0"), versions.key(b.since or "0.0.0"))
    high = min(versions.key(a.before or "999.0.0"), versions.key(b.before or "999.0.0"))
    return low < high


def check_variants(rules: Iterable[Rule]) -> None:
    """One id may have several entries (variants) when vLLM changed the check between
    releases: they must share the slug and cover disjoint release ranges."""
    seen: dict[str, list[Rule]] = {}
    for rule in rules:
        for name in {rule.id, rule.slug}:
            for other in seen.get(name, []):
                if (other.id, other.slug) != (rule.id, rule.slug) or _overlap(other, rule):
                    raise RuleFileError(
                        f"{rule.origin}: rule {name} is defined twice for the same releases"
                    )
            seen.setdefault(name, []).append(rule)


@cache
def by_id() -> dict[str, list[Rule]]:
    table: dict[str, list[Rule]] = {}
    for rule in builtin_rules():
        table.setdefault(rule.id, []).append(rule)
        if rule.slug != rule.id:
            table.setdefault(rule.slug, []).append(rule)
    return table


def get(rule_id: str) -> Rule:
    """The (first) entry of a rule, by id or slug."""
    return by_id()[rule_id][0]


def variants(rule_id: str) -> list[Rule]:
    return list(by_id()[rule_id])


# -- evaluation -------------------------------------------------------------------------


_COMPARE = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "not-divisible-by": lambda a, b: b != 0 and a % b != 0,
}


def compare_holds(instance: Mapping[str, Any], spec: Mapping[str, Any]) -> bool:
    """`compare`: holds when `left op (right + add)` for two numbers of the document.

    JSON Schema compares a value with a constant only; rules such as
    `replayssm_buffer_len < 1 + num_speculative_tokens` need two values of the document.
    A missing or non-numeric operand means the comparison does not hold.
    """
    left = value_at(instance, spec["left"], None)
    right = spec["value"] if "value" in spec else value_at(instance, spec["right"], None)
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right))
    return numeric and bool(_COMPARE[spec["op"]](left, right + spec.get("add", 0)))


def _compare_keyword(validator: Any, spec: Any, instance: Any, schema: Any) -> Iterable[Any]:
    """`compare` for jsonschema (see `compare_holds`)."""
    from jsonschema import ValidationError

    if isinstance(instance, dict) and not compare_holds(instance, spec):
        yield ValidationError(f"comparison {spec} does not hold")


@cache
def _validator_class() -> Any:
    from jsonschema import Draft202012Validator, validators

    return validators.extend(Draft202012Validator, {"compare": _compare_keyword})


# id(rule) -> (rule, its compiled check); the rule is kept so that a reused id is not trusted
@dataclass
class _Plan:
    """How a rule is evaluated, worked out once per rule."""

    rule: Rule
    # the rule's flags and every parent of them: `Settings.span(flag)` finds a span only if
    # one of these paths has one, so a file that wrote none of them skips the rule at once
    span_paths: frozenset[str]
    check: Callable[[Any], bool] | None = None  # compiled on the first document that needs it


_plans: dict[int, _Plan] = {}  # by id(rule); the plan keeps its rule, so an id is not reused


def _plan(rule: Rule) -> _Plan:
    plan = _plans.get(id(rule))
    if plan is None or plan.rule is not rule:
        parents = {p.rsplit(".", n)[0] for p in rule.flags for n in range(p.count(".") + 1)}
        plan = _plans[id(rule)] = _Plan(rule, frozenset(parents))
    return plan


def _matches(plan: _Plan, document: Mapping[str, Any]) -> bool:
    if plan.check is None:  # jsonschema only for a keyword outside the fast subset
        from vllm_lint.rules.fastschema import compile_schema

        plan.check = compile_schema(plan.rule.rejects, compare_holds)
        if plan.check is None:
            plan.check = _validator_class()(plan.rule.rejects).is_valid
    return bool(plan.check(document))


@cache
def rules_for(release: str) -> tuple[Rule, ...]:
    """The built-in schema rules that hold for a release (computed once per release)."""
    return tuple(r for r in builtin_rules() if r.rejects is not None and r.applies_to(release))


_extra_rules: list[Rule] = []


def use_extra_rules(extra: Iterable[Rule]) -> None:
    """Use a project's rule packs (replacing any used before): evaluated, listed and
    looked up like the built-in rules."""
    added = list(extra)
    if not added and not _extra_rules:
        return
    check_variants([*builtin_rules(), *added])
    _extra_rules[:] = added


def extra_rules() -> tuple[Rule, ...]:
    return tuple(_extra_rules)


def lookup(rule_id: str) -> Rule | None:
    """A rule (built-in or from a pack) by id or slug."""
    for rule in builtin_rules() + extra_rules():
        if rule_id in (rule.id, rule.slug):
            return rule
    return None


def evaluate(settings: Settings) -> list[Finding]:
    """Every rule of the release that the settings violate, as findings."""
    findings = []
    release = settings.release.version
    extra = [r for r in _extra_rules if r.rejects is not None and r.applies_to(release)]
    written = settings.spans.keys()
    for rule in (*rules_for(release), *extra):
        plan = _plan(rule)
        if written.isdisjoint(plan.span_paths):
            continue  # the fast form of the next test
        if not any(p not in settings.defaulted and settings.span(p) for p in rule.flags):
            continue  # nothing the file wrote takes part: a finding would have no line (and
            # `_finding` would drop it), so the schema need not run
        if any(settings.is_opaque(p) for p in rule.flags):
            continue  # never judge a value the linter could not read
        if settings.partial and any(p in settings.defaulted for p in rule.flags):
            continue  # unreadable flags (`$EXTRA_ARGS`) may have changed that default
        if _matches(plan, settings.document):
            finding = _finding(rule, settings)
            if finding is not None:
                findings.append(finding)
    return findings


_PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.]+)\}")


def render(template: str, settings: Settings, mark_defaults: bool = True) -> str:
    """Fill `{path}` placeholders with the settings' values; defaults say so."""

    def value(match: re.Match[str]) -> str:
        path = match.group(1)
        if path == "release":
            return settings.release.version
        found = settings.get(path)
        text = (
            json.dumps(found)
            if isinstance(found, (dict, list, bool)) or found is None
            else str(found)
        )
        return f"{text} (default)" if mark_defaults and path in settings.defaulted else text

    return _PLACEHOLDER.sub(value, template)


def _finding(rule: Rule, settings: Settings) -> Finding | None:
    located = [(path, settings.span(path)) for path in rule.flags if path not in settings.defaulted]
    spans = [(path, span) for path, span in located if span is not None]
    if not spans:
        return None
    primary = spans[0][1]
    related: list[Related] = []
    for path, span in spans[1:]:
        if span != primary and all(r.span != span for r in related):
            related.append(Related(span, f"{settings.label(path)} is set here"))
    message = render(rule.message, settings)
    vllm_error = rule.vllm_error_for(settings.release.version)
    if vllm_error:
        quoted = render(vllm_error, settings, mark_defaults=False)
        message += f' (vLLM {settings.release.version}: "{quoted}")'
    return Finding(
        rule=rule.id,
        slug=rule.slug,
        severity=rule.severity,
        message=message,
        span=primary,
        fix=render(rule.fix, settings),
        related=tuple(related),
        release=settings.release,
        help_uri=rule.help_uri,
    )


def flag_finding(rule_id: str, span: Any, release: Any, **values: Any) -> Finding:
    """A finding of a built-in flag check, its message filled from keyword values."""
    rule = get(rule_id)
    values.setdefault("release", release.version if release is not None else "")
    return Finding(
        rule=rule.id,
        slug=rule.slug,
        severity=rule.severity,
        message=rule.message.format(**values),
        span=span,
        fix=rule.fix.format(**values),
        release=release,
        help_uri=rule.help_uri,
    )
