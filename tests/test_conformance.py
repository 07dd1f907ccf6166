"""vLLM's own verdicts, recorded by tools/conformance from the oracle, replayed against the linter.

No vLLM here: tests/data/verdicts/<release>.jsonl holds what vLLM said for each argv; the
linter must agree (vLLM refuses ⇔ an error, or a model-default warning) on at least 99 % of
each release, every disagreement must carry a reason in tools/conformance/known.json, and
every rule example must agree inside the rule's releases.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from conftest import REPO

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tools.conformance import agreement, report, verdicts
from tools.conformance.cases import RELEASES, Case

from vllm_lint.rules import registry as rules

pytestmark = pytest.mark.tools  # tools/conformance: vLLM's recorded verdicts replayed

MINIMUM = {"0.28.0": 300, "0.30.0": 300, "0.31.0": 300, "0.33.0": 1000, "0.34.0": 1000}
# refusals vLLM attributes to each family, per release, at least (the spread of the cases)
FAMILY_MINIMUM = {"VL1": 40, "VL13": 5, "VL00": 20}


@cache
def _judged() -> dict[str, list[agreement.Judgement]]:
    return {r: agreement.judge_all(vs) for r, vs in verdicts.load_all().items()}


def test_replay_needs_no_vllm() -> None:
    _judged()
    assert "vllm" not in sys.modules


@pytest.mark.parametrize("release", RELEASES)
def test_enough_verdicts_for_every_covered_release(release: str) -> None:
    judged = _judged().get(release, [])
    assert len(judged) >= MINIMUM.get(release, 300), f"{release}: {len(judged)} recorded verdicts"


@pytest.mark.parametrize("release", RELEASES)
def test_verdicts_spread_over_the_rule_families(release: str) -> None:
    refused = Counter()
    for j in _judged()[release]:
        for prefix in FAMILY_MINIMUM:
            if j.vllm_rule and j.vllm_rule.startswith(prefix):
                refused[prefix] += 1
    for prefix, least in FAMILY_MINIMUM.items():
        assert refused[prefix] >= least, f"{release}: {refused[prefix]} refusals in {prefix}*"


@pytest.mark.parametrize("release", RELEASES)
def test_agreement_with_vllm_is_at_least_99_percent(release: str) -> None:
    # With every disagreement listed with its reason (next test), a change that turns an
    # agreeing case into a disagreement fails there even while the rate stays above 99 %.
    stats = report.release_stats(release, _judged()[release])
    assert stats.rate >= 0.99, f"{release}: {stats.agree}/{stats.cases} agree"


def test_every_disagreement_has_a_reason_and_no_reason_is_stale() -> None:
    reasons = report.known_reasons()
    disagreeing = {j.verdict.case.key: j for js in _judged().values() for j in js if not j.agrees}
    unexplained = [
        f"{j.verdict.case.release} {key}: vllm serve {j.verdict.case.line} "
        f"(vLLM {'accepts' if j.verdict.accepted else 'refuses: ' + j.verdict.error}; "
        f"vllm-lint: {', '.join(j.linter_rules) or 'no error'})"
        for key, j in disagreeing.items()
        if key not in reasons
    ]
    assert not unexplained, "disagreements without a reason:\n" + "\n".join(unexplained)
    recorded = {v.case.key for vs in verdicts.load_all().values() for v in vs}
    stale = sorted(k for k in reasons if k in recorded and k not in disagreeing)
    assert not stale, f"now agree with vLLM, drop from tools/conformance/known.json: {stale}"


def _example_in_range(j: agreement.Judgement) -> bool:
    case = j.verdict.case
    if not case.family.startswith("VL") or not case.origin.startswith("example"):
        return False
    since = case.origin.split()[1].partition("@")[2]
    return any(
        r.applies_to(case.release) and (r.since or "") == since
        for r in rules.BUILTIN.variants(case.family)
    )


# Rule examples that vLLM refuses inside their rule's releases, for a reason the example did not
# mean (docs/conformance.md, "Rule examples vLLM refuses"): their owners fix the example or the
# rule, then drop the entry here. Issue 10 is done when this is empty.
# (VL222, VL321 and VL322 now have examples vLLM accepts; their old verdicts go when re-recorded.)
EXAMPLES_VLLM_REFUSES: dict[str, str] = {}


def test_rule_examples_agree_with_vllm_inside_their_releases() -> None:
    examples = [j for js in _judged().values() for j in js if _example_in_range(j)]
    assert len(examples) >= 1000
    wrong: dict[str, list[str]] = {}
    for j in examples:
        if not j.agrees:
            case = j.verdict.case
            said = "accepts" if j.verdict.accepted else "refuses: " + j.verdict.error
            wrong.setdefault(case.origin, []).append(
                f"{case.release} vllm serve {case.line} (vLLM {said})"
            )
    new = {o: w for o, w in wrong.items() if o not in EXAMPLES_VLLM_REFUSES}
    assert not new, "rule examples vLLM does not agree with:\n" + "\n".join(
        line for lines in new.values() for line in lines
    )
    fixed = sorted(set(EXAMPLES_VLLM_REFUSES) - set(wrong))
    assert not fixed, f"now agree with vLLM, drop from EXAMPLES_VLLM_REFUSES: {fixed}"


def test_proposed_rules_are_a_valid_pack_and_their_examples_hold() -> None:
    """tools/conformance/proposed-rules.json: rules the verdicts show missing, ready for the
    lead to move into schemas/rules/ (README counts the rules there)."""
    from vllm_lint.config import Config, Configs
    from vllm_lint.options import Options
    from vllm_lint.pipeline import check_command_line

    ruleset = agreement.with_pack(report.PROPOSED)
    options = Options(configs=Configs(fixed=Config(rules=ruleset)))
    for rule in ruleset.packs:
        inside = [r for r in RELEASES if rule.applies_to(r)]
        for verdict in ("fail", "pass"):
            for example in rule.examples[verdict]:
                for release in (inside[0], inside[-1]):
                    found = check_command_line(
                        example["argv"], release, example.get("env"), options=options
                    )
                    fired = rule.id in {f.rule for f in found}
                    assert fired == (verdict == "fail"), (rule.id, release, example)


@pytest.mark.parametrize("path", sorted(verdicts.VERDICTS_DIR.glob("*.jsonl")), ids=str)
def test_verdict_files_are_intact(path: Path) -> None:
    """Each record names its release, is stored under the key of what it asked, sorted;
    a hand edit of an argv or env without re-asking vLLM is caught here."""
    assert path.stat().st_size < 2_000_000
    lines = path.read_text(encoding="utf-8").splitlines()
    keys = []
    for n, line in enumerate(lines, 1):
        record = json.loads(line)
        case = verdicts.Verdict.from_record(record).case
        assert record["release"] == path.stem, f"{path}:{n}"
        assert record["key"] == case.key, f"{path}:{n}: key does not match argv/env/kind"
        assert isinstance(record["accepted"], bool)
        assert record["accepted"] or record["source"].startswith("vllm/"), f"{path}:{n}"
        keys.append(record["key"])
    assert keys == sorted(set(keys))


def test_a_broken_verdict_file_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "0.33.0.jsonl"
    bad.write_text('{"key": "x", "release": "0.33.0"}\n', encoding="utf-8")
    with pytest.raises(verdicts.VerdictFileError, match=r"0\.33\.0\.jsonl:1: not a verdict"):
        verdicts.load(bad)


def test_case_keys_depend_on_what_vllm_is_asked_only() -> None:
    a = Case.make("0.33.0", ["m", "--use-replayssm"], origin="one")
    b = Case.make("0.33.0", ["m", "--use-replayssm"], origin="two")
    c = Case.make("0.33.0", ["m", "--use-replayssm"], {"VLLM_USE_V2_MODEL_RUNNER": "0"})
    assert a.key == b.key != c.key


def test_the_python_api_agrees_with_vllm_as_the_command_line_does() -> None:
    """The Python API cases (tools/conformance/python_api.py, issue 20): the `LLM(...)` /
    `EngineArgs(...)` call itself, read by the Python reader, gets the verdict its command
    line gets (which the tests above hold to vLLM's): an error, a model-default warning, or
    nothing."""
    from tools.conformance.python_api import snippet

    from vllm_lint.model import Severity
    from vllm_lint.pipeline import check_python

    judged = [j for js in _judged().values() for j in js if j.verdict.case.family == "python-api"]
    assert {j.verdict.case.release for j in judged} >= {"0.28.0", "0.34.0"}
    assert len(judged) >= 40
    wrong = []
    for j in judged:
        case = j.verdict.case
        call = case.origin.removeprefix("python ")
        findings = check_python(snippet(call), case.release)
        if any(f.severity is Severity.ERROR for f in findings):
            status = "error"
        elif any(agreement._hedges(f) for f in findings):
            status = "hedge"
        else:
            status = "clean"
        if status != j.linter:
            wrong.append(f"{case.release} {call}: Python {status}, command line {j.linter}")
    assert not wrong


@pytest.mark.parametrize("release", RELEASES)
def test_every_mined_case_has_vllms_verdict(release: str) -> None:
    """Issue 18: every mined constraint (at its bound and one step past, every Literal and
    enum with a wrong value, every refused unknown key, the model limits) asked of vLLM."""
    from tools.conformance import mined

    recorded = {j.verdict.case.key for j in _judged()[release]}
    cases = list(mined.cases(release))
    assert len(cases) >= 150
    assert len({c.model_kind for c in cases}) >= 6
    missing = [c.origin for c in cases if c.key not in recorded]
    assert not missing, missing[:10]
