"""`vllm-lint flag --swap-space`: a flag's history over the catalogued releases (added,
renamed, changed, deprecated, removed), and `vllm-lint flag --since 0.30 --removed`: what a
bump crosses. The history itself is computed in one place, argv/history.py (the language
server's hover shows the same)."""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from vllm_lint.exits import EXIT_CLEAN, UsageError

USAGE = (
    "usage: vllm-lint flag FLAG [--format text|json] | "
    "vllm-lint flag --since X.Y [--until X.Y] [--added] [--removed] [--deprecated] [--changed] "
    "[--format text|json]"
)
# the listing's filters: each names the kinds of argv/history.py's events it keeps
_KINDS = {
    "--added": ("added",),
    "--removed": ("removed", "renamed"),
    "--renamed": ("renamed",),
    "--deprecated": ("deprecated",),
    "--changed": ("choices", "default", "type"),
}
_VALUED = ("--format", "--since", "--until")


def flag_command(args: Sequence[str], out: TextIO | None = None) -> int:
    out = out or sys.stdout  # at call time: a caller may have redirected it
    values, kinds, names = _parse(args)
    fmt = values.get("--format", "text")
    if fmt not in ("text", "json"):
        raise UsageError(f"--format {fmt}: text or json")
    if "--since" in values or "--until" in values:
        if names:
            raise UsageError(f"{names[0]}: give a flag or --since/--until, not both")
        return _listing(values, kinds, fmt, out)
    if len(names) != 1 or kinds:
        raise UsageError(USAGE)
    return _one(names[0], fmt, out)


def _parse(args: Sequence[str]) -> tuple[dict[str, str], set[str], list[str]]:
    """Our own options, and the rest: the flags asked about (vLLM's names start with `--`
    too, so argparse cannot tell them apart)."""
    values: dict[str, str] = {}
    kinds: set[str] = set()
    names: list[str] = []
    rest = iter(args)
    for arg in rest:
        option, eq, value = arg.partition("=")
        if option in _VALUED:
            given = value if eq else next(rest, None)
            if given is None:
                raise UsageError(f"{option}: needs a value")
            values[option] = given
        elif arg in _KINDS:
            kinds.update(_KINDS[arg])
        elif arg in ("-h", "--help"):
            raise UsageError(USAGE)
        else:
            names.append(arg)
    return values, kinds, names


def _one(flag: str, fmt: str, out: TextIO) -> int:
    from vllm_lint.argv import history

    name = history.canonical(flag)
    events = history.history(name)
    if not events:
        close = difflib.get_close_matches(name, history.all_flags(), n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        raise UsageError(f"{flag}: no catalogued vLLM release has this flag{hint}")
    if fmt == "json":
        _json({"flag": name, "releases": _span(), "events": [e._asdict() for e in events]}, out)
    else:
        _lines(history_lines(name, events), out)
    return EXIT_CLEAN


def history_lines(name: str, events: Sequence[Any]) -> list[str]:
    """The text of one flag's history (also the language server's hover)."""
    first, last = _span()
    lines = [f"{name} (catalogued vLLM releases {first} to {last})"]
    lines += [f"  {e.release:<12} {e.kind:<12} {e.detail}" for e in events]
    return lines


def _listing(values: dict[str, str], kinds: set[str], fmt: str, out: TextIO) -> int:
    from vllm_lint.argv import history

    first, last = _span()
    since = _release(values.get("--since", first))
    until = _release(values.get("--until", last), whole_series=True)
    wanted = frozenset(kinds or {k for group in _KINDS.values() for k in group})
    rows = history.crossed(since, until, wanted)
    if fmt == "json":
        document = {
            "since": since,
            "until": until,
            "events": [{"flag": flag, **event._asdict()} for flag, event in rows],
        }
        _json(document, out)
        return EXIT_CLEAN
    lines = [f"{flag:<44} {e.release:<12} {e.kind:<12} {e.detail}" for flag, e in rows]
    lines.append(f"{len(rows)} change(s) after vLLM {since} up to {until}.")
    _lines(lines, out)
    return EXIT_CLEAN


def _release(text: str, whole_series: bool = False) -> str:
    """`0.30` or `0.30.1`: a release to compare with. A series stands for its .0, or as an
    upper bound (`--until 0.27`) for its newest catalogued release (0.27.1)."""
    from vllm_lint import release

    written = text if text.count(".") >= 2 else f"{text}.0"
    try:
        key = release.full_key(written)
    except ValueError:
        raise UsageError(f"{text}: not a vLLM release (write X.Y or X.Y.Z)") from None
    if whole_series and text.count(".") < 2:
        same = [r for r in release.known_releases() if release.full_key(r)[:2] == key[:2]]
        return same[-1] if same else written
    return written


def _span() -> tuple[str, str]:
    from vllm_lint.release import known_releases

    known = known_releases()
    return known[0], known[-1]


def _lines(lines: Sequence[str], out: TextIO) -> None:
    from vllm_lint.report.escape import inert

    out.write("".join(inert(line) + "\n" for line in lines))


def _json(document: dict[str, Any], out: TextIO) -> None:
    json.dump(document, out, indent=2, ensure_ascii=True)
    out.write("\n")
