"""Verify the lifted refusals (schemas/lifted.json) with vLLM itself.

    python -m tools.conformance.lifted --releases 0.28.0 0.31.0 0.33.0 0.34.0

For every entry and every oracle release in its ranges, launches are made from the
condition's own boundary, never from the linter: values for its fields are drawn from the
constants the condition names (each number, one below and one above it; the members of a
literal list; lists of them; a default; true/false), the first assignment that makes the
condition true is the case *inside*, and the same assignment with one field moved until the
condition is false the cases *outside* (up to three, the nearest first: the same type and
shape, then the field left out, then another value). vLLM's verdicts are recorded with the
conformance set (`tests/data/verdicts/<release>.jsonl`, family `lifted`), and an entry is
shipped (`verified`: the releases) only when vLLM refused *inside* at the entry's site (or
with its message), accepted at least one *outside* case and refused none at that site.
Refused elsewhere inside, or every outside case refused elsewhere, is inconclusive and an entry
inconclusive in any release asked is not shipped; one vLLM contradicts anywhere is `dropped`
with the reason (kept across runs). Ask all the oracle releases in one run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from typing import Any

from tools import lift_raises
from tools.conformance import oracle, verdicts
from tools.conformance.cases import Case

from vllm_lint.effective.settings import Settings
from vllm_lint.model import Span
from vllm_lint.rules.lifted import Judge, site_of

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
FAMILY = "lifted"
_SPAN = Span("<case>", 1, 1, 1, 2)
MAX_FIELDS = 4


def _constants(expr: Any) -> list[Any]:
    out: list[Any] = []
    if isinstance(expr, list) and expr:
        if expr[0] == "c":
            value = expr[1]
            out += value if isinstance(value, list) else [value]
        elif expr[0] == "f" and len(expr) > 2:
            out.append(expr[2])
        else:
            skip = 2 if expr[0] in ("any", "all") else 1  # a quantifier's names
            for part in expr[skip:]:
                out += _constants(part)
    return out


def candidates(entry: dict[str, Any]) -> list[Any]:
    values: list[Any] = [True, False]
    lists: list[Any] = [[], ["a"], ["a", "a"], [""]]  # for len/set/any/all over a list
    for c in _constants(entry["condition"]):
        if isinstance(c, bool) or c is None:
            continue
        if isinstance(c, (int, float)):
            values += [c - 1, c, c + 1]
            lists += [[c - 1], [c], [c + 1]]
        elif isinstance(c, str):
            values += [c]
            lists += [[c], [c, c]]
        elif isinstance(c, (list, dict)) and not c:
            values += [c]
    values += [*lists, "zz-unlisted"]
    # a mapping (`for k, v in d.items()`): one key, each scalar or list value so far
    values += [{"a": v} for v in values if not isinstance(v, dict)] + [{"a": {}}]
    seen: list[Any] = []
    for v in values:
        if not any(type(v) is type(s) and v == s for s in seen):
            seen.append(v)
    return seen


def _settings(assign: dict[str, Any]) -> Settings:
    s = Settings(None)  # type: ignore[arg-type]  # the judge reads no release
    for path, value in assign.items():
        if value is _ABSENT:
            continue
        s.set(path, value, _SPAN)
        s.spans.setdefault(path.split(".")[0], _SPAN)
    return s


_ABSENT = object()


def judged(entry: dict[str, Any], assign: dict[str, Any]) -> Any:
    return Judge(_settings(assign)).eval(entry["condition"])


def boundary(entry: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(inside, outside) assignments, or None when none is found; the outside one is the
    first of `outsides`."""
    found = boundaries(entry)
    return (found[0], found[1][0]) if found is not None else None


MAX_OUTSIDE = 3


