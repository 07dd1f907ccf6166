"""The values pydantic refuses, judged from what was mined from each release's source.

`schemas/validation/<release>.json` (tools/mine_validation.py; tools/README.md says how to
read it) lists, per release, the flags whose value reaches a pydantic-validated config field
and every field's type, `Literal` values, enum, bounds and whether its class refuses unknown
keys. No rule is written per constraint: this module walks a launch's values through that
data, for flags and for the keys of JSON flags (nested classes included), and reports what
pydantic would refuse, in pydantic's words (`key: Input should be greater than 0`).

What the argv grammar already judged is left to it: argparse's types and `choices`, enum
flags, and the top-level keys of JSON flags (unknown keys, `Literal` values), which the flag
catalog lists too. Anything the data marks as rewritten by a validator, `SkipValidation`,
or checked under a condition that is not one flag, is never judged.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import cache
from typing import Any

from vllm_lint.argv.catalog import Catalog, FlagSpec, settings_path
from vllm_lint.effective.settings import Settings
from vllm_lint.model import Problem, Span, problem

_BOUNDS = (
    ("gt", "greater than", lambda v, b: v > b),
    ("ge", "greater than or equal to", lambda v, b: v >= b),
    ("lt", "less than", lambda v, b: v < b),
    ("le", "less than or equal to", lambda v, b: v <= b),
)


@cache
def validation_for(release: str) -> Mapping[str, Any] | None:
    """The mined validation of a catalogued release (read once, on the first launch that
    needs it), or None when the release has none."""
    from vllm_lint import release_data  # keyframes and differences (release_data.py)

    return release_data.load("validation", release)


def dash_keys(release: str, flag: str) -> bool:
    """Whether vLLM turns `-` into `_` in the top-level keys of this JSON flag before it
    builds its config (`--speculative-config` from 0.26: `k.replace("-", "_")`,
    EngineArgs.create_speculative_config, vllm/engine/arg_utils.py:2126 in 0.33)."""
    data = validation_for(release)
    return bool(data and data["json_flags"].get(flag, {}).get("dash_keys"))


class _Where:
    """Where a judged value is (a plain class: a dataclass costs the cold start ~0.5 ms)."""

    __slots__ = ("flag", "inside", "key", "owner", "path")

    def __init__(self, flag: str, path: str, key: str, owner: str, inside: bool = True) -> None:
        self.flag = flag  # the flag as vLLM names it
        self.path = path  # settings path of the value judged
        self.key = key  # pydantic's location: the key path inside the flag, or the field's name
        self.owner = owner  # Class.field, for the message
        self.inside = inside  # a key inside a JSON flag (else the flag's own value)

    @property
    def site(self) -> str:
        """The pydantic check that refuses the value, as rules name it in `preempts`."""
        return f"field:{self.owner}"

    @property
    def named(self) -> str:
        """The value as the grammar names it: `--max-loras`, `--compilation-config.mode`."""
        return f"{self.flag}.{self.key}" if self.inside else self.flag


def check(settings: Settings, cat: Catalog) -> list[Problem]:
    """What pydantic refuses among the values the launch wrote (defaults are never judged:
    pydantic does not validate them)."""
    data = validation_for(cat.release)
    if data is None:
        return []
    problems: list[Problem] = []
    judge = _Judge(settings, data, problems)
    flags, json_flags = _by_path(cat.release)
    written = {path.partition(".")[0] for path in settings.spans}
    for path in sorted(written & flags.keys()):
        for spec, target in flags[path]:
            if settings.is_opaque(path) or path not in settings.spans:
                continue
            if not _condition_holds(data["conditional"].get(spec.name), settings, cat):
                continue
            judge.flag(spec, target, path)
    for path in sorted(written & json_flags.keys()):
        spec, how = json_flags[path]
        value = settings.get(path)
        if not isinstance(value, dict) or settings.is_opaque(path):
            continue
        judge.json_flag(spec, how, path, value)
    _registered(settings, data.get("registries", {}), problems)
    return problems


def _registered(settings: Settings, registries: Mapping[str, Any], out: list[Problem]) -> None:
    """Names looked up in a registry of the release: a KV connector (KVConnectorFactory,
    "Unsupported connector type", factory.py:128 in 0.33) unless a module path names its class;
    a tool-call parser with --enable-auto-tool-choice and a reasoning parser
    (validate_api_server_args, "invalid tool call parser" / "invalid reasoning parser",
    entrypoints/common/cli_args.py:620/:629 in 0.33) unless a plugin may register more."""
    checks = (
        ("kv_connector", "kv_transfer_config.kv_connector", "--kv-transfer-config.kv_connector",
         "kv_transfer_config.kv_connector_module_path"),
        ("tool_call_parser", "tool_call_parser", "--tool-call-parser", "tool_parser_plugin"),
        ("reasoning_parser", "reasoning_parser", "--reasoning-parser", "reasoning_parser_plugin"),
        ("reasoning_parser", "structured_outputs_config.reasoning_parser",
         "--structured-outputs-config.reasoning_parser",
         "structured_outputs_config.reasoning_parser_plugin"),
    )  # fmt: skip
    for registry, path, flag, plugin in checks:
        known = registries.get(registry)
        name = settings.get(path)
        if known is None or not isinstance(name, str) or not name or name in known["names"]:
            continue
        if settings.get(plugin) or settings.is_opaque(path) or settings.is_opaque(plugin):
            continue
        if registry == "tool_call_parser" and settings.get("enable_auto_tool_choice") is not True:
            continue  # vLLM looks the parser up only for automatic tool choice
        span = settings.span(path)
        if span is None:
            continue
        choices = ", ".join(known["names"])
        if registry == "kv_connector":  # a plugin of the image may register it (VL024)
            import difflib

            close = difflib.get_close_matches(name, known["names"], n=1, cutoff=0.8)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            out.append(
                problem(
                    "VL024",
                    span,
                    settings.release,
                    site=f"registry:{registry}",
                    related=settings.holder(path),
                    value=name,
                    choices=choices,
                    hint=hint,
                )
            )
            continue
        out.append(
            problem(
                "VL005",
                span,
                settings.release,
                site=f"registry:{registry}",
                related=settings.holder(path),
                flag=flag,
                value=name,
                choices=choices,
            )
        )


_FlagIndex = tuple[
    dict[str, list[tuple[FlagSpec, str]]], dict[str, tuple[FlagSpec, Mapping[str, Any]]]
]


@cache
def _by_path(release: str) -> _FlagIndex:
    """The validated flags and JSON flags of a release by settings path, built once per
    release, so that a launch costs a look-up per value it writes, not one per flag."""
    from vllm_lint.argv.catalog import catalog_for

    cat = catalog_for(release)
    data = validation_for(release) or {"flags": {}, "json_flags": {}}
    flags: dict[str, list[tuple[FlagSpec, str]]] = {}
    for flag, target in data["flags"].items():
        spec = cat.flags.get(flag)
        if spec is not None and flag not in data["json_flags"]:
            flags.setdefault(settings_path(spec), []).append((spec, target))
    json_flags: dict[str, tuple[FlagSpec, Mapping[str, Any]]] = {}
    for flag, how in data["json_flags"].items():
        spec = cat.flags.get(flag)
        if spec is not None and how.get("validated", True):
            json_flags[settings_path(spec)] = (spec, how)
    return flags, json_flags


def _condition_holds(condition: str | None, settings: Settings, cat: Catalog) -> bool:
    """`conditional[F]`: the boolean flag without which vLLM never builds the class; an
    empty one is a condition that is not one flag (never judged)."""
    if condition is None:
        return True
    spec = cat.flags.get(condition)
    return spec is not None and settings.get(settings_path(spec)) is True


class _Judge:
    def __init__(self, settings: Settings, data: Mapping[str, Any], out: list[Problem]) -> None:
        self.settings = settings
        self.classes: Mapping[str, Any] = data["classes"]
        self.enums: Mapping[str, Any] = data["enums"]
        self.out = out

    # -- flags ------------------------------------------------------------------------------

    def flag(self, spec: FlagSpec, target: str, path: str) -> None:
        owner, _, name = target.partition(".")
        cls = self.classes.get(owner)
        if cls is None or cls.get("model_before") or not cls.get("pydantic", True):
            return
        rec = cls["fields"].get(name)
        value = self.settings.get(path)
        if rec is None or value is None or _unjudged(rec):
            return
        # argparse judged the type and its choices; enum flags are the grammar's (VL005)
        if spec.choices or spec.enum_match or spec.config_choices or spec.normalize:
            rec = {k: v for k, v in rec.items() if k not in ("values", "enum")}
        where = _Where(spec.name, path, name, target, inside=False)
        values = value if isinstance(value, list) and rec.get("type") != "list" else [value]
        for item in values:
            self._value(rec, item, where, typed=False)

    # -- JSON flags -------------------------------------------------------------------------

    def json_flag(self, spec: FlagSpec, how: Mapping[str, Any], path: str, value: dict) -> None:
        cls_name = how["class"]
        cls = self.classes.get(cls_name)
        if cls is None:
            return
        self._object(spec, cls_name, value, path, "", extra=how.get("extra", "ignore"), top=True)

    def _object(
        self,
        spec: FlagSpec,
        cls_name: str,
        value: Mapping[str, Any],
        path: str,
        prefix: str,
        extra: str,
        top: bool = False,
    ) -> None:
        cls = self.classes.get(cls_name)
        if cls is None or cls.get("model_before"):
            return
        fields: Mapping[str, Any] = cls["fields"]
        for key, item in value.items():
            loc = f"{prefix}{key}"
            rec = fields.get(key)
            where = _Where(spec.name, f"{path}.{key}", loc, f"{cls_name}.{key}")
            if rec is None or rec.get("init") is False:
                # the grammar reports the top-level keys the catalog lists (VL006/VL012)
                if not (top and spec.json_keys):
                    self._unknown(spec, where, extra, sorted(fields))
                continue
            if _unjudged(rec) or self.settings.is_opaque(where.path):
                continue
            if top and key in spec.json_literals:
                rec = {k: v for k, v in rec.items() if k != "values"}  # the grammar's VL005
            self._value(rec, item, where, typed=True, spec=spec, extra=extra)
        if cls.get("pydantic", True):
            for key, rec in fields.items():
                if rec.get("required") and key not in value and rec.get("init") is not False:
                    where = _Where(spec.name, path, f"{prefix}{key}", f"{cls_name}.{key}")
                    self._report(where, "Missing required argument", None)

    # -- one value --------------------------------------------------------------------------

    def _value(
        self,
        rec: Mapping[str, Any],
        value: Any,
        where: _Where,
        typed: bool,
        spec: FlagSpec | None = None,
        extra: str = "ignore",
    ) -> None:
        kind = rec.get("type")
        if not isinstance(kind, str):  # a union: only its bounds are judged
            kind = None
        if value is None:
            if typed and not rec.get("null") and kind in _TYPE_WORDS:
                self._report(where, f"Input should be {_TYPE_WORDS[kind]}", value)
            return
        if kind == "class" and isinstance(value, dict) and spec is not None:
            self._nested(rec, value, where, spec, extra)
            return
        if kind == "literal":
            self._literal(rec, value, where)
            return
        if kind == "enum":
            self._enum(rec, value, where)
            return
        if typed and kind in _TYPE_WORDS:
            converted = _lax(kind, value)
            if converted is _BAD:
                self._report(where, f"Input should be {_TYPE_WORDS[kind]}", value)
                return
            value = converted
        self._bounds(rec, value, where)

    def _nested(
        self,
        rec: Mapping[str, Any],
        value: Mapping[str, Any],
        where: _Where,
        spec: FlagSpec,
        extra: str,
    ) -> None:
        """A field whose type is a config class: validated as its parent is, with its own
        `extra` unless it is a stdlib dataclass (`inherit`); a before-validator that builds
        `N(**value)` validates it as N declares (a stdlib class then forbids unknown keys
        through the constructor's TypeError)."""
        child = self.classes.get(rec["class"])
        if child is None:
            return
        own = child.get("extra", "inherit")
        if rec.get("via") == "constructor":
            own = own if own != "inherit" else "forbid"
            if not child.get("pydantic", True):
                self._keys_only(spec, rec["class"], value, where, own)
                return
        elif own == "inherit":
            own = extra
        self._object(spec, rec["class"], value, where.path, f"{where.key}.", own)

    def _keys_only(
        self, spec: FlagSpec, cls_name: str, value: Mapping[str, Any], where: _Where, extra: str
    ) -> None:
        fields = self.classes[cls_name]["fields"]
        for key in value:
            rec = fields.get(key)
            if rec is None or rec.get("init") is False:
                owner = f"{cls_name}.{key}"
                inner = _Where(spec.name, f"{where.path}.{key}", f"{where.key}.{key}", owner)
                self._unknown(spec, inner, extra, sorted(fields))

    def _literal(self, rec: Mapping[str, Any], value: Any, where: _Where) -> None:
        allowed = list(rec.get("values", ()))
        if not allowed or any(type(value) is type(v) and value == v for v in allowed):
            return
        if not any(type(value) is type(v) for v in allowed):
            return  # lax mode may convert it: not judged
        self._choice(where, value, _either(allowed))

    def _enum(self, rec: Mapping[str, Any], value: Any, where: _Where) -> None:
        enum = self.enums.get(rec.get("enum", ""), {})
        if rec.get("match") == "name_upper" and isinstance(value, str):
            names = enum.get("names", ())
            if value.upper() in names or value in rec.get("extra_words", {}):
                return
            self._choice(where, value, f"{', '.join(names)} (any case)")
            return
        members = enum.get("values")
        if not members or any(type(value) is type(v) and value == v for v in members):
            return
        if any(type(value) is type(v) for v in members):
            self._choice(where, value, _either(members))

    def _bounds(self, rec: Mapping[str, Any], value: Any, where: _Where) -> None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if isinstance(value, float) and math.isnan(value):
                return
            for key, words, holds in _BOUNDS:
                if key in rec and not holds(value, rec[key]):
                    self._report(where, f"Input should be {words} {_number(rec[key])}", value)
                    return
            step = rec.get("multiple_of")
            if step and value % step:
                self._report(where, f"Input should be a multiple of {_number(step)}", value)
        elif isinstance(value, (list, str, dict)):
            what = "String" if isinstance(value, str) else _KIND_NAME[type(value)]
            unit = "character" if isinstance(value, str) else "item"
            least, most = rec.get("min_length"), rec.get("max_length")
            if least is not None and len(value) < least:
                self._report(where, f"{what} should have at least {least} {unit}{_s(least)}", value)
            elif most is not None and len(value) > most:
                self._report(where, f"{what} should have at most {most} {unit}{_s(most)}", value)

    # -- problems ---------------------------------------------------------------------------

    def _unknown(self, spec: FlagSpec, where: _Where, extra: str, keys: list[str]) -> None:
        import difflib

        name = where.key.rpartition(".")[2]
        close = difflib.get_close_matches(name, keys, n=1, cutoff=0.75)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        rule = "VL006" if extra == "forbid" else "VL012"
        span = self._span(where.path)
        self.out.append(
            problem(
                rule,
                span,
                self.settings.release,
                site=where.site,
                related=self.settings.holder(where.path),
                flag=spec.name,
                key=where.key,
                hint=hint,
            )
        )

    def _choice(self, where: _Where, value: Any, choices: str) -> None:
        """VL005, as the grammar names a key of a JSON flag: `--compilation-config.mode`."""
        self.out.append(
            problem(
                "VL005",
                self._span(where.path),
                self.settings.release,
                site=where.site,
                related=self.settings.holder(where.path),
                flag=where.named,
                value=value,
                choices=choices,
            )
        )

    def _report(self, where: _Where, said: str, value: Any) -> None:
        shown = value if isinstance(value, str) else json.dumps(value)
        self.out.append(
            problem(
                "VL014",
                self._span(where.path),
                self.settings.release,
                site=where.site,
                related=self.settings.holder(where.path),
                what=where.flag if not where.inside else f"{where.flag} {where.key}",
                key=where.key,
                value=shown,
                error=said,
                field=where.owner,
            )
        )

    def _span(self, path: str) -> Span:
        span = self.settings.span(path)
        assert span is not None  # only written values are judged
        return span


def _unjudged(rec: Mapping[str, Any]) -> bool:
    """A before/wrap validator may rewrite the value, or pydantic skips it."""
    return bool(rec.get("rewritten") or rec.get("skip"))


_TYPE_WORDS = {
    "int": "a valid integer",
    "float": "a valid number",
    "bool": "a valid boolean",
    "str": "a valid string",
}
_KIND_NAME = {list: "List", dict: "Dictionary"}
_BAD: Any = object()
_TRUE = {"1", "on", "t", "true", "y", "yes"}
_FALSE = {"0", "off", "f", "false", "n", "no"}


def _lax(kind: str, value: Any) -> Any:
    """The value as pydantic's lax mode converts it for a field of `kind`, or _BAD."""
    if kind == "str":
        return value if isinstance(value, str) else _BAD
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        return _BAD
    if isinstance(value, bool):
        return int(value)
    if kind == "int":
        if isinstance(value, int):
            return value
        if isinstance(value, float):
            return int(value) if value.is_integer() else _BAD
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                return _BAD
        return _BAD
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return _BAD
    return _BAD


def _either(values: list[Any]) -> str:
    """pydantic's list of expected values: `'a', 'b' or 'c'`."""
    shown = [repr(v) if isinstance(v, str) else json.dumps(v) for v in values]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _number(bound: Any) -> str:
    """A bound as pydantic prints it: JSON gives 0 for `gt=0` and 0.0 for `ge=0.0`."""
    return str(bound)


def _s(count: int) -> str:
    return "" if count == 1 else "s"
