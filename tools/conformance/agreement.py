"""Judge a recorded verdict with vllm-lint: do the linter and vLLM agree?

vLLM rejects ⇔ vllm-lint reports an error, or a warning of a rule whose verdict hangs on a
model default the command line does not state (a rule with `assumes`). vLLM accepts ⇔ no
error. Info findings never count.

To say which rule a refusal belongs to, vLLM's message is matched against each rule's
`vllm_error` for the release (placeholders match anything), and argparse's messages against
the argv-grammar checks (VL001-VL009). That attribution only labels the per-rule table and
the "same reason" count; agreement itself is the verdict.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from vllm_lint.config import Config, Configs
from vllm_lint.model import Finding, Severity
from vllm_lint.options import Options
from vllm_lint.pipeline import check_command_line
from vllm_lint.rules import registry as rules

from .verdicts import Verdict

# argparse's and pydantic's own wording, for the argv-grammar checks (flags.json)
_GRAMMAR_MESSAGES = (
    # pydantic's constraints, checked generically from schemas/validation/ (VL014)
    (
        re.compile(
            r"Input should be (greater|less) than|Input should be a multiple of"
            r"|Input should be a valid|should have at (least|most) \d|Missing required argument"
        ),
        "VL014",
    ),
    (re.compile(r"Unknown vLLM environment variable detected|has been removed\. "), "VL017"),
    (re.compile(r"Unsupported connector type|invalid (tool call|reasoning) parser"), "VL005"),
    (re.compile(r"unrecognized arguments"), "VL001"),
    (re.compile(r"ambiguous option"), "VL001"),
    (re.compile(r"invalid choice|Unknown quantization method|Input should be"), "VL005"),
    (re.compile(r"invalid \S+ value|ignored explicit argument|invalid value"), "VL004"),
    (re.compile(r"expected one argument|expected at least one argument"), "VL009"),
    (re.compile(r"Extra inputs are not permitted|unexpected keyword argument", re.I), "VL006"),
    (re.compile(r"Invalid JSON|JSONDecodeError|Expecting (value|property name)"), "VL007"),
)
# linter ids that answer the same vLLM refusal
_SAME = {"VL002": "VL001"}


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    findings: tuple[Finding, ...]
    linter: str  # "error", "hedge" (model-default warning) or "clean"
    vllm_rule: str | None  # the rule vLLM's refusal matches, if any

    @property
    def agrees(self) -> bool:
        if self.verdict.accepted:
            return self.linter != "error"
        return self.linter in ("error", "hedge")

    @property
    def linter_rules(self) -> tuple[str, ...]:
        """Rules the linter raised at error level (or as a model-default warning)."""
        return tuple(
            sorted(
                {
                    _SAME.get(f.rule, f.rule)
                    for f in self.findings
                    if f.severity is Severity.ERROR or _hedges(f)
                }
            )
        )

    @property
    def same_reason(self) -> bool:
        """vLLM refused, and the linter names the rule vLLM's message belongs to."""
        return (
            not self.verdict.accepted
            and self.vllm_rule is not None
            and self.vllm_rule in self.linter_rules
        )


def _hedges(finding: Finding) -> bool:
    if finding.severity is not Severity.WARNING:
        return False
    return any(entry.assumes for entry in rules.BUILTIN.variants(finding.rule))


def judge(verdict: Verdict, ruleset: rules.RuleSet = rules.BUILTIN) -> Judgement:
    case = verdict.case
    options = Options(configs=Configs(fixed=Config(rules=ruleset)))
    findings = tuple(check_command_line(case.line, case.release, case.env_dict, options=options))
    if any(f.severity is Severity.ERROR for f in findings):
        linter = "error"
    elif any(_hedges(f) for f in findings):
        linter = "hedge"
    else:
        linter = "clean"
    raised = {f.rule for f in findings}
    rule = None if verdict.accepted else attribute(verdict.error, case.release, raised, ruleset)
    return Judgement(verdict, findings, linter, rule)


def judge_all(
    verdicts: Iterable[Verdict], ruleset: rules.RuleSet = rules.BUILTIN
) -> list[Judgement]:
    return [judge(v, ruleset) for v in verdicts]


def pending_rules(pack: Path) -> list[rules.Rule]:
    """The rules of a pack not (yet) moved into schemas/rules/."""
    adopted = {r.id for r in rules.builtin_rules()}
    return [r for r in rules.load_rule_file(pack) if r.id not in adopted]


def with_pack(pack: Path) -> rules.RuleSet:
    """The built-in rules and a pack's rules not yet moved into schemas/rules/ (to measure
    proposed rules)."""
    return rules.RuleSet(tuple(pending_rules(pack)))


def attribute(
    message: str,
    release: str,
    raised: Collection[str] = (),
    ruleset: rules.RuleSet = rules.BUILTIN,
) -> str | None:
    """The rule whose vLLM error text vLLM's message is, for this release; where rules share
    a text (VL121 and VL407: one vLLM check, two causes), the one the linter raised."""
    patterns = _message_patterns(release, ruleset)
    matching = [rule_id for pattern, rule_id in patterns if pattern.search(message)]
    if matching:
        return next((r for r in matching if r in raised), matching[0])
    for pattern, rule_id in _GRAMMAR_MESSAGES:
        if pattern.search(message):
            return rule_id
    return None


@cache
def _message_patterns(
    release: str, ruleset: rules.RuleSet
) -> tuple[tuple[re.Pattern[str], str], ...]:
    patterns = []
    for rule in ruleset.all:
        if rule.rejects is None or not rule.applies_to(release):
            continue
        text = rule.vllm_error_for(release)
        if text:
            parts = re.split(r"\{[A-Za-z0-9_.]+\}", text)
            regex = ".*?".join(re.escape(p) for p in parts)
            patterns.append((re.compile(regex), rule.id))
    # the longest texts first: a message that contains a shorter rule's text is the longer one
    patterns.sort(key=lambda item: -len(item[0].pattern))
    return tuple(patterns)
