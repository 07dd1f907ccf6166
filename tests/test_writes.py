"""One way out to the disk: `--fix`, `--write-baseline`, `--sarif-file` and `--summary-file`
write through files/writer.py only — a regular file inside the repo, through no link,
atomically, keeping its mode — and no module of the package writes a file any other way
(the contract test below parses every module; a writer added later is covered unedited).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from file_calls import scan, strays

# Where a module may write beside files/writer.py, each with why. Short on purpose: a new
# entry is a new way out, and must say why the writer cannot be it.
ALLOWED = {
    "files/writer.py": "the writer itself",
    "rules/cache.py:_store": "the per-user rule cache, in the user's cache folder (never the "
    "repo's), replaced atomically; it holds only the shipped rule files' parsed JSON",
    "action_support.py:set_outputs": "$GITHUB_OUTPUT: the runner's file, named by the runner",
    "action_support.py:_append_removed": "$GITHUB_STEP_SUMMARY: the runner's file",
    "action_support.py:_nothing_to_lint": "$GITHUB_STEP_SUMMARY and the SARIF file the "
    "workflow names",
    "action_support.py:_write": "the base commit's files for `config-from: base`: a new file "
    "of a random name (O_EXCL: never through a link), removed at the end",
    "action_support.py:base_configuration": "removes the files _write made",
    "action_support.py:base_inputs": "removes the files _write made",
    "action_support.py:main": "the runner's temporary folder: the SARIF file it names, removed",
    "cli.py:main": "stdout sent to /dev/null once the reader of the pipe has left",
}

MANIFEST = "#!/bin/sh\nvllm serve m --max-num-batched-token=8192 --swap-space 4\n"
ARGS = ("--vllm-version", "0.34.0")
links = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")


def test_no_module_writes_a_file_but_through_the_writer() -> None:
    stray, unused = strays("write", ALLOWED)
    assert not stray, "write through hooks/vllm_lint/files/writer.py:\n" + "\n".join(stray)
    assert not unused, f"allowed but no longer writing: {unused}"


@pytest.mark.parametrize(
    "source",
    [
        "def f(p):\n    open(p, 'w').write('x')\n",
        "def f(p):\n    with open(p, mode='ab') as h:\n        h.write(b'x')\n",
        "def f(p, m):\n    open(p, m)\n",
        "from pathlib import Path\ndef f():\n    Path('x').write_text('x')\n",
        "def f(p):\n    p.write_bytes(b'')\n",
        "import os\ndef f():\n    os.replace('a', 'b')\n",
        "from os import replace as r\ndef f():\n    r('a', 'b')\n",
        "import shutil as s\ndef f():\n    s.copyfile('a', 'b')\n",
        "import os\ndef f():\n    os.open('a', os.O_WRONLY | os.O_CREAT)\n",
        "import os\ndef f(fd):\n    os.fdopen(fd, 'wb')\n",
        "def f(p):\n    p.open('w')\n",
        "def f(p):\n    write = p.write_text\n    write('x')\n",
    ],
)
def test_the_contract_test_sees_every_way_of_writing(source: str) -> None:
    found = scan("new.py", source)
    assert [p for p in found if p.does == "write" and p.where == "new.py:f"], found


def _repo(tmp_path: Path) -> tuple[Path, Path]:
    """A repo with a file that has findings (one safe fix), and a folder outside it."""
    root, outside = tmp_path / "repo", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "run.sh").write_text(MANIFEST)
    return root, outside


@links
@pytest.mark.parametrize("exists", [True, False])
def test_a_baseline_link_the_repo_planted_is_refused(tmp_path: Path, exists: bool) -> None:
    root, outside = _repo(tmp_path)
    victim = outside / "victim"
    if exists:
        victim.write_text("precious\n")
    os.symlink(victim, root / "vllm-lint-baseline.json")
    run = run_cli(*ARGS, "--write-baseline", "vllm-lint-baseline.json", ".", cwd=root)
    assert run.code == 2 and run.err.count("\n") == 1, run.err
    assert "vllm-lint-baseline.json" in run.err and "a link" in run.err
    assert (victim.read_text() == "precious\n") if exists else not victim.exists()
    assert sorted(os.listdir(outside)) == (["victim"] if exists else [])
    assert sorted(os.listdir(root)) == ["run.sh", "vllm-lint-baseline.json"]  # no temp left


@links
def test_a_baseline_through_a_linked_folder_is_refused(tmp_path: Path) -> None:
    root, outside = _repo(tmp_path)
    os.symlink(outside, root / "ci")
    run = run_cli(*ARGS, "--write-baseline", "ci/vllm-lint-baseline.json", ".", cwd=root)
    assert run.code == 2 and run.err.count("\n") == 1 and "ci in its path is a link" in run.err
    assert os.listdir(outside) == []


@links
def test_a_baseline_the_caller_names_outside_the_repo_is_written_but_never_through_a_link(
    tmp_path: Path,
) -> None:
    root, outside = _repo(tmp_path)
    run = run_cli(*ARGS, "--write-baseline", "../b.json", ".", cwd=root)  # the caller's place
    assert run.code == 0 and (tmp_path / "b.json").read_text().startswith("{"), run.err
    (outside / "victim").write_text("precious\n")
    os.symlink(outside / "victim", tmp_path / "link.json")
    run = run_cli(*ARGS, "--write-baseline", "../link.json", ".", cwd=root)
    assert run.code == 2 and "a link" in run.err and run.err.count("\n") == 1, run.err
    assert (outside / "victim").read_text() == "precious\n"


def test_a_baseline_is_written_whole_and_keeps_the_file_mode(tmp_path: Path) -> None:
    root, _ = _repo(tmp_path)
    baseline = root / "vllm-lint-baseline.json"
    baseline.write_text("old\n")
    baseline.chmod(0o640)
    run = run_cli(*ARGS, "--write-baseline", baseline.name, ".", cwd=root)
    assert run.code == 0, run.err
    assert baseline.read_text().startswith('{\n "vllm-lint-baseline": 1')
    assert stat.S_IMODE(baseline.stat().st_mode) == 0o640
    assert sorted(os.listdir(root)) == ["run.sh", "vllm-lint-baseline.json"]


@links
def test_fix_does_not_write_through_a_link(tmp_path: Path) -> None:
    root, _ = _repo(tmp_path)
    (root / "scripts").mkdir()
    os.replace(root / "run.sh", root / "scripts" / "real.sh")
    os.symlink("scripts/real.sh", root / "run.sh")  # inside the repo: linted, never written
    run = run_cli(*ARGS, "--fix", "run.sh", cwd=root)
    assert run.code == 1
    assert run.err == "vllm-lint: run.sh: not fixed: a link (vllm-lint writes through none)\n"
    assert (root / "scripts" / "real.sh").read_text() == MANIFEST
    assert os.path.islink(root / "run.sh")
    assert "VL008" in run.out  # still reported: nothing was fixed


@links
def test_fix_writes_the_repo_file_not_its_hard_links_and_keeps_its_mode(tmp_path: Path) -> None:
    root, outside = _repo(tmp_path)
    script = root / "run.sh"
    script.chmod(0o755)
    os.link(script, outside / "twin.sh")  # the same inode, outside the repo
    run = run_cli(*ARGS, "--fix", "run.sh", cwd=root)
    assert run.code == 1 and run.err == "", run.err  # VL002 stays (unsafe fix not asked)
    assert "--max-num-batched-tokens=8192" in script.read_text()
    assert (outside / "twin.sh").read_text() == MANIFEST  # replaced, not written in place
    assert stat.S_IMODE(script.stat().st_mode) == 0o755
    assert sorted(os.listdir(root)) == ["run.sh"]


@links
@pytest.mark.parametrize("option", ["--sarif-file", "--summary-file"])
def test_a_report_file_the_repo_planted_as_a_link_is_refused(tmp_path: Path, option: str) -> None:
    root, outside = _repo(tmp_path)
    os.symlink(outside / "victim", root / "report.out")
    run = run_cli(*ARGS, option, "report.out", ".", cwd=root)
    assert run.code == 2 and run.err.count("\n") == 1 and "report.out" in run.err, run.err
    assert os.listdir(outside) == []
    elsewhere = tmp_path / "runner-temp.out"  # outside the repo: the caller's own place
    run = run_cli(*ARGS, option, str(elsewhere), ".", cwd=root)
    assert run.code == 1 and elsewhere.stat().st_size > 0, run.err
