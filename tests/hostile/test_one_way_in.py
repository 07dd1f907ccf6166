"""One way in, with hostile input: what is not a linted file — the baseline, configurations, a
folder argument, the quick path's look at pyproject.toml — is read through files/reader.py
like a linted file: a regular file, inside the repo, capped, never blocking; a parsed value
of the wrong type is one line naming the file (exit 2). The contract that nothing reads
another way is tests/test_file_reads.py."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from childrun import lint, run
from test_reads import _audited

pytestmark = [
    pytest.mark.slow,  # each input is linted in a child process with time and memory limits
    pytest.mark.skipif(sys.platform == "win32", reason="links and FIFOs"),
]
SCRIPT = "#!/bin/sh\nvllm serve m --max-num-batched-token=8192\n"
ARGS = ("--vllm-version", "0.34.0")
HEAD = '{"vllm-lint-baseline": 1, "fingerprint": "vllmLint/v1", "findings": '


def _repo(tmp_path: Path) -> tuple[Path, Path]:
    root, outside = tmp_path / "repo", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "run.sh").write_text(SCRIPT)
    return root, outside


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "link-out", "folder"])
def test_a_baseline_that_is_not_a_regular_file_of_the_repo_is_refused(
    tmp_path: Path, kind: str
) -> None:
    root, outside = _repo(tmp_path)
    target = root / "b.json"
    if kind == "fifo":
        os.mkfifo(target)  # open() would wait for a writer for ever
    elif kind == "dev-zero":
        os.symlink("/dev/zero", target)  # json.load would read it to the end of memory
    elif kind == "link-out":
        (outside / "b.json").write_text(HEAD + "[]}")
        os.symlink(outside / "b.json", target)
    else:
        target.mkdir()
    lint(root, *ARGS, "--baseline", "b.json", ".", error=r"cannot read baseline b\.json: ")


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,  # deep: json recurses once per level
        HEAD + "[" * 100_000 + "]" * 100_000 + "}",
        '{"vllm-lint-baseline": true, "fingerprint": "vllmLint/v1", "findings": []}',
        HEAD + "5}",
        HEAD + "[1, 2]}",
        HEAD + '[{"fingerprint": 7}]}',
        '{"vllm-lint-baseline": 1, "fingerprint": ["vllmLint/v1"], "findings": []}',
        "[]",
        "\udcff\udcfe",  # not UTF-8 (written as bytes below)
        "",
    ],
)
def test_a_baseline_of_the_wrong_shape_is_one_line_naming_it(tmp_path: Path, text: str) -> None:
    root, _ = _repo(tmp_path)
    (root / "b.json").write_bytes(text.encode("utf-8", "surrogateescape"))
    lint(root, *ARGS, "--baseline", "b.json", ".", error=r"\bb\.json: ")


def test_a_baseline_the_linter_wrote_still_works(tmp_path: Path) -> None:
    root, _ = _repo(tmp_path)
    assert run(root, *ARGS, "--write-baseline", "b.json", ".").code == 0
    assert json.loads((root / "b.json").read_text())["findings"]
    assert "All clean" in lint(root, *ARGS, "--baseline", "b.json", ".").out


@pytest.mark.parametrize("name", [".vllm-lint.yaml", "pyproject.toml"])
def test_a_configuration_linked_out_of_the_repo_is_refused(tmp_path: Path, name: str) -> None:
    root, outside = _repo(tmp_path)
    (root / ".git").mkdir()  # the repository's top: its configuration is its own
    text = (
        "ignore: [VL008]\n" if name.endswith(".yaml") else '[tool.vllm-lint]\nignore = ["VL008"]\n'
    )
    (outside / name).write_text(text)
    os.symlink(outside / name, root / name)
    lint(root, *ARGS, ".", error=rf"{name}: cannot read: outside the linted folder")
    os.unlink(root / name)
    (root / "sub").mkdir()
    (root / "sub" / "run.sh").write_text(SCRIPT)
    os.symlink(outside / name, root / "sub" / name)  # nearer the file, not at the top
    lint(root, *ARGS, "sub/run.sh", error=rf"sub/{name}: cannot read: outside the linted folder")


def test_a_folder_argument_linked_out_of_the_checkout_is_not_walked(tmp_path: Path) -> None:
    root, outside = _repo(tmp_path)
    (outside / "deploy").mkdir()
    (outside / "deploy" / "run.sh").write_text(SCRIPT)
    os.symlink(outside / "deploy", root / "deploy")
    opened = _audited(root, tmp_path / "audit.log", *ARGS, "--format", "json", "deploy", ".")
    assert not [p for p in opened if str(outside) in os.path.realpath(p)], opened
    child = lint(root, *ARGS, "--format", "json", "deploy")
    [finding] = json.loads(child.out)["findings"]
    assert (finding["rule"], finding["path"]) == ("VL921", "deploy")
    lint(root, *ARGS, "--fix", "deploy", ".")
    assert (outside / "deploy" / "run.sh").read_text() == SCRIPT  # not rewritten
    assert "--max-num-batched-tokens=" in (root / "run.sh").read_text()  # the repo's own is


def test_the_quick_path_declines_a_configuration_linked_out_of_the_repo(tmp_path: Path) -> None:
    root, outside = _repo(tmp_path)
    (root / "notes.md").write_text("nothing to lint here\n")  # what the quick path answers
    (outside / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    os.symlink(outside / "pyproject.toml", root / "pyproject.toml")
    error = r"pyproject\.toml: cannot read: outside the linted folder"
    lint(root, "notes.md", error=error)  # as the whole program says, not "All clean"


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder", "missing"])
def test_a_named_config_that_is_not_a_regular_file_is_one_line(tmp_path: Path, kind: str) -> None:
    """`--config FILE` may name a file outside the repo (the user chose it, as with ruff), but
    only a regular file is read: a FIFO would block, /dev/zero never end."""
    root, outside = _repo(tmp_path)
    target = outside / "c.yaml"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero":
        target = Path("/dev/zero")
    elif kind == "folder":
        target.mkdir()
    why = "no such configuration file" if kind == "missing" else "not a regular file"
    lint(root, "--config", str(target), ".", error=f"{why}")


def test_a_named_config_outside_the_repo_is_read(tmp_path: Path) -> None:
    root, outside = _repo(tmp_path)
    (outside / "c.yaml").write_text("ignore: [VL008]\n")
    assert "VL008" in lint(root, *ARGS, ".").out
    assert "VL008" not in lint(root, *ARGS, "--config", str(outside / "c.yaml"), ".").out
