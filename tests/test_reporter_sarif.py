"""`--format sarif` and `--sarif-file`: SARIF 2.1.0 valid under the OASIS schema, right lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from jsonschema import Draft7Validator

from conftest import BAD_DEPLOYMENT as BAD
from conftest import DATA, REPO, run_cli, write
from vllm_lint.rules import registry as rules

# SARIF 2.1.0 (OASIS), vendored: https://docs.oasis-open.org/sarif/sarif/v2.1.0/
SCHEMA = DATA / "reference" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def validator() -> Draft7Validator:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema)


def sarif(validator: Draft7Validator, *args: str, cwd: Path) -> dict[str, Any]:
    run = run_cli("--format", "sarif", *args, cwd=cwd)
    assert run.err == ""
    document: dict[str, Any] = json.loads(run.out)
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    return document


def _region(location: dict[str, Any]) -> tuple[str, int, int, int, int]:
    physical = location["physicalLocation"]
    region = physical["region"]
    return (
        unquote(physical["artifactLocation"]["uri"]),
        region["startLine"],
        region["startColumn"],
        region["endLine"],
        region["endColumn"],
    )


def test_examples_validate_and_agree_with_the_json_report(validator: Draft7Validator) -> None:
    document = sarif(validator, "examples", cwd=REPO)
    expected = run_cli("--format", "json", "examples", cwd=REPO).findings()
    run = document["runs"][0]
    results = run["results"]
    assert len(results) == len(expected) > 0
    driver_rules = run["tool"]["driver"]["rules"]
    for result, want in zip(results, expected, strict=True):
        assert result["ruleId"] == want["rule"]
        assert (
            result["level"]
            == {"error": "error", "warning": "warning", "info": "note"}[want["severity"]]
        )
        assert _region(result["locations"][0]) == (
            want["path"],
            want["line"],
            want["col"],
            want["end_line"],
            want["end_col"],
        )
        related = [_region(r)[:3] for r in result.get("relatedLocations", [])]
        assert related == [(r["path"], r["line"], r["col"]) for r in want["related"]]
        assert [r["message"]["text"] for r in result.get("relatedLocations", [])] == [
            r["note"] for r in want["related"]
        ]
        assert result["message"]["text"].startswith(want["message"])
        rule = driver_rules[result["ruleIndex"]]
        known = rules.builtin(want["rule"])
        assert rule["id"] == want["rule"] and rule["name"] == want["slug"] == known.slug
        assert rule["helpUri"] == want["help_uri"]
        assert rule["shortDescription"]["text"] == known.summary
        assert rule["help"]["markdown"].startswith(f"## {known.id} {known.slug}")
    assert len({r["id"] for r in driver_rules}) == len(driver_rules)


def test_fingerprints_survive_lines_moving_and_tell_twins_apart(
    tmp_path: Path, validator: Draft7Validator
) -> None:
    write(tmp_path, "deploy/vllm.yaml", BAD)
    before = sarif(validator, "deploy", cwd=tmp_path)["runs"][0]["results"]
    shifted = "# one\n# two\n# three\n" + (tmp_path / "deploy/vllm.yaml").read_text()
    (tmp_path / "deploy/vllm.yaml").write_text(shifted, encoding="utf-8")
    after = sarif(validator, "deploy", cwd=tmp_path)["runs"][0]["results"]
    assert len(before) == len(after) == 1
    line = before[0]["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert after[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == line + 3
    assert after[0]["partialFingerprints"] == before[0]["partialFingerprints"]

    twins = shifted + "---\n" + BAD.lstrip("\n")
    (tmp_path / "deploy/vllm.yaml").write_text(twins, encoding="utf-8")
    results = sarif(validator, "deploy", cwd=tmp_path)["runs"][0]["results"]
    assert len(results) == 2
    prints = [r["partialFingerprints"]["vllmLint/v1"] for r in results]
    assert prints[0] == before[0]["partialFingerprints"]["vllmLint/v1"]
    assert prints[0] != prints[1]


def test_hostile_file_names_become_valid_uris(tmp_path: Path, validator: Draft7Validator) -> None:
    name = "deploy/odd,na:me 50%#1?.yaml"
    write(tmp_path, name, BAD)
    results = sarif(validator, "deploy", cwd=tmp_path)["runs"][0]["results"]
    uri = results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert not set(uri) & set(" #?%:,") - {"%"}
    assert unquote(uri) == name


def test_no_findings_is_a_valid_empty_run(tmp_path: Path, validator: Draft7Validator) -> None:
    write(tmp_path, "values.yaml", "replicas: 1\n")
    document = sarif(validator, ".", cwd=tmp_path)
    assert document["runs"][0]["results"] == []
    assert document["runs"][0]["tool"]["driver"]["rules"] == []


def test_sarif_file_is_written_beside_another_format(
    tmp_path: Path, validator: Draft7Validator
) -> None:
    write(tmp_path, "deploy/vllm.yaml", BAD)
    run = run_cli("--sarif-file", "out.sarif", "deploy", cwd=tmp_path)
    assert run.code == 1 and "VL101" in run.out  # the text report on stdout
    document = json.loads((tmp_path / "out.sarif").read_text("utf-8"))
    assert not list(validator.iter_errors(document))
    assert [r["ruleId"] for r in document["runs"][0]["results"]] == ["VL101"]


def test_an_unwritable_sarif_file_is_a_one_line_error(tmp_path: Path) -> None:
    write(tmp_path, "deploy/vllm.yaml", BAD)
    run = run_cli("--sarif-file", "missing/dir/out.sarif", "deploy", cwd=tmp_path)
    assert run.code == 2
    assert run.err.startswith("vllm-lint: error: cannot write missing/dir/out.sarif: ")
    assert run.err.count("\n") == 1


def test_rule_pack_rules_carry_their_own_metadata(validator: Draft7Validator) -> None:
    pack = REPO / "examples" / "rule-packs"
    document = sarif(validator, "--config", str(pack / "vllm-lint.yaml"), "examples", cwd=REPO)
    driver = {r["id"]: r for r in document["runs"][0]["tool"]["driver"]["rules"]}
    own = [rule for rule in driver if not rule.startswith("VL")]
    assert own, sorted(driver)
    texts = {
        entry["id"]: entry["summary"]
        for path in pack.glob("*.json")
        for entry in json.loads(path.read_text("utf-8"))["rules"]
    }
    for rule_id in own:
        assert driver[rule_id]["shortDescription"]["text"] == texts[rule_id]
        assert driver[rule_id]["help"]["markdown"].startswith(f"## {rule_id} ")
