"""What the derive steps share: the writer of `derived.*` values, and how vLLM reads a
switch, a count or an environment variable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from vllm_lint.effective.settings import Settings

Put = Callable[..., None]  # Derived.put
Release = tuple[int, int, int]


class Derived:
    """The `derived.*` values of one launch, written where each comes from.

    `put` records a value with the span of the first source the file wrote (so a finding on
    it points there); a value computed from something unreadable is left out and marked
    opaque, so that no rule fires on it; `defaulted` marks a value that rests on a default.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.values: dict[str, Any] = {}
        settings.document["derived"] = self.values  # readable while it is filled

    def put(self, name: str, value: Any, *sources: str, defaulted: bool = False) -> None:
        settings, path = self.settings, f"derived.{name}"
        if any(settings.is_opaque(source) for source in sources):
            settings.opaque.add(path)  # computed from a value nobody can read: no rule uses it
            return
        self.values[name] = value
        for source in sources:
            if source in settings.spans and source not in settings.defaulted:
                settings.spans[path] = settings.spans[source]
                settings.labels[path] = settings.label(source)
                break
        if defaulted:
            settings.defaulted.add(path)

    def get(self, name: str) -> Any:
        return self.values.get(name)


def env_int_bool(settings: Settings, name: str, default: bool = False) -> bool | None:
    """`bool(int(os.getenv(NAME, "0")))`, as vllm/envs.py reads most switches.

    None when the variable is opaque or not an integer (vLLM itself would stop with a
    ValueError there; that is not what the rules describe).
    """
    path = f"env.{name}"
    if path in settings.opaque:
        return None
    value = settings.get(path)
    if value is None:
        return default
    try:
        return bool(int(str(value)))
    except ValueError:
        return None


def env_word_bool(settings: Settings, name: str) -> bool | None:
    """`os.environ.get(NAME, "0").strip().lower() in ("1", "true")` (envs.py)."""
    path = f"env.{name}"
    if path in settings.opaque:
        return None
    value = settings.get(path)
    return value is not None and str(value).strip().lower() in ("1", "true")


def int_value(settings: Settings, path: str) -> int | None:
    value = settings.get(path)
    if isinstance(value, bool) or not isinstance(value, int) or path in settings.opaque:
        return None
    return value


def flag_value(settings: Settings, path: str) -> bool | None:
    """A switch's value (its default when unset); None when unknowable."""
    if path in settings.opaque:
        return None
    value = settings.get(path)
    return bool(value) if isinstance(value, bool) or value is None else None
