"""The `vllm serve` flag catalogs, one per vLLM release on PyPI (0.2.0 - 0.34.0).

The data lives in ``schemas/flags/`` (written by ``tools/extract_flags.py``):
``index.json`` lists the releases in order; the newest and a few keyframes are
full files and every other release is a delta against the next newer one.
Loading a release reads the nearest full file at or above it plus the deltas
down to it (at most a handful); results are cached.

Stdlib only and cheap to import: the linter imports this on every run.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Mapping
from functools import cache, cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from vllm_lint.release import catalog_index, full_key, known_releases, minor_of
from vllm_lint.resources import read_shipped, schemas_dir

__all__ = ["Catalog", "FlagSpec", "build_catalog", "catalog_for", "known_releases"]


class FlagSpec:
    """One option of ``vllm serve`` in one release, read from its catalog record.

    A plain class, not a dataclass: a catalog builds hundreds, and the cold start pays for
    every class a dataclass decorator generates. Compared by identity (one per record)."""

    __slots__ = (
        "action",
        "aliases",
        "choices",
        "choices_dynamic",
        "config_choices",
        "config_choices_lower",
        "config_field",
        "default",
        "deprecated",
        "enum_extra",
        "enum_match",
        "enum_names",
        "enum_values",
        "is_bool",
        "json_extra",
        "json_keys",
        "json_literals",
        "name",
        "nargs",
        "negations",
        "normalize",
        "nullable",
        "record",
        "suggested",
        "type",
    )

    def __init__(self, name: str, rec: Mapping[str, Any]) -> None:
        dep = rec.get("deprecated")
        choices = _tuple(rec.get("choices"))
        self.name = name
        self.aliases: tuple[str, ...] = tuple(rec.get("aliases", ()))
        self.nargs: str | None = rec.get("nargs")
        self.is_bool = bool(rec.get("is_bool", False))
        self.negations: tuple[str, ...] = tuple(rec.get("negations", ()))
        self.type: str = rec.get("type", "str")
        self.choices = tuple(str(c) for c in choices) if choices is not None else None
        self.default: object = rec.get("default")
        self.deprecated = dep if isinstance(dep, str) else ("deprecated" if dep else None)
        self.json_keys: tuple[str, ...] | None = _tuple(rec.get("json_keys"))
        self.config_field: str | None = rec.get("config_field")
        # extra information (all optional in the catalog files)
        self.suggested: tuple[str, ...] | None = _tuple(rec.get("suggested"))  # metavar choices
        self.enum_values: tuple[object, ...] | None = _tuple(rec.get("enum_values"))
        self.nullable = bool(rec.get("nullable", False))  # "None" / "" are accepted
        self.action: str | None = rec.get("action")  # append, optional-value, LoRAParserAction
        self.choices_dynamic = bool(rec.get("choices_dynamic", False))  # known at run time
        # how vLLM checks a str given to an Enum-typed flag after argparse: "name_upper"
        # (`Enum[value.upper()]`: member names, any case) or "value" (pydantic, IntEnum values)
        self.enum_match: str | None = rec.get("enum_match")
        self.enum_names: tuple[str, ...] | None = _tuple(rec.get("enum_names"))
        # words accepted besides the members ("auto")
        self.enum_extra: tuple[str, ...] = tuple(rec.get("enum_extra", ()))
        # unknown JSON keys: "forbid" (an error) or "ignore"
        self.json_extra: str | None = rec.get("json_extra")
        # a `custom` type made of str methods, replayed before `choices` are judged:
        # (("lower",), ("replace", "-", "_")) for `lambda s: s.lower().replace("-", "_")`
        self.normalize = tuple(
            tuple(str(part) for part in call) for call in rec.get("normalize", ())
        )
        # names vLLM accepts when it builds its config, from a registry argparse does not know
        # (`--quantization`: QUANTIZATION_METHODS), lower-cased first when `config_choices_lower`
        self.config_choices: tuple[str, ...] | None = _tuple(rec.get("config_choices"))
        self.config_choices_lower = bool(rec.get("config_choices_lower", False))
        # JSON key -> the values its Literal type allows (None for null), checked by pydantic
        self.json_literals: Mapping[str, tuple[Any, ...]] = MappingProxyType(
            {k: tuple(v) for k, v in rec.get("json_literals", {}).items()}
        )
        self.record: Mapping[str, Any] = MappingProxyType(dict(rec))

    def __repr__(self) -> str:
        return f"FlagSpec({self.name!r})"


def _tuple(v: Any) -> tuple[Any, ...] | None:
    return tuple(v) if isinstance(v, list | tuple) else None


_KEY = re.compile(r"(?<=--)[^.]*")
# argparse adds -h/--help to the `serve` parser (vllm/entrypoints/cli/serve.py add_parser)
HELP_OPTIONS = ("-h", "--help")


# Flags whose value belongs to a key of a JSON flag (vLLM 0.25+ `--spec-*` shortcuts).
_PARENT_OF_CLASS = {"SpeculativeConfig": "speculative_config"}


def dest(flag: str) -> str:
    """`--max-model-len` → `max_model_len`: the document key of a flag."""
    return flag.lstrip("-").replace("-", "_")


def settings_path(spec: FlagSpec) -> str:
    """Where a flag's value goes in the effective settings: its document key, or the key of a
    JSON flag it sets (`--spec-tokens` → `speculative_config.num_speculative_tokens`)."""
    if spec.config_field:
        owner, _, fieldname = spec.config_field.partition(".")
        parent = _PARENT_OF_CLASS.get(owner)
        if parent is not None and dest(spec.name) != parent:
            return f"{parent}.{fieldname}"
    return dest(spec.name)


def _normalise(option: str) -> str:
    """Underscores become dashes in the key part (``--a_b.c_d`` -> ``--a-b.c_d``)."""
    if option.startswith("--"):
        return _KEY.sub(lambda m: m.group(0).replace("_", "-"), option, count=1)
    return option


class Catalog:
    """The flags of one extracted release."""

    def __init__(
        self,
        release: str,
        flags: Mapping[str, FlagSpec],
        features: Mapping[str, object],
        lookup: Mapping[str, tuple[FlagSpec, bool | None]],
    ) -> None:
        self.release = release
        self.flags = flags
        self.features = features
        self._lookup = lookup
        self._options = tuple(sorted({*lookup, *HELP_OPTIONS}))  # sorted, with -h/--help

    def __repr__(self) -> str:
        return f"Catalog({self.release!r})"

    @cached_property
    def defaults(self) -> tuple[tuple[str, object], ...]:
        """(settings path, default) of the flags that have a default, at the top level."""
        return tuple(
            (path, spec.default)
            for spec in self.flags.values()
            if spec.default is not None and "." not in (path := settings_path(spec))
        )

    def resolve(self, option: str) -> tuple[FlagSpec, bool | None] | None:
        """Exact lookup of an option as written (without ``=value``).

        Returns ``(spec, negated)``: ``negated`` is True for a negation form
        (``--no-x``, ``--disable-x`` in 0.33+), False for the positive form of a
        boolean flag and None for a flag that takes a value.  Underscores in
        the key part become dashes, as vLLM does; argparse's prefix
        abbreviations are *not* resolved here (see :meth:`abbreviation`).
        """
        if self.features.get("underscore_to_dash", True):
            option = _normalise(option)
        return self._lookup.get(option)

    def abbreviation(self, option: str) -> FlagSpec | None:
        """The flag a unique prefix stands for, as argparse's ``allow_abbrev``.

        Like argparse, every option string (names, aliases and negations) is a
        candidate; the prefix is ambiguous -- None -- when it matches more than
        one option string (see :meth:`prefix_matches`).  An exact match is not an
        abbreviation (use :meth:`resolve`).
        """
        matches = self.prefix_matches(option)
        if len(matches) == 1 and matches[0] not in HELP_OPTIONS:
            return self._lookup[matches[0]][0]
        return None

    def prefix_matches(self, option: str) -> list[str]:
        """The option strings that ``option`` is a prefix of, as argparse's
        ``_get_option_tuples`` finds them: argparse reports "ambiguous option" for two or
        more, whichever flags they belong to.  The ``-h/--help`` that every argparse
        parser has takes part.  Single-dash options are matched against single-dash
        option strings and ``--`` options against ``--`` ones; an exact option string
        gives [].
        """
        if self.features.get("underscore_to_dash", True):
            option = _normalise(option)
        if not option.startswith("-") or option in self._lookup:
            return []
        double = option.startswith("--")
        options = self._options
        found = []
        for opt in options[bisect.bisect_left(options, option) :]:
            if not opt.startswith(option):
                break  # sorted: the options with this prefix are contiguous
            if opt.startswith("--") == double:
                found.append(opt)
        return found

    @property
    def positional(self) -> tuple[str, ...]:
        pos = self.features.get("positional", ())
        return tuple(pos) if isinstance(pos, list | tuple) else ()


def _flags_dir() -> Path:
    return schemas_dir() / "flags"


@cache
def _load_file(name: str) -> Mapping[str, Any]:
    data: dict[str, Any] = json.loads(read_shipped(_flags_dir() / name))
    return data


@cache
def _entries() -> Mapping[str, Mapping[str, Any]]:
    return {entry["release"]: entry for entry in catalog_index()["releases"]}


@cache
def _records(release: str) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """(flag records, features) of an extracted release: a keyframe's own file (`base`: the
    newest release, and keyframes such as 0.8.5.post1), or the records of the next newer
    release (`next`, cached: reading every release reads every file once) with the delta
    applied."""
    entry = _entries().get(release)
    if entry is None:
        raise KeyError(release)
    data = _load_file(entry["file"])
    if entry["kind"] == "base":
        flags = dict(data["flags"])  # the loaded records, never mutated: shared by releases
    else:
        flags = dict(_records(data["next"])[0])
        for name in data.get("removed", ()):
            flags.pop(name, None)
        flags.update(data.get("added", {}))
        flags.update(data.get("changed", {}))
    features = dict(data.get("parser_features", {}))
    features["positional"] = list(data.get("positional", ()))
    return flags, features


_SPECS: dict[tuple[str, int], tuple[Mapping[str, Any], FlagSpec]] = {}


def _shared_spec(name: str, rec: Mapping[str, Any]) -> FlagSpec:
    """One FlagSpec per record of the catalog files: a flag unchanged between releases is
    built once, not once per release (most of a catalog's cost)."""
    hit = _SPECS.get((name, id(rec)))
    if hit is None or hit[0] is not rec:
        hit = _SPECS[(name, id(rec))] = (rec, FlagSpec(name, rec))
    return hit[1]


@cache
def _catalog(release: str) -> Catalog:
    return build_catalog(release, *_records(release))


def build_catalog(
    release: str, records: Mapping[str, Mapping[str, Any]], features: Mapping[str, Any]
) -> Catalog:
    """A Catalog of flag records (a release's `serve`, or another command's: argv/commands.py)."""
    specs = {name: _shared_spec(name, rec) for name, rec in records.items()}
    lookup: dict[str, tuple[FlagSpec, bool | None]] = {}
    # negations first, so that a real flag of the same name wins
    for spec in specs.values():
        for neg in spec.negations:
            lookup[neg] = (spec, True)
    for spec in specs.values():
        positive: bool | None = False if spec.is_bool else None
        for opt in spec.aliases:
            lookup[opt] = (spec, positive)
    for spec in specs.values():
        lookup[spec.name] = (spec, False if spec.is_bool else None)
    return Catalog(
        release, MappingProxyType(specs), MappingProxyType(features), MappingProxyType(lookup)
    )


def catalog_for(release: str) -> Catalog:
    """The catalog of ``release`` exact to the patch ("0.8.5.post1"). A release that was not
    extracted takes a catalogued one of the same patch ("0.2.1" -> 0.2.1.post1, the one PyPI
    lists), else the newest catalogued patch of its minor series below it ("0.33.1" ->
    0.33.0), else the oldest of the series.

    Raises KeyError for a minor series that was not extracted (outside 0.2 - 0.34).
    """
    try:
        wanted = full_key(release)
        minor = minor_of(release)
    except ValueError:
        raise KeyError(f"no flag catalog for vLLM {release!r}") from None
    same = [e["release"] for e in catalog_index()["releases"] if e["minor"] == minor]
    if not same:
        raise KeyError(f"no flag catalog for vLLM {release} (minor series {minor})")
    below = [r for r in same if full_key(r) <= wanted]
    patch = [r for r in same if full_key(r)[:3] == wanted[:3]]
    if below and full_key(below[-1])[:3] == wanted[:3]:
        return _catalog(below[-1])  # the release itself, or its newest post release below
    return _catalog(patch[0] if patch else below[-1] if below else same[0])
