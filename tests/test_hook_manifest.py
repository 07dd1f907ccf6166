"""The hook manifest selects the files vllm-lint reads, the way pre-commit selects them:
`identify` tags each path (shebangs of executable files included) and pre-commit's own
classifier applies `files`, `exclude`, `types`, `types_or` and `exclude_types`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, chdir, write

pytestmark = pytest.mark.slow  # the real `pre-commit try-repo` builds the hook's environment

pre_commit = pytest.importorskip("pre_commit")
pytest.importorskip("identify")

from pre_commit.clientlib import load_manifest  # noqa: E402
from pre_commit.commands.run import Classifier  # noqa: E402

from vllm_lint.files.collect import expand  # noqa: E402
from vllm_lint.files.sniff import Kind, kind_for  # noqa: E402

LAUNCH = "vllm serve m --swap-space 4\n"
SAMPLES = {
    "deploy/vllm.yaml": "args: [vllm, serve, m]\n",
    "deploy/values.yml": "servingEngineSpec: {}\n",
    "config/vllm.json": "{}\n",
    "scripts/serve.sh": LAUNCH,
    "scripts/serve.bash": LAUNCH,
    "scripts/start": "#!/usr/bin/env bash\n" + LAUNCH,  # executable, shebang only
    "scripts/start-zsh": "#!/bin/zsh\n" + LAUNCH,  # executable
    "docker/Dockerfile": "FROM vllm/vllm-openai:v0.17.1\n",
    "docker/Dockerfile.cuda": "FROM vllm/vllm-openai:v0.17.1\n",
    "docker/cuda.Dockerfile": "FROM vllm/vllm-openai:v0.17.1\n",
    "docker/Containerfile": "FROM vllm/vllm-openai:v0.17.1\n",
    "make/Makefile": "serve:\n\t" + LAUNCH,
    "make/rules.mk": "serve:\n\t" + LAUNCH,
    "docs/README.md": "```bash\nvllm serve m\n```\n",
    "docs/page.mdx": "```bash\nvllm serve m\n```\n",
    "docs/guide.rst": ".. code-block:: bash\n\n   vllm serve m\n",
    "docs/serve.ipynb": '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n',
    "docs/launch.py": "import subprocess\nsubprocess.run(['vllm', 'serve', 'm'])\n",
    # never passed by the hook (the CLI and the action read the first three):
    "jobs/serve.sbatch": "#SBATCH -N 1\n" + LAUNCH,
    "jobs/justfile": "serve:\n    " + LAUNCH,
    "deploy/vllm.yaml.template": "args: [vllm, serve, m]\n",
    "requirements.txt": "vllm==0.10.1\n",
    "notes.txt": "vllm serve m\n",
    "scripts/notes": "vllm serve m\n",  # no shebang, not executable
    "chart/templates/_helpers.tpl": '{{- define "x" }}vllm{{- end }}\n',
}
EXECUTABLE = ("scripts/start", "scripts/start-zsh")
SELECTED = {
    name
    for name in SAMPLES
    if name.split("/")[0] in ("deploy", "config", "docker", "scripts", "make", "docs")
} - {"scripts/notes", "deploy/vllm.yaml.template"}


def _hook() -> dict[str, object]:
    [hook] = load_manifest(str(REPO / ".pre-commit-hooks.yaml"))
    return hook


def _repo(tmp_path: Path) -> Path:
    for name, text in SAMPLES.items():
        write(tmp_path, name, text)
    for name in EXECUTABLE:
        os.chmod(tmp_path / name, 0o755)
    return tmp_path


def _selected(root: Path) -> set[str]:
    hook = _hook()
    with chdir(root):
        classifier = Classifier.from_config(sorted(SAMPLES), "", "^$")
        return set(
            classifier.by_types(
                classifier.filenames,
                hook["types"],
                hook["types_or"],
                hook["exclude_types"],
            )
        )


def test_pre_commit_passes_manifests_scripts_dockerfiles_docs_and_python(tmp_path: Path) -> None:
    assert _selected(_repo(tmp_path)) == SELECTED


def test_every_file_the_hook_passes_is_one_vllm_lint_reads(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    for name in _selected(root):
        assert kind_for(name, (root / name).read_bytes()) is not Kind.SKIP, name


def test_a_folder_walk_reads_what_the_hook_passes_and_templates_too(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    with chdir(root):
        walked = {os.path.relpath(p) for p in expand(["."], root)}
    assert walked >= SELECTED  # the CLI and the action see at least what the hook sees
    assert "chart/templates/_helpers.tpl" in walked  # no `identify` tag: CLI/action only
    assert {"jobs/serve.sbatch", "jobs/justfile", "deploy/vllm.yaml.template"} <= walked
    assert not {"requirements.txt", "notes.txt"} & walked


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_real_hook_reports_scripts_dockerfiles_docs_and_python(tmp_path: Path) -> None:
    root = tmp_path
    write(root, "serve.sh", "vllm serve m --swap-space 4\n")
    write(
        root,
        "Dockerfile",
        'FROM vllm/vllm-openai:v0.18.1\nCMD ["--model", "m", "--swap-space", "4"]\n',
    )
    # prose is not read, a code block is
    write(
        root,
        "README.md",
        "vllm serve m --swap-space 4\n\n```bash\nvllm serve m --swap-space 4\n```\n",
    )
    write(
        root,
        "launch.py",
        "import subprocess\nsubprocess.run(['vllm', 'serve', 'm', '--swap-space', '4'])\n",
    )
    for args in (["init", "-q"], ["add", "."]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    proc = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "vllm-lint", "--all-files"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert "serve.sh:1:14: VL002" in output
    assert "Dockerfile:2:23: VL002" in output
    assert "README.md:4:14: VL002" in output and "README.md:1:" not in output
    assert "launch.py:2:40: VL002" in output
