"""Findings at the smallest wrong text (issue 26): a key inside a flag's JSON value, a nested key
of a `--config` file, with the flag as a related place. The golden cases of every carrier are in
tests/cases/spans/; these tests hold the properties the goldens show by example."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import REPO, run_cli, write
from vllm_lint.read.jsonpos import members

SPANS = REPO / "tests" / "cases" / "spans"


def test_members_are_located_in_the_json_text() -> None:
    text = '{"method": "ngram", "d": {"tensor_parallel_size": 2}, "l": [{"x": 1}], "b": true}'
    found = {m.path: (text[m.key_start : m.key_end], text[m.value_start : m.value_end])
             for m in members(text)}  # fmt: skip
    assert found == {
        "method": ("method", '"ngram"'),
        "d": ("d", '{"tensor_parallel_size": 2}'),
        "d.tensor_parallel_size": ("tensor_parallel_size", "2"),
        "l": ("l", '[{"x": 1}]'),  # no paths inside lists: vLLM's keys are objects' keys
        "b": ("b", "true"),
    }
    for broken in ("[1, 2]", '{"a": 1', '{"a": 1} trailing', '{"a" 1}', '{"a": 1,}', ""):
        assert members(broken) == [], broken


def _findings(folder: Path) -> list[dict[str, object]]:
    run = run_cli("-o", "json", ".", cwd=folder)
    assert run.code == 1, run.err
    return list(json.loads(run.out)["findings"])


def _text_at(folder: Path, finding: dict[str, object]) -> str:
    lines = (folder / str(finding["path"])).read_text("utf-8").split("\n")
    first, last = int(finding["line"]) - 1, int(finding["end_line"]) - 1  # type: ignore[call-overload]
    col, end = int(finding["col"]) - 1, int(finding["end_col"]) - 1  # type: ignore[call-overload]
    if first == last:
        return lines[first][col:end]
    return "\n".join([lines[first][col:], *lines[first + 1 : last], lines[last][:end]])


@pytest.mark.parametrize("case", sorted(p.name for p in SPANS.iterdir() if p.is_dir()))
def test_a_key_finding_points_at_its_key_and_relates_the_flag(case: str) -> None:
    """In every carrier's case, a finding about a key of a JSON value (VL006 names it, VL295
    is about `tensor_parallel_size`) spans text that starts with that key, and names the flag
    or its value as a related place elsewhere."""
    folder = SPANS / case
    judged = 0
    for finding in _findings(folder):
        message = str(finding["message"])
        if finding["rule"] == "VL006":
            key = message.split("has no key '")[1].split("'")[0]
        elif finding["rule"] == "VL295":
            key = "tensor_parallel_size"
        else:
            continue
        judged += 1
        assert _text_at(folder, finding).lstrip("\"'\\").startswith(key), finding
        related = finding["related"]
        assert related, finding
        place = related[0]["span"] if "span" in related[0] else related[0]  # type: ignore[index]
        assert (place["line"], place["col"]) != (finding["line"], finding["col"]), finding
    assert judged, f"{case}: no key finding to judge"


def test_a_key_the_file_does_not_hold_verbatim_keeps_the_flag(tmp_path: Path) -> None:
    """A key YAML decodes from an escape (`\\x74ensor…` is `tensor…`) is not in the file as
    vLLM reads it: the finding stays on the whole value, never on a wrong place."""
    write(
        tmp_path,
        "deploy.yaml",
        r"""
        apiVersion: apps/v1
        kind: Deployment
        spec:
          template:
            spec:
              containers:
                - name: vllm
                  image: vllm/vllm-openai:v0.28.0
                  args: [m, --speculative-config, "{\"method\": \"ngram\", \"num_speculative_tokens\": 2, \"\x74ensor_parallel_size\": 2}"]
        """,
    )
    (finding,) = _findings(tmp_path)
    assert finding["rule"] == "VL295"
    assert _text_at(tmp_path, finding).startswith("--speculative-config")  # the flag and value


def test_sarif_carries_the_flag_as_a_related_location() -> None:
    run = run_cli("-o", "sarif", ".", cwd=SPANS / "yaml-list")
    results = json.loads(run.out)["runs"][0]["results"]
    (result,) = [r for r in results if r["ruleId"] == "VL295"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (16, 65)
    related = [r["physicalLocation"]["region"] for r in result["relatedLocations"]]
    assert [(r["startLine"], r["startColumn"]) for r in related] == [(15, 15)]


def test_dotted_keys_meet_the_rule_of_the_key(tmp_path: Path) -> None:
    """`--speculative-config.tensor_parallel_size 2` writes only the key's path: the rule on
    --speculative-config still runs, at that key (it was silent before)."""
    write(
        tmp_path,
        "serve.sh",
        "vllm serve m --speculative-config.method ngram "
        "--speculative-config.tensor_parallel_size 2\n",
    )
    run = run_cli("--vllm-version", "0.28.0", "-o", "concise", ".", cwd=tmp_path)
    assert "serve.sh:1:48: VL295" in run.out, run.out
