"""What `--fix` may write instead of a flag, decided where the argv grammar meets the problem.

Each fix is an intent over argv words (`model.Edit`: a word's text, or the flag part of
`--flag=value`, or a whole word to delete); `fixer.vet` then keeps it only where that text is
written exactly in the file. A fix is made only when it has one right answer:

- an abbreviation argparse accepts (VL008) → the option string argparse matched;
- an abbreviation the target release finds ambiguous (VL010) → the option string it matched
  in the release the file deploys (`--vllm-version NEW` being the upgrade check);
- a removed or renamed flag (VL002, and VL003 before the removal) → what
  schemas/renamed-flags.json says to write: the new flag (the value carries over), the new
  flag with a fixed value (`--new=value`), a key of a JSON flag as a dotted key
  (`--json-flag.key value`, vLLM 0.9+), the `by_value` replacement written `--flag value`, or
  the words dropped when there is no replacement. Safe only where the row says so, citing
  vLLM's own shim (`safe_fix`); a drop of a flag that still works is never offered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from vllm_lint import release as versions
from vllm_lint.argv.catalog import Catalog, catalog_for
from vllm_lint.argv.history import Removal
from vllm_lint.argv.json_flags import json_scalar
from vllm_lint.model import Autofix, Edit, Span, Token

# what a replacement may contain: nothing any quoting (YAML, shell, JSON) would need to escape
_PLAIN = re.compile(r"[A-Za-z0-9_.=:,/+@-]+")
_FLAG_AND_VALUE = re.compile(r"(--[a-z0-9]+(?:-[a-z0-9]+)*) ([A-Za-z0-9_.:/-]+)")
_DROP = "nothing: drop it"


def _head(tok: Token, written: str) -> Span:
    """The span of the first `len(written)` characters of a word: the flag part of
    `--flag=value` or `--flag.key`, written on the word's first line."""
    s = tok.span
    return Span(s.path, s.line, s.col, s.line, s.col + len(written))


def rename(tok: Token, written: str, new: str, title: str, safe: bool = True) -> Autofix | None:
    """Write `new` for the flag part `written` of a word (its `=value` or `.key` stays)."""
    if tok.opaque or not tok.text.startswith(written) or not _PLAIN.fullmatch(new):
        return None
    return Autofix(title, (Edit(_head(tok, written), written, new),), safe)


def drop(words: Sequence[Token], title: str, safe: bool) -> Autofix | None:
    """Delete a flag and its values, each a whole word."""
    if not words or any(w.opaque or not w.text for w in words):
        return None
    return Autofix(title, tuple(Edit(w.span, w.text, "", word=True) for w in words), safe)


def abbreviation(tok: Token, written: str, option: str) -> Autofix | None:
    """VL008: argparse reads `written` as `option`; writing it in full changes nothing."""
    return rename(tok, written, option, f"Write {option} in full")


def disambiguation(
    tok: Token, written: str, matches: Sequence[str], deployed: str | None
) -> Autofix | None:
    """VL010 in the target release: the option the abbreviation stood for in the release the
    file deploys (`deployed`), when the target release still has that option string."""
    if deployed is None:
        return None
    old = catalog_for(versions.catalog_release(deployed))
    options = old.prefix_matches(written)
    if len(options) != 1 or options[0] not in matches:
        return None
    title = f"Write {options[0]} in full (as vLLM {deployed} read it)"
    return rename(tok, written, options[0], title)


def removal(
    row: Removal,
    words: Sequence[Token],
    written: str,
    value: str | None,
    negated: bool,
    cat: Catalog,
    flags: frozenset[str],
    still_accepted: bool = False,
) -> tuple[Autofix | None, str]:
    """The fix of a removed (or deprecated, `still_accepted`) flag: `words` are the flag's
    word and its value words as the grammar took them, `written` its flag part; `flags` the
    flags the launch writes (`--flag`, and `--flag.` for dotted keys). Returns the fix, or
    None and why there is none."""
    if any(w.opaque for w in words):
        return None, "a value the linter cannot read"
    rep = row.replacement
    target = rep.get("flag")
    if "by_value" in rep:
        return _by_value(row, words, written, value, cat, still_accepted)
    if not isinstance(target, str):
        if still_accepted and not row.fix_is_safe():
            return None, ""  # it still works: dropping it now would change the launch
        return drop(words, f"Remove {row.flag}", row.fix_is_safe()), ""
    if negated:
        return None, f"{row.flag} was a switch; its replacement {target} is not"
    spec = cat.flags.get(target)
    if spec is None:
        return None, f"vLLM {cat.release} has no {target}"
    safe = row.fix_is_safe()
    tok = words[0]
    if "key" in rep:
        return _json_key(row, words, written, value, cat, target in flags, safe)
    if target in flags or f"{target}." in flags:
        return None, f"the launch also writes {target}"
    if "value" in rep:
        if row.value != "none" or len(words) != 1 or tok.text != written:
            return None, "the flag is not written alone"
        title = f"Replace {row.flag} with {target} {rep['value']}"
        fixed = _whole(tok, f"{target}={rep['value']}", title, safe)
        return fixed, "" if fixed else "the flag is not written verbatim"
    fixed = rename(tok, written, target, f"Rename {row.flag} to {target}", safe)
    return fixed, ""


