"""`--fix`, `--unsafe-fixes`, `--diff` through the real CLI, on the real corpora and on
tests/fixtures/fix-repo (every written form of a launch: shell continuations, folded and flow
YAML, a CRLF Dockerfile, a BOM, comments, a vLLM --config file whose keys are not flags as
written).

What holds for every fixed file: it still reads as before (YAML parses, `bash -n` passes, the
same launches are found), it lints clean of what was fixed, a second `--fix` changes nothing,
and the bytes outside the edits the findings reported are unchanged (the edits from
`--format json`, applied by this test on its own, give the same files as `--fix`).

After an intended change to the fixture's expected output, regenerate tests/golden/fix-repo
with `VLLM_LINT_UPDATE_GOLDEN=1 python -m pytest tests/test_fix.py` and review the diff.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from conftest import CORPUS, REPO, chdir, run_cli
from vllm_lint.options import Options
from vllm_lint.pipeline import lint_file

FIXTURE = REPO / "tests" / "fixtures" / "fix-repo"
GOLDEN = REPO / "tests" / "golden" / "fix-repo"
SHAPES = REPO / "tests" / "corpus" / "shapes"


def _copy(source: Path, tmp_path: Path) -> Path:
    root = tmp_path / source.name
    shutil.copytree(source, root)
    return root


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.parts
    }


def _json(root: Path, *args: str) -> tuple[int, dict[str, Any]]:
    run = run_cli("--format", "json", "--fail-on", "never", *args, ".", cwd=root)
    assert run.code == 0, run.err
    return run.code, run.json()


# -- an applier of the reported edits, independent of vllm_lint.fixer --------------------------


def _offset(lines: list[str], line: int, col: int) -> int:
    return sum(len(x) for x in lines[: line - 1]) + col - 1


def _apply_reported(root: Path, args: tuple[str, ...], unsafe: bool) -> int:
    """Apply the edits `--format json` reports, pass after pass, as a user could by hand:
    fixes sorted by their first edit, one that overlaps an applied one waits for the next
    pass. Returns how many passes changed something."""
    passes = 0
    while True:
        _code, doc = _json(root, *args)
        by_path: dict[str, list[list[dict[str, Any]]]] = {}
        for finding in doc["findings"]:
            fix = finding["autofix"]
            if fix and (fix["applicability"] == "safe" or unsafe):
                by_path.setdefault(fix["edits"][0]["path"], []).append(fix["edits"])
        if not by_path:
            return passes
        for path, fixes in by_path.items():
            file = root / path
            data = file.read_bytes()
            bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
            text = data[len(bom) :].decode("utf-8")
            lines = [line + "\n" for line in text.split("\n")]  # as the linter counts lines
            ranges: list[tuple[int, int, str]] = []
            unique = {
                tuple((e["line"], e["col"], e["end_line"], e["end_col"], e["content"]) for e in f)
                for f in fixes
            }
            for fix in sorted(unique):
                spans = [(_offset(lines, a, b), _offset(lines, c, d), t) for a, b, c, d, t in fix]
                if all(e <= s0 or s >= e0 for s, e, _t in spans for s0, e0, _u in ranges):
                    ranges += spans
            for start, end, content in sorted(ranges, reverse=True):
                text = text[:start] + content + text[end:]
            file.write_bytes(bom + text.encode("utf-8"))
        passes += 1


# -- what a fixed file must still be --------------------------------------------------------------


def _reads(path: Path) -> str:
    """What a file is to its own tools: YAML that parses, a shell script `bash -n` accepts."""
    if path.name.endswith((".yaml", ".yml")):
        try:
            list(YAML(typ="safe", pure=True).load_all(path.read_text("utf-8-sig")))
        except YAMLError:
            return "YAML with errors"
        return "YAML"
    if path.name.endswith(".sh") or path.read_bytes().startswith(b"#!/"):
        shell = subprocess.run(["bash", "-n", str(path)], capture_output=True, check=False)
        return "shell" if shell.returncode == 0 else "shell with errors"
    return ""


def _launches(root: Path, name: str) -> list[list[str]]:
    """The argv words of each launch the file holds."""
    with chdir(root):
        result = lint_file(name, Options(vllm_version="0.34.0", root=root))
    return [[t.text for t in launch.argv] for launch in result.invocations]


def _only_fixes_changed(before: list[str], after: list[str], written: set[str]) -> bool:
    """`after` is `before` with words deleted, or replaced by what a fix writes."""
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for op, _i1, _i2, j1, j2 in matcher.get_opcodes():
        for word in after[j1:j2] if op in ("replace", "insert") else ():
            if not any(word.startswith(text) for text in written if text):
                return False
    return True


def _key(finding: dict[str, Any]) -> tuple[str, str, str]:
    return finding["path"], finding["rule"], finding["message"]


def _wanted(finding: dict[str, Any], unsafe: bool) -> bool:
    fix = finding["autofix"]
    return bool(fix) and (unsafe or fix["applicability"] == "safe")


def _check_fixed(source: Path, tmp_path: Path, *args: str) -> Path:
    """Fix a copy of `source` with `--fix` and `args`; check the fixed files."""
    unsafe = "--unsafe-fixes" in args
    root = _copy(source, tmp_path / "fixed")
    before = _files(root)
    reads = {name: _reads(root / name) for name in before}
    launches = {name: _launches(root, name) for name in before}
    _code, first = _json(root, *args)
    run = run_cli("--format", "json", "--fail-on", "never", "--fix", *args, ".", cwd=root)
    assert run.code == 0 and run.err == "", run.err
    after = _files(root)
    changed = sorted(name for name in before if after[name] != before[name])
    assert changed, "nothing was fixed: the test would prove nothing"
    written: dict[str, set[str]] = {}  # what the fixes write, per file
    for f in first["findings"]:
        for edit in (f["autofix"] or {}).get("edits", []):
            written.setdefault(edit["path"], set()).add(edit["content"])
    for name in changed:  # each fixed file reads as before; its launches lost only fixed words
        assert _reads(root / name) == reads[name], name
        now = _launches(root, name)
        assert len(now) == len(launches[name]), name
        for old, new in zip(launches[name], now, strict=True):
            assert _only_fixes_changed(old, new, written.get(name, set())), (name, old, new)
    # clean of what was fixed: no wanted fix is left, and each fixed finding is gone
    remaining = run.json()["findings"]
    assert not [f for f in remaining if _wanted(f, unsafe)]
    for key in {_key(f) for f in first["findings"] if _wanted(f, unsafe)}:
        left_alone = [f for f in first["findings"] if _key(f) == key and not _wanted(f, unsafe)]
        assert len([f for f in remaining if _key(f) == key]) <= len(left_alone), key
    assert run.json()["fixed"] >= len([f for f in first["findings"] if _wanted(f, unsafe)])
    # idempotent: a second --fix changes nothing
    again = run_cli("--format", "json", "--fail-on", "never", "--fix", *args, ".", cwd=root)
    assert again.json()["fixed"] == 0 and _files(root) == after
    # byte for byte: the reported edits, applied independently, give the same files
    by_hand = _copy(source, tmp_path / "by-hand")
    assert _apply_reported(by_hand, args, unsafe) >= 1
    assert _files(by_hand) == after
    return root


@pytest.mark.slow  # the whole corpora, fixed and linted again
@pytest.mark.parametrize("corpus", [CORPUS, SHAPES], ids=["real-world", "shapes"])
def test_the_upgrade_fix_on_the_real_corpora(corpus: Path, tmp_path: Path) -> None:
    _check_fixed(corpus, tmp_path, "--vllm-version", "0.34.0", "--unsafe-fixes")


@pytest.mark.slow  # the whole corpus, fixed and linted again
def test_safe_fixes_only_by_default_on_the_real_corpus(tmp_path: Path) -> None:
    root = _check_fixed(CORPUS, tmp_path, "--vllm-version", "0.34.0")
    kubeai = (root / "kubeai" / "values.yaml").read_text("utf-8")
    assert "--max-num-batched-token=" not in kubeai  # VL008, safe: written in full
    assert "--swap-space=8" in kubeai  # VL002 with no replacement: dropping it is unsafe


def test_the_fixture_repo_gives_the_expected_files(tmp_path: Path) -> None:
    root = _check_fixed(FIXTURE, tmp_path, "--vllm-version", "0.34.0", "--unsafe-fixes")
    got = _files(root)
    if os.environ.get("VLLM_LINT_UPDATE_GOLDEN"):
        shutil.rmtree(GOLDEN, ignore_errors=True)
        shutil.copytree(root, GOLDEN)
    assert got == _files(GOLDEN)
    assert got["Dockerfile"].count(b"\r\n") == _files(FIXTURE)["Dockerfile"].count(b"\r\n")
    assert got["bom-compose.yaml"].startswith(b"\xef\xbb\xbf")


def test_the_fixture_repo_on_its_own_releases(tmp_path: Path) -> None:
    """Without --vllm-version: each file on the release it pins (safe fixes only)."""
    _check_fixed(FIXTURE, tmp_path)


def test_diff_writes_nothing_and_git_applies_it(tmp_path: Path) -> None:
    args = ("--vllm-version", "0.34.0", "--unsafe-fixes")
    fixed = _files(_check_fixed(FIXTURE, tmp_path, *args))
    root = _copy(FIXTURE, tmp_path / "diff")
    before = _files(root)
    run = run_cli("--diff", *args, ".", cwd=root)
    assert run.code == 1 and run.out.startswith("--- a/")
    assert run.err.startswith("Would fix ") and run.err.count("\n") == 1
    assert _files(root) == before
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "apply", "-"], cwd=root, input=run.out.encode(), check=True)
    assert _files(root) == fixed
    nothing = run_cli("--diff", *args, ".", cwd=root)
    assert (nothing.code, nothing.out, nothing.err) == (0, "", "No fixes to apply.\n")


def test_fix_exit_code_is_that_of_what_remains(tmp_path: Path) -> None:
    root = _copy(FIXTURE, tmp_path)
    run = run_cli("--fix", "--fail-on", "warning", "bom-compose.yaml", cwd=root)
    assert run.code == 0, run.out  # two safe VL003 drops fixed, nothing left
    assert "Fixed 2 finding(s)." in run.out and "All clean" in run.out
    run = run_cli("--fix", "--vllm-version", "0.34.0", "compose.yaml", cwd=root)
    assert run.code == 1  # the unsafe drops of --swap-space remain (errors)
    assert run.out.count("VL002 [error] --swap-space") == 3
    assert "No safe fixes (3 unsafe fix(es) available with --fix --unsafe-fixes)." in run.out


def test_fixable_findings_are_marked_in_every_format(tmp_path: Path) -> None:
    root = _copy(FIXTURE, tmp_path)
    text = run_cli("--vllm-version", "0.34.0", "--color", "never", "serve.sh", cwd=root).out
    assert "serve.sh:9:5: VL002 [error] [*] --task was removed" in text
    assert "serve.sh:5:5: VL002 [error] --swap-space was removed" in text  # unsafe: no [*]
    assert "        = autofix (unsafe): Remove --swap-space\n" in text
    assert (
        "[*] 4 fixable with --fix (5 unsafe fix(es) available with --fix --unsafe-fixes).\n" in text
    )
    unsafe = run_cli("--vllm-version", "0.34.0", "--unsafe-fixes", "serve.sh", cwd=root).out
    assert "[*] 9 fixable with --fix --unsafe-fixes.\n" in unsafe
    _code, doc = _json(root, "--vllm-version", "0.34.0", "serve.sh")
    [task] = [f for f in doc["findings"] if f["line"] == 9]
    assert task["autofix"] == {
        "title": "Replace --task generate with --runner generate",
        "applicability": "safe",
        "edits": [
            {"path": "serve.sh", "line": 9, "col": 5, "end_line": 9, "end_col": 11,
             "content": "--runner"},
        ],
    }  # fmt: skip
    [swap] = [f for f in doc["findings"] if f["line"] == 5]
    assert swap["autofix"]["edits"] == [  # the whole continuation line
        {"path": "serve.sh", "line": 5, "col": 1, "end_line": 6, "end_col": 1, "content": ""}
    ]


def test_sarif_carries_the_fixes(tmp_path: Path) -> None:
    from jsonschema import Draft7Validator

    from conftest import DATA

    schema = json.loads((DATA / "reference" / "sarif-schema-2.1.0.json").read_text("utf-8"))
    root = _copy(FIXTURE, tmp_path)
    run = run_cli("--format", "sarif", "--vllm-version", "0.34.0", "serve.sh", cwd=root)
    document = json.loads(run.out)
    assert not list(Draft7Validator(schema).iter_errors(document))
    results = document["runs"][0]["results"]
    [task] = [
        r for r in results if r["locations"][0]["physicalLocation"]["region"]["startLine"] == 9
    ]
    [fix] = task["fixes"]
    assert fix["properties"] == {"applicability": "safe"}
    [change] = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "serve.sh"
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 9, "startColumn": 5, "endLine": 9, "endColumn": 11},
            "insertedContent": {"text": "--runner"},
        }
    ]


def test_what_is_not_written_verbatim_is_not_fixed_and_the_hint_says_so(tmp_path: Path) -> None:
    root = _copy(FIXTURE, tmp_path)
    _code, doc = _json(root, "--vllm-version", "0.34.0", "deploy/vllm.yaml")
    in_config = [f for f in doc["findings"] if f["path"] == "deploy/engine.yaml"]
    # (4, VL906): the command line's --max-num-seq 64 overrides the file's 16
    assert {(f["line"], f["rule"]) for f in in_config} == {
        (3, "VL002"),
        (4, "VL008"),
        (4, "VL906"),
    }
    for finding in (f for f in in_config if f["rule"] != "VL906"):
        # `swap_space: 8` is the flag --swap-space, not written so
        assert finding["autofix"] is None
        assert finding["fix"].endswith("(no automatic fix: the flag is not written verbatim here)")
    before = (root / "deploy" / "engine.yaml").read_bytes()
    run_cli("--fix", "--unsafe-fixes", "--vllm-version", "0.34.0", "deploy/vllm.yaml", cwd=root)
    assert (root / "deploy" / "engine.yaml").read_bytes() == before


def test_bad_combinations_are_usage_errors(tmp_path: Path) -> None:
    root = _copy(FIXTURE, tmp_path)
    run = run_cli("--fix", "--write-baseline", "b.json", ".", cwd=root)
    assert run.code == 2 and run.err.count("\n") == 1 and "--write-baseline" in run.err
    assert not (root / "b.json").exists()


def test_every_option_is_in_the_help_the_readme_and_the_docs() -> None:
    help_text = run_cli("--help").out
    readme = (REPO / "README.md").read_text("utf-8")
    page = (REPO / "docs" / "fixes-and-baseline.md").read_text("utf-8")
    for option in ("--fix", "--unsafe-fixes", "--diff", "--baseline", "--write-baseline"):
        named = re.compile(rf"(?<![\w-]){option}(?![\w-])")
        assert named.search(help_text) and named.search(readme) and named.search(page), option


def test_a_pass_that_would_break_the_yaml_is_not_kept(tmp_path: Path) -> None:
    """The guard behind every fix: no finding makes such an edit, so one is made by hand; the
    file is linted again for real and the pass is dropped."""
    from vllm_lint import fixer
    from vllm_lint.model import Autofix, Edit, Finding, Severity, Span
    from vllm_lint.pipeline import lint_bytes, reported

    line = '    command: ["--model", "m", "--swap-space", "4"]\n'
    data = f"services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.0\n{line}".encode()
    col = line.index("]") + 1
    cut = Autofix("drop the bracket", (Edit(Span("compose.yaml", 4, col, 4, col + 1), "]", ""),))
    finding = Finding("VL002", "removed-flag", Severity.ERROR, "m", cut.edits[0].span, autofix=cut)
    options = Options(vllm_version="0.34.0", root=tmp_path)

    def relint(path: str, text: bytes) -> list[Finding]:
        return reported([lint_bytes(path, text, options)], options)

    with chdir(tmp_path):
        result = fixer.fix_file("compose.yaml", data, [finding], relint, unsafe=False)
    assert result.after == data and result.fixed == 0
    assert result.reverted == "a fix would make it unreadable (VL901)"
