"""vLLM's `serve` argv grammar for one release: tokens in, effective settings out.

Mirrors what vLLM's FlexibleArgumentParser and argparse do (see
shared/reference/vllm-flags.md §1): `--flag value`, `--flag=value`, `_` for `-` in the key,
short aliases, booleans and their negations, JSON values, dotted JSON keys
(`--speculative-config.num_speculative_tokens 3`), the `--spec-*` shortcuts, `-O3`, the
positional model. Problems a parser or a type check would stop at become findings here.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import flag_history
from .catalog import Catalog, FlagSpec
from .model import Finding, ReleaseChoice, Span, Token
from .rules import flag_finding
from .settings import Settings

_NUMBER = re.compile(r"-\d+(\.\d+)?([eE][-+]?\d+)?")
_HUMAN_INT = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT]i?)?")
_HUMAN_FACTORS = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
# Flags whose value belongs to a key of a JSON flag (vLLM 0.25+ `--spec-*` shortcuts).
_PARENT_OF_CLASS = {"SpeculativeConfig": "speculative_config"}


def dest(flag: str) -> str:
    """`--max-model-len` → `max_model_len`: the document key of a flag."""
    return flag.lstrip("-").replace("-", "_")


def _merge_span(first: Span, last: Span) -> Span:
    if first.path != last.path or (last.line, last.col) < (first.line, first.col):
        return first
    return Span(first.path, first.line, first.col, last.end_line, last.end_col)


@dataclass
class ParsedArgs:
    settings: Settings
    findings: list[Finding] = field(default_factory=list)
    model: Token | None = None
    config_files: list[Token] = field(default_factory=list)


class ArgvParser:
    def __init__(self, cat: Catalog, release: ReleaseChoice) -> None:
        self.cat = cat
        self.release = release

    def parse(self, tokens: Sequence[Token], into: Settings | None = None) -> ParsedArgs:
        result = ParsedArgs(into if into is not None else Settings(self.release))
        i = 0
        while i < len(tokens):
            i = self._one(tokens, i, result)
        return result

    # -- one option -----------------------------------------------------------------------

    def _one(self, tokens: Sequence[Token], i: int, out: ParsedArgs) -> int:
        tok = tokens[i]
        text = tok.text
        if not text.startswith("-") or text == "-" or _NUMBER.fullmatch(text) or tok.opaque:
            if not tok.opaque and out.model is None and not text.startswith("-"):
                out.model = tok
                out.settings.set("model", text, tok.span)
            return i + 1
        if text == "--":
            return len(tokens)
        name, has_inline, inline = text.partition("=")
        if re.fullmatch(r"-O\S*", name) and self.cat.resolve("-O") is None:
            return self._optimization_level(tokens, i, name, has_inline, inline, out)
        key, dot, subkey = name.partition(".")
        resolved = self.cat.resolve(key)
        if resolved is None:
            spec = self.cat.abbreviation(key)
            if spec is None:
                out.findings.append(self._unknown(key, tok))
                # skip a value that plainly belongs to the unknown flag
                nxt = i + 1
                if not has_inline and nxt < len(tokens) and not tokens[nxt].text.startswith("-"):
                    return nxt + 1 if out.model is not None else nxt
                return i + 1
            out.findings.append(
                flag_finding("VL008", tok.span, self.release, written=key, flag=spec.name)
            )
            resolved = (spec, False if spec.is_bool else None)
        spec, negated = resolved
        if spec.deprecated:
            note = spec.deprecated if isinstance(spec.deprecated, str) else ""
            out.findings.append(flag_finding("VL003", tok.span, self.release, flag=key, note=note))
        if spec.name == "--config":
            return self._value_flag(tokens, i, spec, has_inline, inline, out, config=True)
        if dot:
            return self._dotted(tokens, i, spec, subkey, has_inline, inline, out)
        if spec.is_bool and spec.nargs is None:
            if has_inline:
                value = _parse_bool(inline)
                if value is None:
                    out.findings.append(
                        flag_finding(
                            "VL004",
                            tok.span,
                            self.release,
                            flag=key,
                            value=inline,
                            expected="no value (it is a switch)",
                        )
                    )
                    return i + 1
                self._store(spec, value != bool(negated), tok.span, out)
            else:
                self._store(spec, not negated, tok.span, out)
            return i + 1
        return self._value_flag(tokens, i, spec, has_inline, inline, out)

    def _value_flag(
        self,
        tokens: Sequence[Token],
        i: int,
        spec: FlagSpec,
        has_inline: str,
        inline: str,
        out: ParsedArgs,
        config: bool = False,
    ) -> int:
        tok = tokens[i]
        if has_inline:
            values = [Token(inline, tok.span, tok.opaque)]
            nxt = i + 1
        else:
            values, nxt = self._take_values(tokens, i + 1, spec.nargs)
        if not values:
            if spec.nargs in ("?", "*"):
                self._store(spec, True if spec.is_bool else None, tok.span, out)
                return nxt
            out.findings.append(flag_finding("VL009", tok.span, self.release, flag=spec.name))
            return nxt
        span = _merge_span(tok.span, values[-1].span)
        if any(v.opaque for v in values):
            out.settings.set(self.path_of(spec), "<opaque>", span)
            out.settings.opaque.add(self.path_of(spec))
            return nxt
        if config:
            out.config_files.append(values[0])
            return nxt
        if spec.nargs in ("+", "*"):
            converted = [self._convert(spec, v, out) for v in values]
            if all(c is not _BAD for c in converted):
                self._store(spec, converted, span, out)
        else:
            value = self._convert(spec, values[0], out)
            if value is not _BAD:
                self._store(spec, value, span, out)
        return nxt

    def _take_values(
        self, tokens: Sequence[Token], i: int, nargs: str | None
    ) -> tuple[list[Token], int]:
        def is_value(t: Token) -> bool:
            return not t.text.startswith("-") or bool(_NUMBER.fullmatch(t.text)) or t.text == "-"

        if nargs is None:
            if i < len(tokens) and (is_value(tokens[i]) or tokens[i].text.startswith("-{")):
                return [tokens[i]], i + 1
            if i < len(tokens) and tokens[i].opaque:
                return [tokens[i]], i + 1
            return [], i
        if nargs == "?":
            if i < len(tokens) and is_value(tokens[i]):
                return [tokens[i]], i + 1
            return [], i
        values = []
        while i < len(tokens) and is_value(tokens[i]):
            values.append(tokens[i])
            i += 1
        return values, i

    def _dotted(
        self,
        tokens: Sequence[Token],
        i: int,
        spec: FlagSpec,
        subkey: str,
        has_inline: str,
        inline: str,
        out: ParsedArgs,
    ) -> int:
        tok = tokens[i]
        if has_inline:
            raw, nxt, span = inline, i + 1, tok.span
        elif i + 1 < len(tokens):
            raw, nxt, span = tokens[i + 1].text, i + 2, _merge_span(tok.span, tokens[i + 1].span)
        else:
            out.findings.append(flag_finding("VL009", tok.span, self.release, flag=tok.text))
            return i + 1
        append = subkey.endswith("+")
        subkey = subkey.rstrip("+")
        path = f"{self.path_of(spec)}.{subkey}"
        value = _json_scalar(raw)
        if append:
            existing = out.settings.get(path)
            items = existing if isinstance(existing, list) else []
            value = items + (raw.split(",") if isinstance(value, str) else [value])
        if spec.json_keys and subkey.split(".")[0] not in spec.json_keys:
            out.findings.append(self._unknown_key(spec, subkey.split(".")[0], tok.span))
        out.settings.set(path, value, span)
        return nxt

    def _optimization_level(
        self,
        tokens: Sequence[Token],
        i: int,
        name: str,
        has_inline: str,
        inline: str,
        out: ParsedArgs,
    ) -> int:
        spec = self.cat.flags.get("--optimization-level")
        tok = tokens[i]
        if spec is None:
            out.findings.append(self._unknown(name, tok))
            return i + 1
        rest = name[2:]
        if rest:
            fake = Token(f"--optimization-level={rest}", tok.span)
            return self._one([*tokens[:i], fake, *tokens[i + 1 :]], i, out)
        if has_inline:
            fake = Token(f"--optimization-level={inline}", tok.span)
            return self._one([*tokens[:i], fake, *tokens[i + 1 :]], i, out)
        return self._value_flag(tokens, i, spec, "", "", out)

    # -- values -----------------------------------------------------------------------------

    def path_of(self, spec: FlagSpec) -> str:
        if spec.config_field:
            owner, _, fieldname = spec.config_field.partition(".")
            parent = _PARENT_OF_CLASS.get(owner)
            if parent is not None and dest(spec.name) != parent:
                return f"{parent}.{fieldname}"
        return dest(spec.name)

    def _store(self, spec: FlagSpec, value: Any, span: Span, out: ParsedArgs) -> None:
        path = self.path_of(spec)
        current = out.settings.get(path)
        if (
            isinstance(value, dict)
            and isinstance(current, dict)
            and path not in out.settings.defaulted
        ):
            value = {**current, **value}  # dotted keys given earlier are kept
        out.settings.set(path, value, span)

    def _convert(self, spec: FlagSpec, tok: Token, out: ParsedArgs) -> Any:
        raw = tok.text
        kind = spec.type or "str"
        if kind == "json" or spec.json_keys:
            return self._json_value(spec, tok, out)
        value: Any = raw
        expected = ""
        if spec.nullable and raw in ("None", ""):
            return None
        if kind == "custom":
            return raw  # a parser the catalog cannot replay: never judged
        if "int" in kind or kind == "port":
            value, expected = (
                _parse_int(raw, human=kind in ("human_int", "int_or_auto"), auto="auto" in kind),
                "an integer",
            )
        elif kind == "float":
            try:
                value = float(raw)
            except ValueError:
                value, expected = _BAD, "a number"
        elif kind == "bool":
            parsed = _parse_bool(raw)
            value, expected = (_BAD, "true or false") if parsed is None else (parsed, "")
        if value is _BAD:
            out.findings.append(
                flag_finding(
                    "VL004",
                    tok.span,
                    self.release,
                    flag=spec.name,
                    value=raw,
                    expected=expected or kind,
                )
            )
            return _BAD
        allowed = _allowed_values(spec)
        if allowed is not None and str(value) not in allowed and raw not in allowed:
            out.findings.append(
                flag_finding(
                    "VL005",
                    tok.span,
                    self.release,
                    flag=spec.name,
                    value=raw,
                    choices=", ".join(sorted(allowed)),
                )
            )
            return _BAD
        return value

    def _json_value(self, spec: FlagSpec, tok: Token, out: ParsedArgs) -> Any:
        try:
            value = json.loads(tok.text)
        except ValueError as exc:
            if spec.type != "json":  # `dict | str` flags also take plain strings
                return tok.text
            out.findings.append(
                flag_finding("VL007", tok.span, self.release, flag=spec.name, error=str(exc))
            )
            return _BAD
        if isinstance(value, dict) and spec.json_keys:
            for key in value:
                if key not in spec.json_keys:
                    out.findings.append(self._unknown_key(spec, key, tok.span))
        return value

    # -- findings ---------------------------------------------------------------------------

    def _unknown(self, written: str, tok: Token) -> Finding:
        names = list(self.cat.flags)
        close = difflib.get_close_matches(written.replace("_", "-"), names, n=1, cutoff=0.75)
        hint = f"; did you mean {close[0]}?" if close else ""
        history = flag_history.describe(written.replace("_", "-"), self.release.version)
        return flag_finding(
            "VL001",
            tok.span,
            self.release,
            flag=written,
            hint=hint + (f" ({history})" if history else ""),
        )

    def _unknown_key(self, spec: FlagSpec, key: str, span: Span) -> Finding:
        keys = list(spec.json_keys or ())
        close = difflib.get_close_matches(key, keys, n=1, cutoff=0.75)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return flag_finding("VL006", span, self.release, flag=spec.name, key=key, hint=hint)


class _Bad:
    def __repr__(self) -> str:
        return "<bad value>"


_BAD: Any = _Bad()


def _allowed_values(spec: FlagSpec) -> set[str] | None:
    if spec.choices:
        return {str(c) for c in spec.choices if c is not None}
    return None


def _parse_bool(raw: str) -> bool | None:
    lowered = raw.lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no"):
        return False
    return None


def _parse_int(raw: str, human: bool, auto: bool) -> Any:
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
            return int(float(match.group(1)) * factor)
    return _BAD


def _json_scalar(raw: str) -> Any:
    """Dotted-key values are JSON-decoded when they can be, else kept as strings (as vLLM does)."""
    try:
        return json.loads(raw)
    except ValueError:
        return raw
