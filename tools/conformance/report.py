"""The agreement report: per release, per rule family, per rule, and every disagreement.

Built from the recorded verdicts and the current linter only (no vLLM): the same numbers
that tests/test_conformance.py checks. Reasons for disagreements come from
`tools/conformance/known.json` (`{"reasons": [{"keys": [...], "reason": "..."}]}`), written
after reading vLLM's source; a disagreement without one is listed as unexplained.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .agreement import Judgement

KNOWN = Path(__file__).resolve().parent / "known.json"
PROPOSED = Path(__file__).resolve().parent / "proposed-rules.json"  # sources.PROPOSED
START = "<!-- conformance-report:start (python -m tools.conformance report --write) -->"
END = "<!-- conformance-report:end -->"


def family_of_rule(rule_id: str) -> str:
    if rule_id.startswith("VL13"):
        return "mamba (VL130-VL133)"
    if rule_id.startswith("VL1"):
        return "replayssm (VL101-VL120)"
    if rule_id.startswith("VL00"):
        return "flags (VL001-VL009)"
    return f"{rule_id[:3]}xx"


def known_reasons(path: Path = KNOWN) -> dict[str, str]:
    """case key -> reason."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {key: entry["reason"] for entry in data.get("reasons", []) for key in entry["keys"]}


@dataclass(frozen=True)
class ReleaseStats:
    release: str
    cases: int
    rejected: int
    agree: int
    same_reason: int
    rejected_attributed: int

    @property
    def rate(self) -> float:
        return self.agree / self.cases if self.cases else 1.0


def release_stats(release: str, judged: list[Judgement]) -> ReleaseStats:
    rejected = [j for j in judged if not j.verdict.accepted]
    return ReleaseStats(
        release=release,
        cases=len(judged),
        rejected=len(rejected),
        agree=sum(j.agrees for j in judged),
        same_reason=sum(j.same_reason for j in rejected),
        rejected_attributed=sum(j.vllm_rule is not None for j in rejected),
    )


