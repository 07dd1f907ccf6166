"""When a flag came and went: the catalogued releases, and the curated table of removed and
renamed flags (schemas/renamed-flags.json) with what to write instead."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any, NamedTuple

from vllm_lint import release as versions
from vllm_lint.argv import catalog
from vllm_lint.argv.catalog import Catalog
from vllm_lint.resources import read_shipped, schemas_dir


def describe(flag: str, release: str) -> str:
    """ "it was last in vLLM 0.8.5" or "it first appears in vLLM 0.27.1" for a flag unknown to
    `release`; "" if no catalogued release has it."""
    known = catalog.known_releases()
    present = [r for r in known if catalog.catalog_for(r).resolve(flag) is not None]
    if not present or catalog.catalog_for(release).resolve(flag) is not None:
        return ""  # (the release has it: `--max_model_len` before 0.5.1 is only misspelt)
    target = versions.full_key(release)  # every patch is catalogued: 0.4.0 < 0.4.0.post1
    later = [r for r in present if versions.full_key(r) > target]
    earlier = [r for r in present if versions.full_key(r) < target]
    if earlier and not later:
        return f"it was last in vLLM {earlier[-1]}"
    if later:
        return f"it first appears in vLLM {later[0]}"
    return ""


class Removal(NamedTuple):
    """One row of the table: `flag` was in `last_in` and is gone from `removed_in` on."""

    flag: str
    last_in: str
    removed_in: str
    value: str  # none | one | optional | many: how the flag took its argument
    replacement: Mapping[str, Any]
    source: str
    # the replacement keeps what the flag meant (vLLM's own shim in `last_in`, cited): --fix
    # applies it by default; `values` limits that to those values of a `by_value` flag
    safe_fix: Mapping[str, Any] | None = None

    def fix_is_safe(self, value: str | None = None) -> bool:
        if self.safe_fix is None:
            return False
        values = self.safe_fix.get("values")
        return values is None or value in values

    def applies_to(self, release: str) -> bool:
        """Whether `release` no longer has the flag (it may have come back: the caller
        asks only for flags the release's catalog lacks)."""
        return versions.full_key(release) >= versions.full_key(self.removed_in)

    def predates(self, release: str) -> bool:
        """Whether `release` is older than the flag: the flag then is simply unknown there,
        neither removed nor renamed (vLLM 0.28.0 says "unrecognized arguments" for
        --enable-mamba-fine-grained-prefix-cache, which 0.30 added and 0.31 removed).

        The flag existed from the first catalogued release that has it (every release is
        catalogued, to the patch: `--device` is new in 0.3.1) up to `last_in`; an older
        release predates it. A flag that no catalog has went before the oldest one (0.2.0):
        no supported release predates it."""
        first = first_in(self.flag)
        return first is not None and versions.full_key(release) < versions.full_key(first)


@cache
def _table() -> Mapping[str, Removal]:
    path = schemas_dir() / "renamed-flags.json"
    rows: dict[str, Any] = json.loads(read_shipped(path))["flags"]
    return {
        flag: Removal(
            flag,
            row["last_in"],
            row["removed_in"],
            row["value"],
            row["replacement"],
            row["source"],
            row.get("safe_fix"),
        )
        for flag, row in rows.items()
    }


@cache
def first_in(flag: str) -> str | None:
    """The oldest catalogued release whose `vllm serve` has `flag` (None: no catalog has it)."""
    for release in catalog.known_releases():
        if catalog.catalog_for(release).resolve(flag) is not None:
            return release
    return None


def removal(option: str) -> tuple[Removal, bool] | None:
    """The table row of an option as written (underscores allowed in the name) and whether it
    was written as the `--no-` negation of a removed switch; None when the table lacks it."""
    name = "--" + option.lstrip("-").replace("_", "-") if option.startswith("--") else option
    table = _table()
    if name in table:
        return table[name], False
    if name.startswith("--no-"):
        row = table.get("--" + name[5:])
        if row is not None and row.value == "none":
            return row, True
    return None


def removed_flags() -> Mapping[str, Removal]:
    return _table()


def replacement_text(row: Removal, value: str | None, cat: Catalog, negated: bool = False) -> str:
    """What to write instead of `row.flag` (given `value`, if it took one) on `cat`'s release."""
    rep = row.replacement
    release = cat.release
    if "by_value" in rep:
        if value is not None and value in rep["by_value"]:
            return f"for {row.flag} {value}, write {rep['by_value'][value]}"
        return str(rep.get("none", "see vLLM's release notes"))
    target = rep.get("flag")
    if not isinstance(target, str):
        return f"drop it: {rep.get('none', 'there is no replacement')}"
    if negated:
        return f"drop it ({row.flag} was a switch; its replacement is {target})"
    spec = cat.flags.get(target)
    missing = "" if spec is not None else f" (vLLM {release} has no {target} either)"
    if "key" in rep:
        key = str(rep["key"])
        shown = _json_value(value, row.value)
        text = f"use {target} '{json.dumps({key: shown}) if shown is not None else _key_only(key)}'"
        if spec is not None and spec.json_keys is not None and key not in spec.json_keys:
            missing = f" (vLLM {release}'s {target} has no key {key!r} either: the setting is gone)"
        return text + missing
    if "value" in rep:
        return f"use {target} {rep['value']}{missing}"
    if value is not None:
        return f"use {target} {value}{missing}"
    return f"use {target} instead{missing}"


def _key_only(key: str) -> str:
    return '{"' + key + '": …}'


def _json_value(value: str | None, form: str) -> Any:
    """The JSON a flag's value becomes as a key of a JSON flag; None when unknown."""
    if form == "none" or (form == "optional" and value is None):
        return True
    if value is None:
        return None
    from vllm_lint.argv.json_flags import loads

    try:
        return loads(value)
    except ValueError:
        return value


class Event(NamedTuple):
    """One change of a flag between two catalogued releases: `kind` is added, removed,
    renamed, deprecated, undeprecated, choices, default or type; `release` is the first
    release that shows it."""

    release: str
    kind: str
    detail: str


# what changes the meaning of a flag's value, besides its choices and default
_SHAPE = ("type", "nargs", "is_bool", "action")


def canonical(name: str) -> str:
    """`swap_space`, `swap-space`, `--swap-space`: the flag's name as vLLM's help prints it
    (a JSON key or a Python keyword names the same setting). A flag some release spelled
    with an underscore (0.4.2's `--max-seq_len-to-capture`) keeps its own name."""
    written = "--" + name.lstrip("-")
    return written if written in all_flags() else written.replace("_", "-")


def all_flags() -> tuple[str, ...]:
    """Every flag name some catalogued release has, or the removed-flags table records."""
    names = {spec.name for r in catalog.known_releases() for spec in _specs(r)}
    return tuple(sorted(names | set(_table())))


def _specs(release: str) -> tuple[Any, ...]:
    return tuple(catalog.catalog_for(release).flags.values())


def history(flag: str) -> list[Event]:
    """What happened to `flag` over the catalogued releases, oldest first ([] if none had
    it). The catalogs say when it came, went and changed; the table says what it became."""
    name = canonical(flag)
    events: list[Event] = []
    previous: Any = None
    last_seen = ""
    known = catalog.known_releases()
    for release in known:
        found = catalog.catalog_for(release).resolve(name)
        spec = found[0] if found is not None else None
        if spec is not None and previous is None:
            back = any(e.kind in ("removed", "renamed") for e in events)
            first = "in the oldest catalogued release" if release == known[0] else "new"
            events.append(Event(release, "added", "came back" if back else first))
        elif spec is None and previous is not None:
            events.append(_gone(name, release, last_seen))
        elif spec is not None and previous is not None:
            if spec.name != previous.name == name:
                # renamed, the old spelling still taken by the parser's `_` to `-` convenience
                gone = _gone(name, release, last_seen)
                still = "; this spelling is still accepted (vLLM's parser reads _ as -)"
                events.append(gone._replace(detail=gone.detail + still))
            events.extend(_changes(previous, spec, release))
        previous = spec
        last_seen = release if spec is not None else last_seen
    return events


def _gone(name: str, release: str, last_seen: str) -> Event:
    row = _table().get(name)
    if row is None or versions.full_key(row.removed_in) <= versions.full_key(last_seen):
        # the row tells an earlier removal (a spelling the parser took back): the setting's own
        row = _table().get(name.replace("_", "-"))
    if row is None or versions.full_key(row.removed_in) <= versions.full_key(last_seen):
        return Event(release, "removed", "no replacement recorded")
    release = row.removed_in  # exact to the patch, where the catalogs keep one per series
    target = row.replacement.get("flag")
    if isinstance(target, str):
        key = row.replacement.get("key")
        where = f"{target} (key {key})" if key else target
        return Event(release, "renamed", f"became {where}; source: {row.source}")
    if "by_value" in row.replacement:
        ways = "; ".join(f"{v}: {w}" for v, w in row.replacement["by_value"].items())
        return Event(release, "renamed", f"by value: {ways}; source: {row.source}")
    what = row.replacement.get("none", "no replacement")
    return Event(release, "removed", f"{what}; source: {row.source}")


def _changes(old: Any, new: Any, release: str) -> list[Event]:
    events = []
    if new.deprecated and not old.deprecated:
        events.append(Event(release, "deprecated", str(new.deprecated)))
    elif old.deprecated and not new.deprecated:
        events.append(Event(release, "undeprecated", "no longer marked deprecated"))
    if old.choices != new.choices and (old.choices or new.choices):
        events.append(Event(release, "choices", _diff(old.choices or (), new.choices or ())))
    if old.default != new.default:
        events.append(Event(release, "default", f"{old.default!r} -> {new.default!r}"))
    shape = [f for f in _SHAPE if getattr(old, f) != getattr(new, f)]
    if shape:
        said = ", ".join(f"{f} {getattr(old, f)!r} -> {getattr(new, f)!r}" for f in shape)
        events.append(Event(release, "type", said))
    return events


def _diff(old: tuple[str, ...], new: tuple[str, ...]) -> str:
    added = [c for c in new if c not in old]
    gone = [c for c in old if c not in new]
    parts = [f"+{', +'.join(added)}"] if added else []
    parts += [f"-{', -'.join(gone)}"] if gone else []
    return "; ".join(parts) or "reordered"


def crossed(since: str, until: str, kinds: frozenset[str]) -> list[tuple[str, Event]]:
    """(flag, event) for every event of `kinds` in a release after `since` up to `until`:
    what a bump from `since` to `until` crosses."""
    low, high = versions.full_key(since), versions.full_key(until)
    return [
        (name, event)
        for name in all_flags()
        for event in history(name)
        if event.kind in kinds and low < versions.full_key(event.release) <= high
    ]
