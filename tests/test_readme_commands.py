"""The README's commands, as a newcomer meets them (issue 19): the two first commands run on a
copy of the repo, the pre-commit and Action snippets checked against the files they name, and
every option of the command line described in the README or docs/."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from conftest import REPO

pytestmark = pytest.mark.slow  # the README's first command: a venv and a pip install

README = (REPO / "README.md").read_text(encoding="utf-8")
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
_SHA = re.compile(r"[0-9a-f]{40}")


def blocks(language: str) -> list[str]:
    return [body for lang, body in _FENCE.findall(README) if lang == language]


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=False)


def yaml_snippet(marker: str) -> Any:
    found = [b for b in blocks("yaml") if marker in b]
    assert len(found) == 1, f"README: one yaml block with {marker!r}"
    return YAML(typ="safe").load(found[0])


def test_the_first_command_installs_and_lints_the_examples(tmp_path: Path) -> None:
    first = blocks("sh")[0].strip()
    assert "pip install" in first and first.endswith("vllm-lint examples/"), first
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard")
    assert listed.returncode == 0, listed.stderr
    clone = tmp_path / "vllm-lint"
    for name in filter(None, listed.stdout.split("\0")):
        source = REPO / name
        if source.is_file() and not source.is_symlink():  # a deleted file is still listed
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, clone / name)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    run = subprocess.run(
        ["bash", "-c", first], cwd=clone, env=env, capture_output=True, text=True, timeout=900
    )
    # exit 1: the examples hold findings, which is what a newcomer should see
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
    assert "VL101 [error]" in run.stdout and "Found " in run.stdout, run.stdout[-2000:]
    assert (clone / ".venv" / "bin" / "vllm-lint").exists()


def test_the_second_command_is_what_ci_runs() -> None:
    second = blocks("sh")[1].strip()
    assert second == "python -m pytest"
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(rf"^{re.escape(second)}\b", ci, re.M), ".ci/run must run the README's tests"


def test_the_pre_commit_snippet_names_a_commit_that_has_the_hook() -> None:
    config = yaml_snippet("repos:")
    (repo,) = config["repos"]
    rev = str(repo["rev"])
    assert _SHA.fullmatch(rev), f"rev {rev!r}: pin a full commit SHA (no tags are published)"
    kind = git("cat-file", "-t", rev)
    assert kind.stdout.strip() == "commit", f"rev {rev} is no commit of this repository"
    assert git("merge-base", "--is-ancestor", rev, "HEAD").returncode == 0
    then = YAML(typ="safe").load(git("show", f"{rev}:.pre-commit-hooks.yaml").stdout)
    now = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    for hook in repo["hooks"]:
        assert hook["id"] in {h["id"] for h in then} & {h["id"] for h in now}


def test_the_action_snippet_uses_real_inputs() -> None:
    workflow = yaml_snippet("uses: vllm-lint/vllm-lint@")
    steps = [s for job in workflow["jobs"].values() for s in job["steps"]]
    for step in steps:  # every action pinned by commit (peers.md: action security)
        assert _SHA.fullmatch(step["uses"].partition("@")[2]), step["uses"]
    (ours,) = [s for s in steps if s["uses"].startswith("vllm-lint/vllm-lint@")]
    pre_commit = yaml_snippet("repos:")["repos"][0]["rev"]
    assert ours["uses"].partition("@")[2] == pre_commit, "one release pinned in both snippets"
    action = YAML(typ="safe").load((REPO / "action.yml").read_text(encoding="utf-8"))
    assert set(ours["with"]) <= set(action["inputs"]), set(ours["with"]) - set(action["inputs"])
    comment = re.search(r"fail-on: \w+ +# ([^(\n]*)", README)
    assert comment, "the fail-on comment of the Action snippet"
    levels = set(re.findall(r"\w+", comment.group(1)))
    assert levels == {"error", "warning", "info", "never"}
    assert all(level in action["inputs"]["fail-on"]["description"] for level in levels)


def test_every_cli_example_parses() -> None:
    """Each `vllm-lint …` line of the CLI block is a command line the real parser accepts."""
    from vllm_lint.arguments import parser

    (block,) = [b for b in blocks("sh") if b.startswith("vllm-lint [PATH ...]")]
    lines = [line.partition("  #")[0].strip() for line in block.splitlines()]
    examples = [shlex.split(line)[1:] for line in lines if line.startswith("vllm-lint ")]
    tried = 0
    for args in examples:
        if args[0] in ("rules", "explain", "--version") or "[PATH" in args[0]:
            continue
        if args[0] == "flag":  # its own command line: run it as written
            import contextlib
            import io

            from vllm_lint.cli import main

            with contextlib.redirect_stdout(io.StringIO()):
                assert main(args) == 0, args
            continue
        args = args[: args.index("<")] if "<" in args else args
        parser().parse_args(args)
        tried += 1
    assert tried >= 10, tried


def test_every_option_is_described() -> None:
    from vllm_lint.arguments import parser

    docs = README + "".join(p.read_text("utf-8") for p in (REPO / "docs").glob("*.md"))
    for action in parser()._actions:
        for option in action.option_strings:
            if option in ("-h", "--help"):
                continue
            named = re.compile(rf"(?<![\w-]){re.escape(option)}(?![\w-])")
            assert named.search(docs), f"{option} is described nowhere in README.md or docs/"