def per_rule(judged: Iterable[Judgement]) -> dict[str, Counter[str]]:
    """rule -> counts: `vllm` (vLLM's refusal is this rule's), `same` (and the linter says
    so), `linter` (the linter raised it), `false` (raised, vLLM accepted), `cases` (either
    side names it), `agree` (of those, the verdicts agree)."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for j in judged:
        named = set(j.linter_rules)
        if j.vllm_rule:
            named.add(j.vllm_rule)
            table[j.vllm_rule]["vllm"] += 1
            table[j.vllm_rule]["same"] += j.same_reason
        for rule_id in j.linter_rules:
            table[rule_id]["linter"] += 1
            table[rule_id]["false"] += j.verdict.accepted
        if not named and not j.verdict.accepted:
            named.add("(no rule)")
            table["(no rule)"]["vllm"] += 1
        for rule_id in named:
            table[rule_id]["cases"] += 1
            table[rule_id]["agree"] += j.agrees
    return dict(table)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "–"


def _line(j: Judgement) -> str:
    case = j.verdict.case
    env = " ".join(f"{k}={v}" for k, v in case.env)
    return (env + " " if env else "") + "vllm serve " + case.line


def render(
    by_release: Mapping[str, list[Judgement]],
    reasons: Mapping[str, str],
    with_proposed: Mapping[str, list[Judgement]] | None = None,
) -> str:
    out: list[str] = []
    out.append("### Agreement per release\n")
    proposed = " with proposed-rules.json |" if with_proposed else ""
    out.append(
        "| release | verdicts | vLLM refused | agree | agreement | same reason (of refusals) |"
        + proposed
    )
    out.append("|---|---:|---:|---:|---:|---:|" + ("---:|" if with_proposed else ""))
    for release, judged in by_release.items():
        s = release_stats(release, judged)
        row = (
            f"| {release} | {s.cases} | {s.rejected} | {s.agree} | {_pct(s.agree, s.cases)} "
            f"| {s.same_reason} ({_pct(s.same_reason, s.rejected)}) |"
        )
        if with_proposed:
            p = release_stats(release, with_proposed[release])
            row += f" {_pct(p.agree, p.cases)} |"
        out.append(row)
    out.append("\n### Verdicts per family (what each case was made for)\n")
    families = sorted({_family(j) for js in by_release.values() for j in js})
    out.append("| family | " + " | ".join(by_release) + " |")
    out.append("|---|" + "---:|" * len(by_release))
    for family in families:
        counts = [sum(_family(j) == family for j in js) for js in by_release.values()]
        out.append(f"| {family} | " + " | ".join(str(c) for c in counts) + " |")
    out.append("\n### Agreement per rule (all releases)\n")
    out.append(
        "`vLLM` = refusals whose message is this rule's; `same` = of those, the linter names "
        "this rule; `linter` = cases where the linter raised it; `false` = raised but vLLM "
        "accepted; `agree` = cases either side attributes to the rule where the verdicts "
        "agree.\n"
    )
    out.append("| rule | vLLM | same | linter | false | agree |")
    out.append("|---|---:|---:|---:|---:|---:|")
    table = per_rule(j for js in by_release.values() for j in js)
    for rule_id in sorted(table):
        c = table[rule_id]
        out.append(
            f"| {rule_id} | {c['vllm']} | {c['same']} | {c['linter']} | {c['false']} "
            f"| {c['agree']}/{c['cases']} ({_pct(c['agree'], c['cases'])}) |"
        )
    out.append("\n### Defaults vLLM chose (from the accepted verdicts)\n")
    out.append(defaults_seen(by_release))
    out.append("\n### Disagreements\n")
    grouped: dict[str, list[Judgement]] = defaultdict(list)
    for judged in by_release.values():
        for j in judged:
            if not j.agrees:
                grouped[reasons.get(j.verdict.case.key, "UNEXPLAINED")].append(j)
    if not grouped:
        out.append("None.")
    for reason in sorted(grouped, key=lambda r: (r != "UNEXPLAINED", r)):
        out.append(f"**{reason}**\n")
        for j in grouped[reason]:
            v = j.verdict
            said = "accepted" if v.accepted else f"refused: {v.error} ({v.source})"
            linted = ", ".join(j.linter_rules) or "no error"
            out.append(
                f"- {v.case.release} `{v.case.key}` ({v.case.model_kind}): `{_line(j)}` — "
                f"vLLM {said}; vllm-lint: {linted}"
            )
        out.append("")
    return "\n".join(out).rstrip() + "\n"


_PREFIX_FLAGS = (
    "--enable-prefix-caching",
    "--no-enable-prefix-caching",
    "--disable-prefix-caching",
)
_RUNNER_SWITCHES = ("--enable-dbo", "--ubatch-size", "--spec", "--speculative-config")


def defaults_seen(by_release: Mapping[str, list[Judgement]]) -> str:
    """What vLLM chose where the command line said nothing (accepted cases only): the
    defaults that decide rules, per release and model kind."""
    out = [
        "| release | model kind | prefix caching (no flag) | mamba cache mode (no flag) "
        "| Model Runner V2 (no env, no spec/ubatch) |",
        "|---|---|---|---|---|",
    ]
    for release, judged in by_release.items():
        rows: dict[str, list[Counter[str]]] = defaultdict(lambda: [Counter(), Counter(), Counter()])
        for j in judged:
            v = j.verdict
            if not v.accepted or not v.config:
                continue
            words = " ".join(v.case.argv)
            row = rows[v.case.model_kind]
            if not any(flag in words for flag in _PREFIX_FLAGS):
                row[0][str(v.config.get("enable_prefix_caching"))] += 1
                if "--mamba-cache-mode" not in words:
                    row[1][str(v.config.get("mamba_cache_mode"))] += 1
            if "VLLM_USE_V2_MODEL_RUNNER" not in dict(v.case.env) and not any(
                s in words for s in _RUNNER_SWITCHES
            ):
                row[2][str(v.config.get("use_v2_model_runner"))] += 1
        for kind in sorted(rows):
            cells = [", ".join(f"{k} ×{n}" for k, n in c.most_common()) or "–" for c in rows[kind]]
            out.append(f"| {release} | {kind} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def _family(j: Judgement) -> str:
    return j.verdict.case.family if not j.verdict.case.family.startswith("VL") else "example"


def write_into(doc: Path, body: str) -> None:
    """Replace the generated section of the docs page (between the markers)."""
    text = doc.read_text(encoding="utf-8") if doc.exists() else ""
    if START in text and END in text:
        head, _, rest = text.partition(START)
        _, _, tail = rest.partition(END)
    else:
        head, tail = text.rstrip() + "\n\n" if text else "", "\n"
    doc.write_text(f"{head}{START}\n\n{body}\n{END}{tail}", encoding="utf-8")
