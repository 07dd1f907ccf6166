"""vLLM's `serve` argv grammar for one release: tokens in, effective settings out.

Mirrors what vLLM's FlexibleArgumentParser and argparse do: `--flag value`, `--flag=value`,
`_` for `-` in the key, short aliases, booleans and their negations, JSON values, dotted JSON keys
(`--speculative-config.num_speculative_tokens 3`), the `--spec-*` shortcuts, `-O3`, the
positional model. Problems a parser or a type check would stop at are reported here.
"""

from __future__ import annotations

import copy
import difflib
import re
from collections.abc import MutableMapping, Sequence
from typing import Any

from vllm_lint import release as versions
from vllm_lint.argv import fixes
from vllm_lint.argv import history as flag_history
from vllm_lint.argv.catalog import Catalog, FlagSpec, catalog_for, settings_path
from vllm_lint.argv.json_flags import (
    MAX_JSON_DEPTH,
    JsonFlag,
    JsonValue,
    dict_update,
    is_json,
    json_scalar,
    nested,
)
from vllm_lint.argv.json_flags import loads as json_loads
from vllm_lint.argv.values import (
    BAD,
    JSON_OBJECT,
    allowed_values,
    enum_accepts,
    enum_choices,
    normalized,
    parse_bool,
    parse_int,
    parse_kvs,
)
from vllm_lint.effective.settings import Settings
from vllm_lint.model import Autofix, Problem, Related, ReleaseChoice, Span, Token, problem

_NUMBER = re.compile(r"-\d+(\.\d+)?([eE][-+]?\d+)?")
# JSON flags whose argparse type is `json.loads` alone (and the release that made it so):
# their keys are judged once, when vLLM builds the config from the value that won, so a
# value given earlier and replaced is never judged (vllm/engine/arg_utils.py:829 in 0.9.2,
# `type=json.loads`; `vllm_kwargs["speculative_config"]["type"] = optional_type(json.loads)`
# :1614 in 0.28, :1791 in 0.31, :1864 in 0.33, :1895 in 0.34; diffusion_config from 0.24
# (:1506), watermark_config from 0.30 (:1706)). Every other JSON flag is a config dataclass
# whose type is `TypeAdapter(cls).validate_json` (parse_dataclass, :337 in 0.28, :369 in
# 0.33): argparse runs it on every occurrence, so a replaced value is still refused.
_JUDGED_WHEN_BUILT = {
    "speculative_config": "0.0.0",
    "diffusion_config": "0.24.0",
    "watermark_config": "0.30.0",
}


def _merge_span(first: Span, last: Span) -> Span:
    if first.path != last.path or (last.line, last.col) < (first.line, first.col):
        return first
    return Span(first.path, first.line, first.col, last.end_line, last.end_col)


class ParsedArgs:
    """What one command line set, and the problems met reading it."""

    __slots__ = ("config_files", "model", "problems", "settings")

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.problems: list[Problem] = []
        self.model: Token | None = None
        self.config_files: list[Token] = []


