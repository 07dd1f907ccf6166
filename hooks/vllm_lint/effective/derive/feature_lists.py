"""vLLM's lists of unsupported features, computed for one launch from schemas/feature-lists.json.

Before it refuses a launch, vLLM computes a list of the features the flags turn on that the
engine or the model runner cannot run (`EngineArgs._is_v1_supported_oracle`,
`VllmConfig._get_v2_model_runner_unsupported_features`, …), and the list differs per release.
The entries are data — vLLM's wording, the flag, the releases, a JSON Schema over the settings —
so this module holds no release of its own; rules judge the lists (derived.<list>).
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from vllm_lint.effective.derive.values import Put, Release
from vllm_lint.effective.settings import Settings
from vllm_lint.fastschema import Predicate, compile_schema
from vllm_lint.release import key

Feature = tuple[str, str]  # (vLLM's wording, the settings path it hangs on)
_NEVER = (999, 0, 0)


class _Entry(NamedTuple):
    feature: str  # "" for an include
    path: str
    include: str
    value: str
    since: Release
    before: Release
    number: int  # its place in `features`: its `when` is compiled on first use (_when)


class _List(NamedTuple):
    first: bool  # vLLM names the first feature it meets
    since: Release
    before: Release
    put_since: Release
    when: Predicate | None
    opaque_stops: bool
    entries: tuple[_Entry, ...]


def _compiled(schema: Any, where: str) -> Predicate:
    predicate = compile_schema(schema)
    if predicate is None:  # a shipped-data defect: tests/test_feature_lists.py compiles them all
        raise ValueError(f"schemas/feature-lists.json: {where}: a schema outside the subset")
    return predicate


@cache
def _data() -> Any:
    from vllm_lint.resources import shipped_json

    return shipped_json("feature-lists.json")


@cache
def _when(index: int) -> Predicate:
    """An entry's condition, compiled the first time a launch of its releases needs it."""
    return _compiled(_data()["features"][index]["when"], f"features[{index}]")


@cache
def _lists() -> dict[str, _List]:
    """The lists, read once per process (shipped data only: read on first use)."""
    data = _data()
    entries: dict[str, list[_Entry]] = {name: [] for name in data["lists"]}
    for i, e in enumerate(data["features"]):
        entries[e["list"]].append(
            _Entry(
                e.get("feature", ""),
                e.get("path", ""),
                e.get("include", ""),
                e.get("value", e.get("path", "")),
                key(e.get("since", "0.0.0")),
                key(e["before"]) if "before" in e else _NEVER,
                i,
            )
        )
    return {
        name: _List(
            spec["pick"] == "first",
            key(spec["since"]),
            key(spec["before"]) if "before" in spec else _NEVER,
            key(spec.get("put_since", spec["since"])),
            _compiled(spec["when"], name) if "when" in spec else None,
            bool(spec.get("opaque_stops")),
            tuple(entries[name]),
        )
        for name, spec in data["lists"].items()
    }


def features(name: str, settings: Settings, release: Release) -> list[Feature] | None:
    """The features of list `name` this launch turns on, in vLLM's order (the first only for a
    first-match list); None when an unreadable flag leaves a first-match list undecidable."""
    spec = _lists()[name]
    document = settings.document
    if not spec.since <= release < spec.before or (spec.when and not spec.when(document)):
        return []
    found: list[Feature] = []
    for entry in spec.entries:
        if not entry.since <= release < entry.before:
            continue
        if entry.include:
            if _when(entry.number)(document):
                found += features(entry.include, settings, release) or []
            continue
        if entry.path in settings.opaque:
            if spec.opaque_stops:
                return None
            continue
        if _when(entry.number)(document):
            text = entry.feature.replace("{value}", str(settings.get(entry.value)))
            found.append((text, entry.path))
            if spec.first:
                return found
    return found


def put_list(name: str, settings: Settings, release: Release, put: Put) -> None:
    """derived.<name>: the features joined as vLLM joins them, from the flags they hang on."""
    if release < _lists()[name].put_since:
        return
    found = features(name, settings, release)
    if found:
        put(name, ", ".join(text for text, _ in found), *(path for _, path in found))
