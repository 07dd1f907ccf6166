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
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import Any

from vllm_lint import __version__
from vllm_lint import release as versions
from vllm_lint.model import Severity
from vllm_lint.resources import read_shipped, schemas_dir, shipped_json

# The rule reference of the installed release (tagged v<version>), so that a finding's link
# describes the rule as this build judges it.
DOCS_URL = f"https://github.com/vllm-lint/vllm-lint/blob/v{__version__}/docs/rules.md"
_key = cache(versions.key)  # the same few releases and bounds, parsed once
_SITE = re.compile(r"vllm/[\w/.]+\.py:\d+")  # a rule's `source`: where vLLM raises


class RuleFileError(Exception):
    """A rule file that cannot be used: names the file and the JSON pointer."""


class Rule:
    """One rule entry of a rule file (a rule with release variants has one per variant).

    One rule is one object: compared and hashed by identity. A plain class, not a dataclass:
    the cold start pays for every class a dataclass decorator generates."""

    def __init__(self, entry: Mapping[str, Any], origin: str) -> None:
        self.id: str = entry["id"]
        self.slug: str = entry["slug"]
        self.severity = Severity.parse(entry["severity"])
        self.summary: str = entry["summary"]
        self.message: str = entry["message"]
        self.fix: str = entry.get("fix", "")
        self.flags: tuple[str, ...] = tuple(entry.get("flags", ()))
        self.since: str | None = entry.get("since")
        self.before: str | None = entry.get("before")
        self.rejects: Mapping[str, Any] | None = entry.get("rejects")
        # text, or {first release: text} as it changed
        self.vllm_error: str | Mapping[str, str] = entry.get("vllm_error", "")
        # text, or {first release: "vllm/x.py:N"} as the line moved
        self.source: str | Mapping[str, str] = entry.get("source", "")
        # the mined constraints (`Class.field`) vLLM never reaches for what this rule refuses,
        # because the rule's own check raises first: the same refusal (rules/findings.py)
        self.preempts: tuple[str, ...] = tuple(entry.get("preempts", ()))
        self.assumes: str = entry.get("assumes", "")
        self.examples: Mapping[str, Any] = entry.get("examples", {})
        self.origin = origin  # the file the rule was read from
        self.url: str = entry.get("url", "")  # documentation of a rule from a project's own pack
        # the compiled `rejects` (rules/evaluate.py), made on the first launch that needs it and
        # kept on the rule: a pack's rules and their compiled forms go with their configuration
        self.compiled: Callable[[Any], bool] | None = None

    def __repr__(self) -> str:
        return f"Rule({self.id!r}, since={self.since!r}, before={self.before!r})"

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

    def sites_for(self, release: str) -> tuple[str, ...]:
        """The vLLM raise sites the rule stands for in a release: the `file:line` its `source`
        cites for it (the words after it, such as the caller, left out), and the mined
        constraints it preempts (`field:Class.field`)."""
        cited = self.source
        if not isinstance(cited, str):
            applicable = [r for r in cited if _key(r) <= _key(release)]
            cited = cited[max(applicable, key=_key)] if applicable else ""
        found = _SITE.match(cited)
        own = (found.group(0),) if found else ()
        return own + tuple(f"field:{name}" for name in self.preempts)

    @cached_property
    def span_paths(self) -> frozenset[str]:
        """The rule's flags and every parent of them: `Settings.span(flag)` finds a span only
        if one of these paths has one, so a file that wrote none of them skips the rule."""
        named = (*self.flags, *self.nested_paths)  # `--x.key v` writes only the key's path
        return frozenset(p.rsplit(".", n)[0] for p in named for n in range(p.count(".") + 1))

    @cached_property
    def nested_paths(self) -> tuple[str, ...]:
        """The keys inside a flag's value that the rule's schema names (`speculative_config.
        tensor_parallel_size`), in the schema's order: a finding points at the ones written
        rather than at the whole flag (rules/findings.py)."""
        found: dict[str, None] = {}
        stack: list[tuple[Any, str]] = [(self.rejects, "")]
        while stack:
            node, prefix = stack.pop(0)
            if isinstance(node, list):
                stack += [(item, prefix) for item in node]
            elif isinstance(node, Mapping):
                for key, inner in node.items():
                    if key == "properties" and isinstance(inner, Mapping):
                        for name, schema in inner.items():
                            if schema is True or schema == {}:
                                continue  # says nothing of the key's value (a list of keys)
                            path = f"{prefix}.{name}" if prefix else str(name)
                            if prefix:
                                found.setdefault(path, None)
                            stack.append((schema, path))
                    elif key in ("required", "const", "enum", "compare"):
                        continue  # names and values, not schemas
                    elif isinstance(inner, (Mapping, list)):
                        stack.append((inner, prefix))
        return tuple(found)

    @cached_property  # read for every finding: computed once per rule
    def help_uri(self) -> str:
        """The rule's documentation: its section of docs/rules.md, or a pack's own `url`."""
        if self.url or self.origin_is_pack:
            return self.url
        return f"{DOCS_URL}#{self.id.lower()}-{self.slug}"

    @cached_property
    def origin_is_pack(self) -> bool:
        return bool(self.origin) and (schemas_dir() / "rules") not in Path(self.origin).parents

    def releases_text(self) -> str:
        if self.since and self.before:
            return f"{self.since} up to (not including) {self.before}"
        if self.since:
            return f"{self.since} and later"
        if self.before:
            return f"before {self.before}"
        return "every release"


