"""`--write-baseline FILE` and `--baseline FILE` through the real CLI, on a copy of the real
corpus: today's findings recorded, then only new ones reported, whatever moves around them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import CORPUS, run_cli

FILE = "kubeai/values.yaml"  # 40-odd findings on 0.34.0, several on identical lines
ARGS = ("--vllm-version", "0.34.0", "--format", "json")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(CORPUS, root)
    return root


def _findings(root: Path, *args: str, cwd: Path | None = None) -> list[dict[str, object]]:
    run = run_cli(*ARGS, *args, ".", cwd=cwd or root)
    assert run.err == "" and run.code in (0, 1), run.err
    return run.findings()


def _baseline(root: Path) -> dict[str, object]:
    run = run_cli(*ARGS, "--write-baseline", "vllm-lint-baseline.json", ".", cwd=root)
    assert (run.code, run.out) == (0, "")
    document: dict[str, object] = json.loads((root / "vllm-lint-baseline.json").read_text())
    entries = document["findings"]
    assert isinstance(entries, list)
    assert run.err == f"vllm-lint: recorded {len(entries)} finding(s) in vllm-lint-baseline.json\n"
    return document


def test_the_baseline_records_today_and_hides_it(repo: Path) -> None:
    today = _findings(repo)
    document = _baseline(repo)
    assert document["vllm-lint-baseline"] == 1 and document["fingerprint"] == "vllmLint/v1"
    entries = document["findings"]
    assert isinstance(entries, list) and len(entries) == len(today) > 50
    assert {(e["path"], e["line"], e["rule"]) for e in entries} == {
        (f["path"], f["line"], f["rule"]) for f in today
    }
    assert len({e["fingerprint"] for e in entries}) == len(entries)  # twins told apart
    run = run_cli(
        "--vllm-version", "0.34.0", "--baseline", "vllm-lint-baseline.json", ".", cwd=repo
    )
    assert run.code == 0 and "All clean" in run.out


def test_lines_moving_keep_the_baseline_and_a_new_finding_is_reported(repo: Path) -> None:
    _baseline(repo)
    path = repo / FILE
    text = path.read_text("utf-8")
    # unrelated lines above, and the whole file re-indented inside a list
    shifted = "# moved by an unrelated change\n# and another\n" + text
    path.write_text(shifted, encoding="utf-8")
    assert _findings(repo, "--baseline", "vllm-lint-baseline.json") == []
    # a new launch with one more removed flag, on a line identical to known ones
    twin = "      - --max-num-batched-token=8192\n"
    assert text.count(twin) >= 2
    at = shifted.index(twin) + len(twin)
    path.write_text(shifted[:at] + "      - --swap-space=4\n" + shifted[at:], encoding="utf-8")
    new = _findings(repo, "--baseline", "vllm-lint-baseline.json")
    assert [(f["path"], f["rule"]) for f in new] == [(FILE, "VL002")]
    assert "--swap-space" in str(new[0]["message"])


def test_a_second_identical_line_is_one_new_finding(repo: Path) -> None:
    _baseline(repo)
    path = repo / FILE
    text = path.read_text("utf-8")
    line = "    - --swap-space=8\n"
    assert text.count(line) == 1
    path.write_text(text.replace(line, line + line), encoding="utf-8")
    new = _findings(repo, "--baseline", "vllm-lint-baseline.json")
    assert [(f["rule"], f["message"]) for f in new] == [
        ("VL002", next(f["message"] for f in _findings(repo) if f["line"] == 127))
    ]


def test_the_baseline_holds_from_another_folder(repo: Path) -> None:
    _baseline(repo)
    kubeai = repo / "kubeai"
    run = run_cli(*ARGS, "--baseline", "../vllm-lint-baseline.json", ".", cwd=kubeai)
    assert run.code == 0 and run.findings() == [] and run.json()["files_checked"] >= 3


def test_the_fingerprints_are_sarifs(repo: Path) -> None:
    document = _baseline(repo)
    run = run_cli("--vllm-version", "0.34.0", "--format", "sarif", ".", cwd=repo)
    prints = {
        r["partialFingerprints"]["vllmLint/v1"] for r in json.loads(run.out)["runs"][0]["results"]
    }
    assert prints == {e["fingerprint"] for e in document["findings"]}  # type: ignore[union-attr]


def test_fix_with_a_baseline_fixes_only_new_findings(repo: Path) -> None:
    _baseline(repo)
    path = repo / "kubeai" / "deepseek-r1-mi300x.yaml"
    text = path.read_text("utf-8")
    new_line = "    - --max-logprob=5\n"  # a flag the file does not set yet (VL022 otherwise)
    path.write_text(
        text.replace("    - --trust-remote-code\n", "    - --trust-remote-code\n" + new_line),
        encoding="utf-8",
    )
    run = run_cli(*ARGS, "--fix", "--baseline", "vllm-lint-baseline.json", ".", cwd=repo)
    assert run.code == 0 and run.json()["fixed"] == 1 and run.findings() == []
    fixed = path.read_text("utf-8")
    assert "    - --max-logprobs=5\n" in fixed
    assert "    - --max-num-batched-token=32768\n" in fixed  # known (VL008, fixable): left alone


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a vllm-lint baseline (invalid JSON"),
        ('{"findings": []}', "not a vllm-lint baseline of format 1"),
        ('{"vllm-lint-baseline": 1, "fingerprint": "other/v9", "findings": []}', "write it again"),
        (
            '{"vllm-lint-baseline": 1, "fingerprint": "vllmLint/v1", "findings": [1]}',
            "a list of objects",
        ),
    ],
)
def test_a_bad_baseline_is_a_one_line_error(repo: Path, content: str, message: str) -> None:
    (repo / "b.json").write_text(content, encoding="utf-8")
    run = run_cli("--baseline", "b.json", ".", cwd=repo)
    assert run.code == 2 and run.out == "" and run.err.count("\n") == 1 and message in run.err
    missing = run_cli("--baseline", "nowhere.json", ".", cwd=repo)
    assert missing.code == 2 and "cannot read baseline nowhere.json" in missing.err
