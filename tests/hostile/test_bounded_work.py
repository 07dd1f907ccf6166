"""Alias bombs, deep nesting, huge files, link loops and many files finish quickly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from childrun import lint

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits


def test_alias_bomb_finishes(tmp_path: Path) -> None:
    lines = ["a0: &a0 [vllm, serve, --use-replayssm]"]
    for i in range(1, 30):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    lines.append("services:\n  s:\n    image: vllm/vllm-openai:v0.33.0\n    command: *a29")
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    (tmp_path / "bomb-config.yaml").write_text(
        "\n".join(lines).replace(
            "a0: &a0 [vllm, serve, --use-replayssm]", "a0: &a0 {max-model-len: 1}"
        )
        + "\nmodel: m\nuse-replayssm: *a29\n"
    )
    lint(tmp_path, ".")


def test_deep_nesting_finishes(tmp_path: Path) -> None:
    (tmp_path / "deep.yaml").write_text("x: vllm\ny: " + "[" * 50_000 + "]" * 50_000 + "\n")
    (tmp_path / "deep2.yaml").write_text(
        "model: m\nmax-model-len: 1\nhf-overrides: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n"
    )
    lint(tmp_path, ".")


def test_large_file_is_capped_with_a_notice(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_text("# vllm\n" + ("#" * 99 + "\n") * 60_000)  # 6 MB
    child = lint(tmp_path, "--format", "json", "big.yaml")
    [finding] = json.loads(child.out)["findings"]
    assert finding["rule"] == "VL902" and "larger than 5242880 bytes" in finding["message"]
    # the cap is configurable
    (tmp_path / "mid.yaml").write_text("services: {}\n# vllm\n" + "k: v\n" * 30_000)
    (tmp_path / ".vllm-lint.yaml").write_text("max-file-size: 100000\n")
    [finding] = json.loads(lint(tmp_path, "--format", "json", "mid.yaml").out)["findings"]
    assert "larger than 100000 bytes" in finding["message"]
    (tmp_path / ".vllm-lint.yaml").write_text("max-file-size: 1000000\n")
    assert json.loads(lint(tmp_path, "--format", "json", "mid.yaml").out)["findings"] == []


def test_link_loops_and_links_out_of_the_root(tmp_path: Path) -> None:
    os.symlink(tmp_path, tmp_path / "loop")
    os.symlink("/etc", tmp_path / "etc-link")
    os.symlink("/etc/hostname", tmp_path / "host.yaml")
    (tmp_path / "real.yaml").write_text("a: 1\n")
    child = lint(tmp_path, "--format", "json", ".")
    data = json.loads(child.out)
    assert data["files_checked"] == 2  # real.yaml, and host.yaml reported as a link out
    assert [(f["rule"], f["path"]) for f in data["findings"]] == [("VL921", "host.yaml")]
    named = lint(tmp_path, "--format", "json", "host.yaml")
    assert [f["rule"] for f in json.loads(named.out)["findings"]] == ["VL921"]


def test_thousands_of_files(tmp_path: Path) -> None:
    for i in range(3000):
        (tmp_path / f"f{i}.yaml").write_text(
            f"apiVersion: v1\nkind: ConfigMap\ndata: {{k: '{i}'}}\n"
        )
    (tmp_path / "vllm.yaml").write_text(
        "services:\n  s:\n    image: vllm/vllm-openai:v0.28.0\n    command: [m, --use-replayssm, -sc, '{}']\n"
    )
    child = lint(tmp_path, "--format", "json", ".")
    assert json.loads(child.out)["files_checked"] == 3001


def test_documentation_and_python_traps_finish(tmp_path: Path) -> None:
    """Issue 20's readers: deep JSON in a notebook, deep and long Python expressions, names
    that refer to each other, lists grown from themselves, thousands of cells and fences with
    unclosed quotes finish, with findings or notices, never a traceback."""
    cells = [{"cell_type": "code", "source": ["!vllm serve m --swap-space 4\n"]}] * 2_000
    (tmp_path / "many.ipynb").write_text(json.dumps({"cells": cells}))
    (tmp_path / "deep.ipynb").write_text(
        '{"cells": ' + "[" * 100_000 + "]" * 100_000 + ', "v": "vllm"}'
    )
    (tmp_path / "deep.py").write_text("# vllm\nx = " + "(" * 5_000 + "1" + ")" * 5_000 + "\n")
    (tmp_path / "long.py").write_text(
        "import subprocess  # vllm\ncmd = " + " + ".join(["['vllm', 'serve', 'm']"] * 20_000) + "\n"
        "subprocess.run(cmd)\n"
    )
    (tmp_path / "names.py").write_text(
        "import os  # vllm serve\n"
        + "".join(f"a{i} = a{i + 1}\n" for i in range(5_000))
        + "a5000 = a0\n"
        "os.system(a0)\n" + "b = b + ['vllm', 'serve', 'm']\n" * 300
    )
    (tmp_path / "fences.md").write_text("```bash\nvllm serve m '\n```\n" * 2_000 + "``" * 50_000)
    child = lint(tmp_path, "--format", "json", "--fail-on", "never", ".")
    data = json.loads(child.out)
    assert data["files_checked"] == 6
    paths = {f["path"] for f in data["findings"]}
    assert "many.ipynb" in paths  # each cell's --swap-space
    assert "deep.ipynb" in paths and "deep.py" in paths  # not parsed: said so (VL907)
