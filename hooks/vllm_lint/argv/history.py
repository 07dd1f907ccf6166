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
from vllm_lint.resources import schemas_dir


def describe(flag: str, release: str) -> str:
    """ "it was last in vLLM 0.8.5" or "it first appears in vLLM 0.27.1" for a flag unknown to
    `release`; "" if no catalogued release has it."""
    known = catalog.known_releases()
    present = [r for r in known if catalog.catalog_for(r).resolve(flag) is not None]
    if not present:
        return ""
    target = versions.key(release)
    later = [r for r in present if versions.key(r) > target]
    earlier = [r for r in present if versions.key(r) < target]
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

        The flag existed from the first catalogued release that has it (one per minor
        series, its newest patch) up to `last_in`; a release of an older minor series
        predates it. A flag that no catalog has went before the oldest one (0.8.5): no
        supported release predates it."""
        first = first_in(self.flag)
        return first is not None and versions.key(release)[:2] < versions.key(first)[:2]


@cache
def _table() -> Mapping[str, Removal]:
    path = schemas_dir() / "renamed-flags.json"
    with path.open(encoding="utf-8") as fh:
        rows: dict[str, Any] = json.load(fh)["flags"]
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
