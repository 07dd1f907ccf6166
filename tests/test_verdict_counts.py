"""tools/verdict_counts.py: the figures of issue 26 (derived verdicts, rules on derived.*,
release comparisons in effective/derive/), on the checkout and on planted files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tools import verdict_counts

pytestmark = pytest.mark.tools

ROOT = Path(__file__).resolve().parents[1]


def _rule(rule_id: str, rejects: object, flags: list[str]) -> dict[str, object]:
    return {"id": rule_id, "slug": "s", "severity": "error", "summary": "s", "message": "m",
            "flags": flags, "rejects": rejects}  # fmt: skip


def test_counts_planted_rules_and_comparisons(tmp_path: Path) -> None:
    rules = tmp_path / "rules" / "area"
    rules.mkdir(parents=True)
    verdict = {
        "properties": {
            "derived": {"properties": {"x_bad": {"const": True}}, "required": ["x_bad"]}
        },
        "required": ["derived"],
    }
    mixed = {"allOf": [{"properties": {"a": {"const": 1}}}, verdict]}
    plain = {"properties": {"a": {"const": 1}}, "required": ["a"]}
    pack = {"rules": [_rule("VL1", verdict, ["derived.x_bad"]), _rule("VL2", mixed, ["a"]),
                      _rule("VL3", plain, ["a"]), _rule("VL3", plain, ["a"])]}  # fmt: skip
    (rules / "VL1.json").write_text(json.dumps(pack))
    derive = tmp_path / "derive"
    derive.mkdir()
    (derive / "m.py").write_text(
        "def f(release, other):\n"
        "    if (0, 27, 0) <= release < (0, 30, 0):\n"  # two comparisons with a release
        "        return other > 3\n"  # not a release
        "    return release == (0, 31, 0)\n"
    )
    figures = verdict_counts.measure(tmp_path / "rules", derive)
    assert figures["derived_verdicts"] == ["x_bad"]
    assert figures["derived_booleans_compared"] == ["x_bad"]
    assert (figures["rules_on_derived"], figures["rules"]) == (2, 3)
    assert (figures["variants_on_derived"], figures["variants"]) == (2, 4)
    assert figures["release_comparisons"] == 3


def test_the_command_measures_the_checkout() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "tools.verdict_counts", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(run.stdout)
    assert figures == verdict_counts.measure()
    assert 0 < figures["rules_on_derived"] < figures["rules"]
    assert figures["release_comparisons"] == sum(figures["release_comparisons_per_module"].values())
    table = subprocess.run(
        [sys.executable, "-m", "tools.verdict_counts"], cwd=ROOT, capture_output=True, text=True
    )
    assert table.returncode == 0
    assert (
        f"rules on derived.*: {figures['rules_on_derived']} of {figures['rules']}" in table.stdout
    )