def _whole(tok: Token, new: str, title: str, safe: bool) -> Autofix | None:
    if tok.opaque or not _PLAIN.fullmatch(new):
        return None
    return Autofix(title, (Edit(tok.span, tok.text, new),), safe)


def _by_value(
    row: Removal,
    words: Sequence[Token],
    written: str,
    value: str | None,
    cat: Catalog,
    still_accepted: bool,
) -> tuple[Autofix | None, str]:
    """`--task generate` → `--runner generate`, `--task auto` → nothing (only where the table
    says exactly what to write for that value)."""
    instead = row.replacement["by_value"].get(value) if value is not None else None
    if not isinstance(instead, str):
        return None, "no replacement for that value"
    safe = row.fix_is_safe(value)
    if instead == _DROP:
        if still_accepted and not safe:
            return None, ""
        return drop(words, f"Remove {row.flag} {value}", safe), ""
    match = _FLAG_AND_VALUE.fullmatch(instead)
    if match is None:
        return None, "the replacement depends on the model"
    flag, new_value = match.groups()
    if cat.flags.get(flag) is None:
        return None, f"vLLM {cat.release} has no {flag}"
    title = f"Replace {row.flag} {value} with {instead}"
    tok = words[0]
    if len(words) == 1:  # `--task=generate`
        return _whole(tok, f"{flag}={new_value}", title, safe), ""
    if len(words) != 2 or words[1].opaque:
        return None, "the value is not one word"
    edits = [Edit(_head(tok, written), written, flag)]
    if words[1].text != new_value:
        edits.append(Edit(words[1].span, words[1].text, new_value))
    if tok.text != written:
        return None, "the flag is not written alone"
    return Autofix(title, tuple(edits), safe), ""


def _json_key(
    row: Removal,
    words: Sequence[Token],
    written: str,
    value: str | None,
    cat: Catalog,
    whole: bool,
    safe: bool,
) -> tuple[Autofix | None, str]:
    """`--num-speculative-tokens 5` → `--speculative-config.num_speculative_tokens 5`: vLLM
    merges dotted keys into one JSON value (FlexibleArgumentParser.parse_args, vllm/utils/
    argparse_utils.py:441-502 in 0.34, since 0.9), which replaces any full value of the flag,
    so there is no fix when the launch writes that flag whole."""
    target = str(row.replacement["flag"])
    key = str(row.replacement["key"])
    spec = cat.flags[target]
    if not cat.features.get("dotted_json_keys", True):
        return None, f"vLLM {cat.release} has no dotted keys (--flag.key)"
    if spec.json_keys is not None and key not in spec.json_keys:
        return None, f"vLLM {cat.release}'s {target} has no key {key!r}"
    if whole:
        return None, f"the launch also writes {target} whole; merge the key into it"
    dotted = f"{target}.{key}"
    title = f"Move {row.flag} to {dotted}"
    tok = words[0]
    if row.value == "many":
        return None, "a list value"
    if len(words) == 1 and tok.text == written:  # a switch, or an optional value not given
        if row.value not in ("none", "optional"):
            return None, "no value"
        return _whole(tok, f"{dotted}=true", title, safe), ""
    if value is None or not _keeps_type(row, value):
        return None, "the value would change type as a JSON key"
    return rename(tok, written, dotted, title, safe), ""


def _keeps_type(row: Removal, value: str) -> bool:
    """A dotted key's value is JSON-decoded when it can be: a str-valued flag's value must stay
    a str (a model named `1` would become the number 1)."""
    old = catalog_for(versions.catalog_release(row.last_in)).flags.get(row.flag)
    decoded: Any = json_scalar(value)
    return old is None or old.type not in ("str", "custom") or isinstance(decoded, str)
