"""Argument values as argparse and vLLM's own type functions read them: numbers with k/M/G
suffixes, booleans, enum names, choices, the str-method lambdas of some flags."""

from __future__ import annotations

import re
from typing import Any

from vllm_lint.argv.catalog import FlagSpec

_HUMAN_INT = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT]i?)?")
_HUMAN_FACTORS = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}


class _Bad:
    def __repr__(self) -> str:
        return "<bad value>"


BAD: Any = _Bad()


def enum_accepts(spec: FlagSpec, raw: str) -> bool:
    """Whether vLLM's own lookup takes `raw` for an Enum-typed flag (see FlagSpec.enum_match)."""
    if spec.enum_match == "name_upper":
        names = spec.enum_names or ()
        return raw.upper() in names or raw.lower() in spec.enum_extra
    if spec.enum_match == "value":
        return raw in {str(v) for v in spec.enum_values or ()}
    return True


def enum_choices(spec: FlagSpec) -> str:
    if spec.enum_match == "name_upper":
        words = [*(spec.enum_names or ()), *spec.enum_extra]
        return ", ".join(words) + " (in any case)"
    return ", ".join(str(v) for v in spec.enum_values or ())


def normalized(calls: tuple[tuple[str, ...], ...], raw: str) -> str:
    """Replay a type lambda made of str methods (FlagSpec.normalize) on a value."""
    value = raw
    for name, *args in calls:
        if name == "replace" and len(args) == 2:
            value = value.replace(args[0], args[1])
        elif name in ("lower", "upper", "strip") and not args:
            value = getattr(value, name)()
    return value


def allowed_values(spec: FlagSpec) -> set[str] | None:
    if spec.choices:
        return {str(c) for c in spec.choices if c is not None}
    return None


def parse_bool(raw: str) -> bool | None:
    lowered = raw.lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no"):
        return False
    return None


def parse_int(raw: str, human: bool, auto: bool) -> Any:
    if auto and raw == "auto":
        return raw
    try:
        return int(raw)
    except ValueError:
        pass
    if human:
        match = _HUMAN_INT.fullmatch(raw)
        if match:
            factor = _HUMAN_FACTORS[match.group(2)[0].lower()] if match.group(2) else 1
            if match.group(2) and match.group(2).endswith("i"):
                factor = 1024 ** (" kmgt".index(match.group(2)[0].lower()))
            try:
                return int(float(match.group(1)) * factor)
            except OverflowError:  # 310 digits: vLLM's own int(float(…)) fails the same way
                return BAD
    return BAD


# `json_or_kvs` flags read a value as JSON only when it is `{...}` (re.match("^{.*}$", val))
JSON_OBJECT = re.compile(r"^{.*}$")


def parse_kvs(raw: str) -> dict[str, int] | str:
    """vLLM's `nullable_kvs` (vllm/engine/arg_utils.py 0.5.5 - 0.9.2: type `kvs`, and
    `json_or_kvs` for a value that is not `{...}`): `image=16,video=2` -> {"image": 16,
    "video": 2}; otherwise the ArgumentTypeError's message."""
    out: dict[str, int] = {}
    for item in raw.split(","):
        parts = [part.lower().strip() for part in item.split("=")]
        if len(parts) != 2:
            return "Each item should be in the form KEY=VALUE"
        key, value = parts
        try:
            parsed = int(value)
        except ValueError:
            return f"Failed to parse value of item {key}={value}"
        if key in out and out[key] != parsed:
            return f"Conflicting values specified for key: {key}"
        out[key] = parsed
    return out