class ArgvParser:
    def __init__(
        self,
        cat: Catalog,
        release: ReleaseChoice,
        deployed: str | None = None,
        hints: MutableMapping[tuple[str, ...], Any] | None = None,  # the run's (Options.hints)
    ) -> None:
        self.cat = cat
        self.release = release
        self._hints: MutableMapping[tuple[str, ...], Any] = {} if hints is None else hints
        # the release the launch deploys when --vllm-version forces another: what an
        # abbreviation meant there is what a fix writes in full (argv/fixes.py)
        self.deployed = deployed
        # a launch through the Python API (`LLM(...)`): no argparse judges its keywords
        self.python_api = False
        self._reset()

    def _reset(self) -> None:
        # what the --config file and the command line wrote, for vLLM joins both into one
        # argv: the values of each JSON flag, the `--spec-*` shortcuts (the key of
        # --speculative-config each sets -> flag, value, where), the VL013 keys reported
        self._json: dict[str, JsonFlag] = {}
        self._spec_shortcuts: dict[str, tuple[str, Any, Span]] = {}
        self._spec_reported: set[str] = set()
        self._line_cache: tuple[Sequence[Token], set[str]] | None = None

    def parse(self, tokens: Sequence[Token], into: Settings | None = None) -> ParsedArgs:
        """Parse `tokens` into `into` (the --config file's argv first, then the command
        line's, into the same settings), or into new settings (a new argv)."""
        if into is None:
            self._reset()
        result = ParsedArgs(into if into is not None else Settings(self.release))
        self._stored: dict[str, tuple[str, Any, Span]] = {}  # path -> (as written, value, span)
        i = 0
        while i < len(tokens):
            i = self._one(tokens, i, result)
        self._settle(result)
        return result

    # -- one option -----------------------------------------------------------------------

    def _one(self, tokens: Sequence[Token], i: int, out: ParsedArgs) -> int:
        tok = tokens[i]
        text = tok.text
        if not text.startswith("-") or text == "-" or _NUMBER.fullmatch(text) or tok.opaque:
            if tok.opaque:
                if out.model is None and not text.startswith("-"):
                    out.model = tok  # `$(MODEL)`: the model, whatever it is
                else:  # `$EXTRA_ARGS`: flags nobody can read may override any default
                    out.settings.partial = True
                return i + 1
            if out.model is None:
                if not text.startswith("-"):
                    out.model = tok
                    out.settings.set("model", text, tok.span)
            else:  # argparse has one positional (the model): the rest is refused
                out.problems.append(
                    problem("VL011", tok.span, self.release, word=text, model=out.model.text)
                )
            return i + 1
        if text == "--":
            return len(tokens)
        name, has_inline, inline = text.partition("=")
        if re.fullmatch(r"-O\S*", name) and self.cat.resolve("-O") is None:
            return self._optimization_level(tokens, i, name, has_inline, inline, out)
        if self.cat.features.get("dotted_json_keys", True):
            key, dot, subkey = name.partition(".")
        else:  # before 0.9 vLLM does not split `--json-flag.key`: argparse sees one option
            key, dot, subkey = name, "", ""
        resolved = self.cat.resolve(key)
        if resolved is None:
            matches = self.cat.prefix_matches(key)
            if len(matches) > 1:
                nxt = self._skip_value(tokens, i, has_inline, out)
                out.problems.append(self._ambiguous(key, matches, tokens, i, nxt, inline))
                return nxt
            spec = self.cat.abbreviation(key) if matches else None
            gone = flag_history.removal(key)
            if gone is not None and gone[0].predates(self.release.version):
                gone = None  # the release is older than the flag: simply unknown there
            if gone is not None and (spec is None or gone[0].applies_to(self.release.version)):
                # a removed flag; argparse may read it as the abbreviation of a newer one
                # (0.28.0 oracle: `--device cuda` -> --device-ids "Non-integer device ID")
                misread = f"; vLLM {self.release.version} reads it as {spec.name}" if spec else ""
                return self._removed(tokens, i, key, gone, has_inline, inline, out, misread)
            if spec is None:
                out.problems.extend(self._unknown(key, tok))
                return self._skip_value(tokens, i, has_inline, out)
            option = matches[0]  # the option string argparse matched (maybe a negation)
            fix = fixes.abbreviation(tok, key, option)
            out.problems.append(
                problem("VL008", tok.span, self.release, fix, written=key, flag=option)
            )
            resolved = self.cat.resolve(option)
            assert resolved is not None  # prefix_matches lists the catalog's option strings
        spec, negated = resolved
        deprecated = len(out.problems) if spec.deprecated else -1
        if spec.deprecated:
            out.problems.append(self._deprecated(key, spec, tok))
        if spec.name == "--config":
            nxt = self._value_flag(tokens, i, spec, has_inline, inline, out, config=True)
        elif dot:
            nxt = self._dotted(tokens, i, spec, subkey, has_inline, inline, out)
        elif spec.is_bool and spec.nargs is None:
            nxt = self._switch(tokens, i, key, spec, bool(negated), has_inline, inline, out)
        else:
            nxt = self._value_flag(tokens, i, spec, has_inline, inline, out)
        if deprecated >= 0 and not dot:
            fix = self._deprecated_fix(spec, tokens, i, nxt, key, inline, bool(negated))
            if fix is not None:
                out.problems[deprecated] = out.problems[deprecated]._replace(autofix=fix)
        return nxt

    def _switch(
        self,
        tokens: Sequence[Token],
        i: int,
        key: str,
        spec: FlagSpec,
        negated: bool,
        has_inline: str,
        inline: str,
        out: ParsedArgs,
    ) -> int:
        """A flag that takes no value. argparse refuses `--switch=x` ("ignored explicit
        argument"), and a `true`/`false` word after it is a stray positional ("unrecognized
        arguments"); vLLM 0.33.0 rejects both (checked against vLLM 0.33.0's own parser)."""
        tok = tokens[i]
        if has_inline:
            out.problems.append(self._switch_value(key, spec, inline, tok.span))
            return i + 1
        self._store(spec, not negated, tok.span, out)
        nxt = i + 1
        if nxt < len(tokens) and not tokens[nxt].opaque:
            word = tokens[nxt].text
            if parse_bool(word) is not None:
                out.problems.append(self._switch_value(key, spec, word, tokens[nxt].span))
                return nxt + 1
        return nxt

    def _switch_value(self, key: str, spec: FlagSpec, value: str, span: Span) -> Problem:
        off = next((n for n in spec.negations if n.startswith("--no-")), None)
        off = off or (spec.negations[0] if spec.negations else None)
        how = f"write {spec.name} alone, or {off} to turn it off" if off else f"write {key} alone"
        return problem(
            "VL004",
            span,
            self.release,
            flag=key,
            value=value,
            expected=f"no value (it is a switch: {how})",
        )

    def _skip_value(self, tokens: Sequence[Token], i: int, has_inline: str, out: ParsedArgs) -> int:
        """After a flag that could not be resolved: skip a value that plainly belongs to it."""
        nxt = i + 1
        if not has_inline and nxt < len(tokens) and not tokens[nxt].text.startswith("-"):
            return nxt + 1 if out.model is not None else nxt
        return i + 1

    def _removed(
        self,
        tokens: Sequence[Token],
        i: int,
        key: str,
        gone: tuple[flag_history.Removal, bool],
        has_inline: str,
        inline: str,
        out: ParsedArgs,
        note: str = "",
    ) -> int:
        """A flag of the removed/renamed table that the target's catalog lacks."""
        row, negated = gone
        tok = tokens[i]
        nxt = i + 1
        value: str | None = inline if has_inline else None
        takes = "none" if negated else row.value
        if not has_inline and takes != "none":
            values, nxt = self._take_values(
                tokens, i + 1, {"one": None, "optional": "?", "many": "+"}[takes]
            )
            if values:
                opaque = any(v.opaque for v in values)
                value = None if opaque else " ".join(v.text for v in values)
        if not row.applies_to(self.release.version):
            return nxt  # the release still had it (a patch older than the catalogued one)
        fix, why = fixes.removal(
            row, tokens[i:nxt], key, value, negated, self.cat, self._written(tokens)
        )
        replacement = flag_history.replacement_text(row, value, self.cat, negated) + note
        why = "" if why in replacement else why  # the message says it already
        found = problem(
            "VL002",
            tok.span,
            self.release,
            fix,
            flag=key,
            removed_in=row.removed_in,
            last_in=row.last_in,
            replacement=replacement,
        )
        out.problems.append(found._replace(unfixable=why) if why else found)
        return nxt

    def _written(self, tokens: Sequence[Token]) -> frozenset[str]:
        """The flags the launch writes, on its command line or in its --config file (read
        first): `--flag` for a whole value, `--flag.` for a dotted key. A fix must not write
        a flag the launch already writes (argparse keeps the last; a dotted key replaces the
        whole JSON value)."""
        written = {
            name for path, flag in self._json.items() for name in self._json_names(path, flag)
        }
        return frozenset(written | self._written_on_line(tokens))

    def _written_on_line(self, tokens: Sequence[Token]) -> set[str]:
        """The flags of `tokens`, resolved once per argv (a launch with hundreds of removed
        flags asks for every one of them: quadratic without this)."""
        if self._line_cache is not None and self._line_cache[0] is tokens:
            return self._line_cache[1]
        written: set[str] = set()
        for tok in tokens:
            name = tok.text.partition("=")[0]
            if not name.startswith("-") or tok.opaque:
                continue
            key, dot, _sub = name.partition(".")
            resolved = self.cat.resolve(key)
            if resolved is None:
                spec = self.cat.abbreviation(key)
                resolved = (spec, None) if spec is not None else None
            if resolved is not None:
                written.add(resolved[0].name + dot)
        self._line_cache = (tokens, written)
        return written

    def _json_names(self, path: str, flag: JsonFlag) -> list[str]:
        spec = next((s for s in self.cat.flags.values() if settings_path(s) == path), None)
        if spec is None:
            return []
        return [spec.name] * (flag.full is not None) + [spec.name + "."] * bool(flag.dotted)

    def _deprecated_fix(
        self,
        spec: FlagSpec,
        tokens: Sequence[Token],
        i: int,
        nxt: int,
        written: str,
        inline: str,
        negated: bool,
    ) -> Autofix | None:
        """A deprecated flag with a row in the removed/renamed table: its replacement, when
        this release has it (the fix is the one the removal will need)."""
        gone = flag_history.removal(spec.name)
        if gone is None or not gone[0].removed_in:
            return None
        words = tokens[i:nxt]
        values = [w.text for w in words[1:]]
        value = inline if "=" in words[0].text else (" ".join(values) if values else None)
        fix, _why = fixes.removal(
            gone[0],
            words,
            written,
            value,
            negated,
            self.cat,
            self._written(tokens),
            still_accepted=True,
        )
        return fix

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
            out.problems.append(problem("VL009", tok.span, self.release, flag=spec.name))
            return nxt
        span = _merge_span(tok.span, values[-1].span)
        if any(v.opaque for v in values):
            path = settings_path(spec)
            shortcut = self._shortcut_key(spec)
            if is_json(spec) and not config:
                self._json.setdefault(path, JsonFlag()).full = JsonValue(
                    "<opaque>", span, opaque=True
                )
            elif shortcut is not None:
                self._spec_shortcuts[shortcut] = (spec.name, _OPAQUE, span)
            else:
                out.settings.set(path, "<opaque>", span)
                out.settings.opaque.add(path)
            return nxt
        if config:
            out.config_files.append(values[0])
            return nxt
        if spec.nargs in ("+", "*"):
            converted = [self._convert(spec, v, out) for v in values]
            if all(c is not BAD for c in converted):
                self._store(spec, converted, span, out)
        else:
            mark = len(out.problems)
            value = self._convert(spec, values[0], out)
            if value is not BAD:
                held: list[Problem] = []
                if is_json(spec) and self._judged_when_built(spec):
                    # the keys of a value a later one replaces are never judged: held
                    # until the end (VL007, a value json.loads refuses, is not held)
                    held = out.problems[mark:]
                    del out.problems[mark:]
                self._store(spec, value, span, out, held, values[0].parts)
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
            out.problems.append(problem("VL009", tok.span, self.release, flag=tok.text))
            return i + 1
        append = subkey.endswith("+")
        subkey = subkey.rstrip("+")
        if subkey.count(".") >= MAX_JSON_DEPTH:  # each dot nests one more object
            error = f"dotted keys nested more than {MAX_JSON_DEPTH} levels deep"
            found = problem("VL007", tok.span, self.release, flag=spec.name, error=error)
            out.problems.append(found)
            return nxt
        flag_path = settings_path(spec)
        # `--x.key+ a,b` is the list ["a", "b"] (json.dumps(value_str.split(","))), merged
        # into what the other dotted keys of the same written name built
        # (FlexibleArgumentParser.parse_args, vllm/utils/argparse_utils.py:399-416 in 0.28)
        value = raw.split(",") if append else json_scalar(raw)
        written = tok.text.partition("=")[0].partition(".")[0]
        if written.startswith("--"):
            written = written.replace("_", "-")
        group = self._json.setdefault(flag_path, JsonFlag()).dotted.setdefault(
            written, JsonValue({}, None)
        )
        dict_update(group.value, nested(subkey.split("."), value))
        group.spans[f"{flag_path}.{subkey}"] = span
        sink = group.held if self._judged_when_built(spec) else out.problems
        top = subkey.split(".")[0]
        known = self._known_key(spec, top) if spec.json_keys else top
        if known is None:
            sink.append(self._unknown_key(spec, top, tok.span))
        elif "." not in subkey and not append:
            before = len(out.problems)
            self._check_literal(spec, known, value, span, out)
            if sink is not out.problems:
                sink += out.problems[before:]
                del out.problems[before:]
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
            out.problems.extend(self._unknown(name, tok))
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

    def _shortcut_key(self, spec: FlagSpec) -> str | None:
        """The key of --speculative-config a `--spec-*` shortcut sets (vLLM 0.22+)."""
        path = settings_path(spec)
        if path.startswith("speculative_config.") and spec.name.startswith("--spec-"):
            return path.partition(".")[2]
        return None

    def _judged_when_built(self, spec: FlagSpec) -> bool:
        since = _JUDGED_WHEN_BUILT.get(settings_path(spec))
        if since is None:
            return False
        try:
            return versions.key(self.release.version) >= versions.key(since)
        except ValueError:
            return True

    def _store(
        self,
        spec: FlagSpec,
        value: Any,
        span: Span,
        out: ParsedArgs,
        held: Sequence[Problem] = (),
        parts: Sequence[tuple[str, Span]] = (),
    ) -> None:
        shortcut = self._shortcut_key(spec)
        if shortcut is not None:
            if value is not None:  # argparse keeps the last; vLLM skips None
                self._spec_shortcuts[shortcut] = (spec.name, value, span)
            return
        path = settings_path(spec)
        if is_json(spec):  # argparse keeps the last full value; dotted keys: see _settle
            full = JsonValue(value, span, held=list(held))
            full.spans = {f"{path}.{key}": where for key, where in parts}  # each key's place
            self._json.setdefault(path, JsonFlag()).full = full
            return
        earlier = self._stored.get(path)
        if earlier is not None and earlier[1] != value and spec.action is None:
            # argparse keeps the last value: the first one has no effect (VL022)
            out.problems.append(
                problem("VL022", earlier[2], self.release, flag=earlier[0], value=earlier[1])
            )
        self._stored[path] = (spec.name, value, span)
        out.settings.set(path, value, span)

    def _settle(self, out: ParsedArgs) -> None:
        """Each JSON flag's value as vLLM sees it. argparse keeps the last full value
        (`--x '{..}' --x '{..}'`: the first is gone). FlexibleArgumentParser.parse_args turns
        the dotted keys written with one flag name into one object and appends it, as
        `--x '{..}'`, after every other argument: it replaces any full value, given before
        or after (vllm/utils/argparse_utils.py:441-502 in 0.33 and 0.34, :399-460 in 0.31,
        :387-448 in 0.30, :368-429 in 0.28, the same code since 0.9.2, vllm/utils/__init__.py:
        1549-1594; 0.9.0 vllm/utils.py:1449-1475; oracle 0.34.0: `--speculative-config.method ngram
        --speculative-config.num_speculative_tokens 3 --speculative-config '{.., "bogus_key":
        1}'` accepted). Names written differently (`-sc.x`, `--speculative-config.y`) make one
        object each, appended in the order each first appears: the last one wins. The
        `--spec-*` shortcuts are then added to --speculative-config's keys
        (EngineArgs.create_speculative_config, vllm/engine/arg_utils.py:2108 in 0.33)."""
        paths = list(self._json)
        if self._spec_shortcuts and "speculative_config" not in self._json:
            paths.append("speculative_config")
        for path in paths:
            flag = self._json.get(path)
            winner = None
            if flag is not None:
                winner = list(flag.dotted.values())[-1] if flag.dotted else flag.full
            value = copy.deepcopy(winner.value) if winner is not None else None
            spans = dict(winner.spans) if winner is not None else {}
            if winner is not None and not winner.reported:
                winner.reported = True
                out.problems += winner.held
            opaque = winner is not None and winner.opaque
            if path == "speculative_config" and not opaque:
                value = self._add_shortcuts(value, spans, out)
                value = self._dash_keys(value, spans)
            out.settings.replace(path, value, winner.span if winner else None, spans, opaque)

    def _dash_keys(self, value: Any, spans: dict[str, Span]) -> Any:
        """--speculative-config's top-level keys with `-` as `_`, after the `--spec-*`
        shortcuts joined them, as vLLM 0.26+ does before it builds SpeculativeConfig
        (`{k.replace("-", "_"): v ...}`, vllm/engine/arg_utils.py:2126 in 0.33)."""
        if not isinstance(value, dict) or not any("-" in k for k in value):
            return value
        from vllm_lint.argv import mined

        if not mined.dash_keys(self.cat.release, "--speculative-config"):
            return value
        for written in [p for p in spans if "-" in p.partition(".")[2].partition(".")[0]]:
            head, _, rest = written.partition(".")
            key, dot, tail = rest.partition(".")
            spans[f"{head}.{key.replace('-', '_')}{dot}{tail}"] = spans.pop(written)
        return {k.replace("-", "_"): v for k, v in value.items()}

    def _add_shortcuts(self, value: Any, spans: dict[str, Span], out: ParsedArgs) -> Any:
        """`--spec-method` (`--spec-model`, `--spec-tokens`) and a --speculative-config that
        sets the same key: vLLM 0.22+ refuses them ("--spec-method and
        --speculative-config['method'] are mutually exclusive", EngineArgs.
        create_speculative_config, vllm/engine/arg_utils.py:1848 in 0.28, :2118 in 0.33)."""
        if not self._spec_shortcuts or not (value is None or isinstance(value, dict)):
            return value
        value = {} if value is None else value
        for key, (flag, given, span) in self._spec_shortcuts.items():
            if key in value:
                if key not in self._spec_reported:
                    self._spec_reported.add(key)
                    out.problems.append(problem("VL013", span, self.release, flag=flag, key=key))
                continue
            value[key] = "<opaque>" if given is _OPAQUE else given
            spans[f"speculative_config.{key}"] = span
        return value

    def _convert(self, spec: FlagSpec, tok: Token, out: ParsedArgs) -> Any:
        raw = tok.text
        kind = spec.type or "str"
        if kind == "json_or_kvs" and JSON_OBJECT.match(raw):
            kind = "json"  # 0.8.5 - 0.9.2: JSON when `{...}`, else KEY=VALUE pairs (`kvs`)
        if kind == "json" or spec.json_keys:
            return self._json_value(spec, tok, out)
        value: Any = raw
        expected = ""
        if spec.nullable and raw in ("None", ""):
            return None
        if kind in ("kvs", "json_or_kvs"):  # per release: argv/values.py parse_kvs
            value = parse_kvs(raw)
            if isinstance(value, str):  # "Each item should be in the form KEY=VALUE"
                expected, value = f"KEY=VALUE pairs ({value})", BAD
        if kind == "custom":
            if not spec.normalize:
                return raw  # a parser the catalog cannot replay: never judged
            # argparse checks `choices` against what the type returns (vLLM 0.17+
            # --moe-backend: `lambda s: s.lower().replace("-", "_")`, engine/arg_utils.py)
            value = normalized(spec.normalize, raw)
            allowed = allowed_values(spec)
            if allowed is not None and value not in allowed:
                # vLLM names the value it read: 'flashinfer_moe_ep_cutedsl'
                self._not_a_choice(spec, tok, value, ", ".join(sorted(allowed)), out)
                return BAD
            return value
        if "int" in kind or kind == "port":
            value, expected = (
                parse_int(raw, human=kind in ("human_int", "int_or_auto"), auto="auto" in kind),
                "an integer",
            )
        elif kind == "float":
            try:
                value = float(raw)
            except ValueError:
                value, expected = BAD, "a number"
        elif kind == "bool":
            parsed = parse_bool(raw)
            value, expected = (BAD, "true or false") if parsed is None else (parsed, "")
        if value is BAD:
            out.problems.append(
                problem(
                    "VL004",
                    tok.span,
                    self.release,
                    flag=spec.name,
                    value=raw,
                    expected=expected or kind,
                )
            )
            return BAD
        if spec.enum_match and not enum_accepts(spec, raw):
            self._not_a_choice(spec, tok, raw, enum_choices(spec), out)
            return BAD
        allowed = allowed_values(spec)
        if (
            allowed is not None
            and str(value) not in allowed
            and raw not in allowed
            and not self._field_takes(spec, raw)
        ):
            self._not_a_choice(spec, tok, raw, ", ".join(sorted(allowed)), out)
            return BAD
        if spec.config_choices is not None and isinstance(value, str):
            # argparse takes any str; vLLM refuses a name its registry lacks when it builds
            # its config ("Unknown quantization method: x. Must be one of [...]",
            # ModelConfig._verify_quantization, vllm/config/model.py:1466 in 0.33)
            # the value is kept either way: rules that judge it then (VL321) still see it
            name = value.lower() if spec.config_choices_lower else value
            if name not in spec.config_choices:
                self._not_a_choice(spec, tok, raw, ", ".join(spec.config_choices), out)
            return name
        return value

    def _field_takes(self, spec: FlagSpec, raw: str) -> bool:
        """Whether a keyword of the Python API may hold a value the flag's choices leave out:
        no argparse judges it there, only pydantic the field's own Literal (`passthrough`, in
        ParallelConfig.all2all_backend but taken out of --all2all-backend's choices,
        vllm/engine/arg_utils.py:1174-1176 in 0.34.0)."""
        if not self.python_api:
            return False
        from vllm_lint.argv.mined import validation_for

        data = validation_for(self.cat.release) or {}
        owner = data.get("flags", {}).get(spec.name)
        if not isinstance(owner, str):
            return False
        cls, _, name = owner.partition(".")
        field = data.get("classes", {}).get(cls, {}).get("fields", {}).get(name, {})
        return field.get("type") == "literal" and raw in field.get("values", ())

    def _not_a_choice(
        self, spec: FlagSpec, tok: Token, value: str, choices: str, out: ParsedArgs
    ) -> None:
        """VL005: a value outside the flag's choices (argparse's or vLLM's own list)."""
        out.problems.append(
            problem("VL005", tok.span, self.release, flag=spec.name, value=value, choices=choices)
        )

    def _json_value(self, spec: FlagSpec, tok: Token, out: ParsedArgs) -> Any:
        try:
            value = json_loads(tok.text)
        except ValueError as exc:
            if spec.type not in ("json", "json_or_kvs"):  # `dict | str` flags take strings
                return tok.text
            out.problems.append(
                problem("VL007", tok.span, self.release, flag=spec.name, error=str(exc))
            )
            return BAD
        if isinstance(value, dict) and spec.json_keys:
            where = dict(tok.parts)  # a key's own place, the word related (json_parts.py)
            for key in value:
                span = where.get(key, tok.span)
                related = (Related(tok.span, f"{spec.name}'s value"),) if span != tok.span else ()
                known = self._known_key(spec, key)
                if known is None:
                    out.problems.append(self._unknown_key(spec, key, span, related))
                else:
                    self._check_literal(spec, known, value[key], span, out, related)
        return value

    def _known_key(self, spec: FlagSpec, key: str) -> str | None:
        """The config field a top-level key of a JSON flag names, if the class has it: vLLM
        turns `-` into `_` in the keys of --speculative-config from 0.26 (`mined.dash_keys`)."""
        if key in (spec.json_keys or ()):
            return key
        if "-" in key and key.replace("-", "_") in (spec.json_keys or ()):
            from vllm_lint.argv import mined

            if mined.dash_keys(self.cat.release, spec.name):
                return key.replace("-", "_")
        return None

    def _check_literal(
        self,
        spec: FlagSpec,
        key: str,
        value: Any,
        span: Span,
        out: ParsedArgs,
        related: tuple[Related, ...] = (),
    ) -> None:
        """A key whose config field is a `Literal`: pydantic refuses any other value when vLLM
        builds the config ("rejection_sample_method: Input should be 'standard', 'synthetic'
        or 'block'", vLLM 0.28.0, raised from vllm/engine/arg_utils.py:1869). Only a value of
        a type the Literal has is judged (pydantic's lax mode may convert the others)."""
        allowed = spec.json_literals.get(key)
        if not allowed:
            return
        if any(type(value) is type(v) and value == v for v in allowed):
            return
        if not any(type(value) is type(v) for v in allowed):
            return
        choices = ", ".join("null" if v is None else str(v) for v in allowed)
        out.problems.append(
            problem(
                "VL005",
                span,
                self.release,
                related=related,
                flag=f"{spec.name}.{key}",
                value=value,
                choices=choices,
            )
        )

    # -- problems ---------------------------------------------------------------------------

    def _unknown(self, written: str, tok: Token) -> list[Problem]:
        """VL001, unless the release is older than every catalog: its flags are not known, and
        a flag missing from the oldest catalog may well be one of them (`--worker-use-ray`)."""
        if versions.key(self.release.version) < versions.key(versions.normalize(self.cat.release)):
            return []
        return [
            problem(
                "VL001",
                tok.span,
                self.release,
                flag=written,
                hint=self._unknown_hint(written.replace("_", "-")),
            )
        ]

    def _unknown_hint(self, flag: str) -> str:
        """`_unknown_hint`, once per run for each flag: a repo that repeats an unknown flag
        in every file pays for the search once."""
        if self.cat is not catalog_for(self.cat.release) and catalog_for(self.cat.release).resolve(
            flag
        ):  # a `serve` flag another command lacks (`vllm bench latency … --port`)
            return "; `vllm serve` takes it, this command does not"
        key = ("flag", self.cat.release, flag, self.release.version)
        hint = self._hints.get(key)
        if hint is None:
            hint = self._hints[key] = _unknown_hint(self.cat.release, flag, self.release.version)
        return str(hint)

    def _unknown_key(
        self, spec: FlagSpec, key: str, span: Span, related: tuple[Related, ...] = ()
    ) -> Problem:
        """VL006 where pydantic forbids extra keys (vLLM refuses to start), VL012 where it
        drops them silently (before 0.16 for most config classes: the key has no effect)."""
        keys = list(spec.json_keys or ())
        close = difflib.get_close_matches(key, keys, n=1, cutoff=0.75)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        rule = "VL012" if spec.json_extra == "ignore" else "VL006"
        return problem(
            rule,
            span,
            self.release,
            site=self._key_site(spec, key),
            related=related,
            flag=spec.name,
            key=key,
            hint=hint,
        )

    def _key_site(self, spec: FlagSpec, key: str) -> str:
        """The unknown key as a rule names it in `preempts` (`field:PoolerConfig.normalize`,
        as argv/mined.py names a nested one): a rule for the validator vLLM runs on the key
        before pydantic forbids it stands for the same refusal."""
        from vllm_lint.argv.mined import validation_for

        data = validation_for(self.cat.release)
        cls = (data or {}).get("json_flags", {}).get(spec.name, {}).get("class")
        return f"field:{cls}.{key}" if cls else ""

    def _ambiguous(
        self,
        written: str,
        matches: list[str],
        tokens: Sequence[Token],
        i: int,
        nxt: int,
        inline: str,
    ) -> Problem:
        words = tokens[i:nxt]
        tok = words[0]
        note = ""
        fix = None
        gone = flag_history.removal(written)
        if gone is not None and gone[0].applies_to(self.release.version):
            row = gone[0]
            note = (
                f"; {row.flag} itself was removed in vLLM {row.removed_in}: "
                f"{flag_history.replacement_text(row, None, self.cat, gone[1])}"
            )
            values = [w.text for w in words[1:]]
            value = inline if "=" in tok.text else (" ".join(values) if values else None)
            fix, _why = fixes.removal(
                row, words, written, value, gone[1], self.cat, self._written(tokens)
            )
        elif self.deployed is not None:
            fix = fixes.disambiguation(tok, written, matches, self.deployed)
        return problem(
            "VL010",
            tok.span,
            self.release,
            fix,
            flag=written,
            matches=", ".join(matches),
            note=note,
        )

    def _deprecated(self, written: str, spec: FlagSpec, tok: Token) -> Problem:
        note = spec.deprecated if isinstance(spec.deprecated, str) else ""
        note = " ".join(note.replace("[DEPRECATED]", "").split())
        note = "" if note.lower() in ("", "deprecated") else f": {note}"
        gone = flag_history.removal(spec.name)
        if gone is not None and gone[0].removed_in:
            row = gone[0]
            note += (
                f" (vLLM {row.removed_in} removes it; "
                f"{flag_history.replacement_text(row, None, self.cat)})"
            )
        return problem("VL003", tok.span, self.release, flag=written, note=note)


def _unknown_hint(catalogued: str, flag: str, release: str) -> str:
    """The "did you mean" from the same catalog and when the flag existed (memoized per run
    by `ArgvParser._unknown_hint`)."""
    close = difflib.get_close_matches(flag, list(catalog_for(catalogued).flags), n=1, cutoff=0.75)
    hint = f"; did you mean {close[0]}?" if close else ""
    history = flag_history.describe(flag, release)
    return hint + (f" ({history})" if history else "")


_OPAQUE: Any = object()  # a shortcut's value nobody can read