def _pointer(path: Iterable[Any]) -> str:
    return "/" + "/".join(str(part) for part in path)


MAX_PACK_BYTES = 1 << 20
_MAX_PACK_DEPTH = 64  # nesting of a pack's JSON: jsonschema recurses once or more per level


def load_rule_file(path: Path, validate: bool = True, inside: Path | None = None) -> list[Rule]:
    """Read and validate one rule file; any problem is a RuleFileError naming file and pointer.

    The built-in files are validated by the tests, not on every run (`validate=False`). A
    project's pack (`validate=True`) is read like a linted file (a regular file, at most
    MAX_PACK_BYTES, inside `inside` when given) and must be safe to run (rules/pack_checks.py).
    """
    if not validate:
        return [Rule(entry, str(path)) for entry in _read_json(path)["rules"]]
    data = _read_pack(path, inside)
    from jsonschema import Draft202012Validator

    meta = Draft202012Validator(_meta_schema())
    errors = sorted(meta.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        raise RuleFileError(f"{path}: {_pointer(first.absolute_path)}: {first.message}")
    rules = [Rule(entry, str(path)) for entry in data["rules"]]
    for index, rule in enumerate(rules):
        if rule.rejects is not None:
            _check_rejects(path, index, rule.rejects)
        if rule.url and not _is_https(rule.url):
            pointer = _pointer(["rules", index, "url"])
            raise RuleFileError(f"{path}: {pointer}: only an https:// address is allowed")
        for bound in (rule.since, rule.before):
            if bound is not None:
                try:
                    versions.key(bound)
                except ValueError:
                    raise RuleFileError(
                        f"{path}: {_pointer(['rules', index])}: bad release {bound!r}"
                    ) from None
    return rules


def _read_pack(path: Path, inside: Path | None) -> Any:
    from vllm_lint.argv.json_flags import deeper
    from vllm_lint.files.reader import read_bytes

    try:
        raw = read_bytes(path, MAX_PACK_BYTES + 1, inside=inside)
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        where = f" (rule packs must be regular files inside {inside})" if inside else ""
        raise RuleFileError(f"{path}: cannot read rule file: {why}{where}") from None
    if len(raw) > MAX_PACK_BYTES:
        raise RuleFileError(f"{path}: larger than {MAX_PACK_BYTES} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise RuleFileError(f"{path}: cannot read rule file: not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise RuleFileError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except (RecursionError, ValueError) as exc:  # ValueError: a number of 5,000 digits
        raise RuleFileError(f"{path}: invalid JSON: {str(exc) or 'nested too deeply'}") from None
    if deeper(data, _MAX_PACK_DEPTH):
        raise RuleFileError(f"{path}: nested more than {_MAX_PACK_DEPTH} levels deep")
    return data


def _check_rejects(path: Path, index: int, rejects: Any) -> None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    from vllm_lint.rules.pack_checks import PackSchemaError, check_rejects

    where = _pointer(["rules", index, "rejects"])
    try:
        Draft202012Validator.check_schema(rejects)
    except SchemaError as exc:
        inner = _pointer(exc.absolute_path) if exc.absolute_path else ""
        raise RuleFileError(f"{path}: {where}{inner}: invalid schema: {exc.message}") from None
    try:
        check_rejects(rejects)
    except PackSchemaError as exc:
        pointer = where + exc.pointer.removeprefix("#")
        raise RuleFileError(f"{path}: {pointer}: {exc}") from None


def _is_https(url: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme == "https" and bool(parts.netloc) and url.isprintable() and " " not in url


@lru_cache(maxsize=1)
def _meta_schema() -> dict[str, Any]:
    data: dict[str, Any] = shipped_json("rule-pack.schema.json")
    return data


@cache
def builtin_rules() -> tuple[Rule, ...]:
    """The rules of `schemas/rules/<area>/VLnnn-<slug>.json`, in path order (read through the
    per-user cache of rules/cache.py)."""
    from vllm_lint.rules.cache import parsed_files

    rules: list[Rule] = []
    for path, data in parsed_files(schemas_dir() / "rules", _read_json):
        rules.extend(Rule(entry, path) for entry in data["rules"])
    check_variants(rules)
    return tuple(rules)


def _read_json(path: Path) -> Any:
    return json.loads(read_shipped(path))


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


class RuleSet:
    """The rules of one run: the built-in ones and the project's rule packs.

    Passed along in the run's options (never kept in a module), so that two runs in one
    process, or two tests, cannot see each other's packs.
    """

    __slots__ = ("packs",)

    def __init__(self, packs: tuple[Rule, ...] = ()) -> None:
        if packs:
            check_variants([*builtin_rules(), *packs])
        self.packs = packs

    @property
    def all(self) -> tuple[Rule, ...]:
        return builtin_rules() + self.packs

    def for_release(self, release: str) -> tuple[Rule, ...]:
        """The schema rules (built-in first, then the packs') that hold for a release."""
        packs = tuple(r for r in self.packs if r.rejects is not None and r.applies_to(release))
        return _builtin_for(release) + packs

    def lookup(self, rule_id: str) -> Rule | None:
        """A rule by id or slug (its first entry when it has variants)."""
        found = _builtin_by_name().get(rule_id)
        if found:
            return found[0]
        return next((r for r in self.packs if rule_id in (r.id, r.slug)), None)

    def variants(self, rule_id: str) -> list[Rule]:
        """Every entry of a rule: one per release range where vLLM changed the check."""
        rule = self.lookup(rule_id)
        return [] if rule is None else [r for r in self.all if r.id == rule.id]


@cache
def _builtin_by_name() -> dict[str, list[Rule]]:
    table: dict[str, list[Rule]] = {}
    for rule in builtin_rules():
        table.setdefault(rule.id, []).append(rule)
        if rule.slug != rule.id:
            table.setdefault(rule.slug, []).append(rule)
    return table


@cache
def _builtin_for(release: str) -> tuple[Rule, ...]:
    return tuple(r for r in builtin_rules() if r.rejects is not None and r.applies_to(release))


def builtin(rule_id: str) -> Rule:
    """A built-in rule by id or slug (its first entry); KeyError if there is none."""
    return _builtin_by_name()[rule_id][0]


BUILTIN = RuleSet()
