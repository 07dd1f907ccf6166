"""When a flag came and went across the catalogued releases (for unknown-flag messages)."""

from __future__ import annotations

from . import catalog, versions


def describe(flag: str, release: str) -> str:
    """ "added in 0.27.1" or "last in 0.8.5" for a flag unknown to `release`; "" if never seen."""
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