def boundaries(entry: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The first assignment that makes the condition true (inside) and up to MAX_OUTSIDE that
    make it false by moving one field, the nearest first: a value of the same type and shape
    (the number next to the boundary, a list of the same length), then the field left out
    (vLLM's default), then any other. vLLM may refuse a far outside case for another reason;
    a near one is what tells the boundary."""
    paths = entry["paths"]
    if len(paths) > MAX_FIELDS:
        return None
    values = [*candidates(entry), _ABSENT]
    types = entry.get("types", {})
    per_path = []
    for p in paths:
        kind = types.get(p, "")
        if kind.startswith("["):  # the field's choices: only those
            per_path.append([*json.loads(kind), _ABSENT])
        else:
            per_path.append([v for v in values if fits(v, kind)])
    for combo in itertools.product(*per_path):
        inside = dict(zip(paths, combo, strict=True))
        if judged(entry, inside) is not True:
            continue
        outs: list[tuple[tuple[int, float], int, dict[str, Any]]] = []
        for path, allowed in zip(paths, per_path, strict=True):
            for v in allowed:
                outside = {**inside, path: v}
                if judged(entry, outside) is False and _same_type(inside[path], v):
                    outs.append((_distance(inside[path], v), len(outs), outside))
        if outs:
            outs.sort(key=lambda o: (o[0], o[1]))
            chosen: list[dict[str, Any]] = []
            for _, _, o in outs:  # one per distance class first, then the next nearest
                if len(chosen) < MAX_OUTSIDE and o not in chosen:
                    chosen.append(o)
            return inside, chosen
    return None


def _distance(a: Any, b: Any) -> tuple[int, float]:
    """How far an outside value is from the inside one: (class, amount)."""
    if b is _ABSENT:
        return (1, 0.0)
    if a is _ABSENT or type(a) is not type(b):
        return (2, 0.0)
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        return (0, float(abs(a - b)))
    if isinstance(a, list):
        if len(a) != len(b) or not b:
            return (2, 0.0)
        if all(_number(x) for x in a + b):
            return (0, float(sum(abs(x - y) for x, y in zip(a, b, strict=True))))
        return (0, 0.0)
    return (0, 0.0)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def fits(value: Any, kind: str) -> bool:
    """Whether a candidate value has the field's type (schemas/validation, the flag catalog)."""
    if value is _ABSENT:
        return True
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind in ("int", "human_int"):
        return number and isinstance(value, int)
    if kind == "float":
        return number
    if kind == "list" or kind.startswith("['list'"):
        return isinstance(value, list)
    if kind == "dict":
        return isinstance(value, dict)
    if isinstance(value, dict):
        return False  # a mapping only where the field is one
    if kind in ("str", "literal") or "'str'" in kind or "'literal'" in kind:
        return isinstance(value, str)
    return True


def _same_type(a: Any, b: Any) -> bool:
    return a is _ABSENT or b is _ABSENT or type(a) is type(b)


def argv_of(assign: dict[str, Any], flags: dict[str, Any]) -> list[str] | None:
    """The command line that sets the assignment, or None when a flag cannot say it."""
    words = [MODEL]
    nested: dict[str, dict[str, Any]] = {}
    for path, value in assign.items():
        if value is _ABSENT or path.startswith("env."):
            continue  # an environment variable: `env_of`
        top, _, rest = path.partition(".")
        flag = "--" + top.replace("_", "-")
        spec = flags.get(flag)
        if spec is None:
            return None
        if rest:
            nested.setdefault(flag, {})[rest] = value
        elif isinstance(value, bool):
            if value:
                words.append(flag)
            elif spec.get("default") not in (False, None):
                return None
        elif isinstance(value, dict):
            words += [flag, json.dumps(value)]
        elif isinstance(value, list):
            words += [flag, *(str(v) for v in value)] if value else [flag]
        else:
            words += [flag, str(value)]
    for flag, obj in nested.items():
        words += [flag, json.dumps(obj)]
    return words


def env_of(assign: dict[str, Any]) -> dict[str, str] | None:
    """The environment of the assignment (`env.X` paths), or None when a value is no string
    (vLLM reads the variable's text)."""
    env = {p[4:]: v for p, v in assign.items() if p.startswith("env.") and v is not _ABSENT}
    return env if all(isinstance(v, str) for v in env.values()) else None


def cases_for(entries: list[dict[str, Any]], release: str) -> list[tuple[str, str, Case]]:
    """(entry id, side, case): side `inside`, or `outside`, `outside-2`, ... nearest first."""
    from vllm_lint.release_data import load_in

    flags = (load_in(lift_raises.FLAGS, release) or {}).get("flags", {})
    out = []
    for entry in entries:
        found = boundaries(entry)
        if found is None:
            continue
        inside, outsides = found
        sides = [("inside", inside)]
        sides += [("outside" if i == 0 else f"outside-{i + 1}", o) for i, o in enumerate(outsides)]
        for side, assign in sides:
            argv, env = argv_of(assign, flags), env_of(assign)
            if argv is None or env is None:
                continue
            origin = f"lifted {entry['id']} {side}"
            case = Case.make(release, argv, env=env or None, origin=origin, family=FAMILY)
            out.append((entry["id"], side, case))
    return out


def agrees(entry: dict[str, Any], release: str, side: str, v: verdicts.Verdict) -> bool:
    site = site_of(entry, release)
    at_site = v.source == site or (
        bool(entry["message"].strip("{…} ")) and _message_part(entry["message"]) in v.error
    )
    if side == "inside":
        return not v.accepted  # refused elsewhere first: inconclusive (`reached`)
    return v.accepted or not at_site


def reached(entry: dict[str, Any], release: str, v: verdicts.Verdict) -> bool:
    """Whether vLLM refused at the entry's site (by its file:line or its message)."""
    site = site_of(entry, release)
    return not v.accepted and (
        v.source == site
        or (bool(entry["message"].strip("{…} ")) and _message_part(entry["message"]) in v.error)
    )


def _message_part(message: str) -> str:
    """The longest literal run of a message (its `{…}` parts are values)."""
    return max(message.split("{…}"), key=len).strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--releases", nargs="+", required=True)
    ns = ap.parse_args(argv)
    data = json.loads(lift_raises.OUT.read_text(encoding="utf-8"))
    entries = data["entries"]
    results: dict[str, dict[str, list[str]]] = {}  # id -> {"ok": [rel], "bad": [why]}
    for release in ns.releases:
        applicable = [
            e
            for e in entries
            if any(
                lift_raises.mr.vkey(lo) <= lift_raises.mr.vkey(release) <= lift_raises.mr.vkey(hi)
                for lo, hi in e["ranges"]
            )
        ]
        made = cases_for(applicable, release)
        by_key: dict[str, list[tuple[str, str]]] = {}  # two entries may share a case
        for eid, side, c in made:
            by_key.setdefault(c.key, []).append((eid, side))
        unique = list({c.key: c for _, _, c in made}.values())
        answers = list(oracle.ask(unique, release))
        path = verdicts.path_for(release)
        old = [v for v in verdicts.load(path) if v.case.family != FAMILY or v.case.key in by_key]
        verdicts.save(path, verdicts.merged(old, answers))
        per_entry: dict[str, dict[str, verdicts.Verdict]] = {}
        for v in answers:
            for eid, side in by_key[v.case.key]:
                per_entry.setdefault(eid, {})[side] = v
        for entry in applicable:
            got = per_entry.get(entry["id"], {})
            rec = results.setdefault(entry["id"], {"ok": [], "bad": []})
            if "inside" not in got:
                continue  # no case could be made or asked: not verified here
            bad = [
                f"{release} {side}: vLLM {'accepted' if v.accepted else 'refused at ' + v.source}"
                for side, v in got.items()
                if not agrees(entry, release, side, v)
            ]
            outside_accepted = any(v.accepted for side, v in got.items() if side != "inside")
            if bad:
                rec["bad"] += bad
            elif not reached(entry, release, got["inside"]):
                why = got["inside"].source or "?"
                rec.setdefault("inconclusive", []).append(f"{release}: refused at {why}")
            elif not outside_accepted:  # every outside case refused elsewhere: no boundary seen
                why = ", ".join(v.source or "?" for side, v in got.items() if side != "inside")
                rec.setdefault("inconclusive", []).append(f"{release}: outside refused at {why}")
            else:
                rec["ok"].append(release)
    dropped = dict(data.get("dropped", {}))
    for entry in entries:
        rec = results.get(entry["id"])
        if rec is None:
            continue
        key = lift_raises.entry_key(entry)
        if rec["bad"]:
            dropped[key] = "; ".join(rec["bad"])
        # a release asked again is decided again; the others keep what they verified. Shipped
        # only when every release asked that holds the entry verified it: one inconclusive
        # release (refused elsewhere inside, or no outside case accepted) un-verifies it.
        kept_releases = set(entry.get("verified", [])) - set(ns.releases)
        ok = set(rec["ok"]) if not rec.get("inconclusive") else set()
        if rec.get("inconclusive"):
            kept_releases = set()
        entry.pop("verified", None)
        if key not in dropped and (ok or kept_releases):
            entry["verified"] = sorted(kept_releases | ok)
    verified = {lift_raises.entry_key(e): e["verified"] for e in entries if e.get("verified")}
    entries = lift_raises.kept(entries, dropped, verified)
    lift_raises.OUT.write_text(lift_raises.render(entries, dropped), encoding="utf-8")
    for eid, rec in sorted(results.items()):
        print(
            eid,
            "verified:",
            rec["ok"],
            "disagrees:",
            rec["bad"],
            rec.get("inconclusive", ""),
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
