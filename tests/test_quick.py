"""The quick path (quick.py) against the whole program, on real files.

Every file of the test corpus and examples, as it is and with every mention of vLLM replaced
(real shapes of manifests, scripts, docs and Python that do not launch vLLM), is copied into a
repo without configuration. Wherever the quick path answers, the full program must print the
same and exit the same; wherever the program would say more (a configuration, a link, an
option, a comment for vllm-lint, …) the quick path must decline.
"""

from __future__ import annotations

import io
import os
import re
import shutil
from collections.abc import Iterator
from contextlib import chdir, redirect_stdout
from pathlib import Path

import pytest

from vllm_lint import cli, quick

REPO = Path(__file__).resolve().parents[1]
SOURCES = [REPO / "tests" / "corpus", REPO / "tests" / "cases", REPO / "examples"]
_VLLM = re.compile(rb"vllm", re.IGNORECASE)


def real_files() -> Iterator[tuple[str, bytes]]:
    for top in SOURCES:
        for path in sorted(top.rglob("*")):
            if path.is_file() and not path.is_symlink():
                yield str(path.relative_to(REPO)), path.read_bytes()


def full_program(args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """The whole program, its quick path turned off."""
    out = io.StringIO()
    with monkeypatch.context() as patch:
        patch.setattr(quick, "answer", lambda args, out: None)
        with redirect_stdout(out):
            code = cli.main(args)
    return code, out.getvalue()


def quick_answer(args: list[str]) -> tuple[int | None, str]:
    out = io.StringIO()
    return quick.answer(args, out), out.getvalue()


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / ".git").mkdir()  # the top: no configuration above is looked for
    with chdir(tmp_path):
        yield tmp_path


@pytest.mark.slow  # every corpus file, twice
def test_same_answer_as_the_program_on_every_real_file(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answered: list[str] = []
    declined = 0
    for name, data in real_files():
        for variant, content in (("as-is", data), ("scrubbed", _VLLM.sub(b"tgi", data))):
            path = Path(variant, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
            code, shown = quick_answer([str(path)])
            if code is None:
                declined += 1
                continue
            assert (code, shown) == full_program([str(path)], monkeypatch), path
            answered.append(str(path))
    # both outcomes are exercised on hundreds of files, or the comparison proves nothing
    assert len(answered) > 300 and declined > 300, (len(answered), declined)
    together = quick_answer(["-q", "--fail-on", "error", *answered])
    assert together == (0, "")
    assert quick_answer(answered) == full_program(answered, monkeypatch)


UNRELATED = "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{port: 80}]}\n"


def test_answers_a_commit_without_vllm_files(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Path("svc.yaml").write_text(UNRELATED)
    Path("README.md").write_text("# web\n")
    Path("pyproject.toml").write_text('[project]\nname = "web"\n')  # no [tool.vllm-lint]
    args = ["svc.yaml", "./svc.yaml", "README.md"]  # a path given twice is one file
    assert quick_answer(args) == (0, "All clean: 2 file(s) checked, 0 vLLM invocation(s).\n")
    assert quick_answer(args) == full_program(args, monkeypatch)


LAUNCH = "services:\n  llm:\n    image: vllm/vllm-openai:v0.9.2\n    command: --model m\n"


@pytest.mark.parametrize(
    "setup, args",
    [
        ({"m.yaml": LAUNCH}, ["m.yaml"]),  # worth parsing
        ({"m.yaml": UNRELATED + "# vllm-lint: ignore[VL001]\n"}, ["m.yaml"]),  # a comment for us
        ({"m.yaml": UNRELATED, ".vllm-lint.yaml": "fail-on: error\n"}, ["m.yaml"]),
        ({"m.yaml": UNRELATED, "pyproject.toml": "[tool.vllm-lint]\n"}, ["m.yaml"]),
        ({"m.yaml": UNRELATED, "pyproject.toml": "not = [toml\n"}, ["m.yaml"]),  # exit 2
        ({"m.yaml": UNRELATED, "pyproject.toml": "tool = 1\n"}, ["m.yaml"]),
        ({"a/m.yaml": UNRELATED, "a/.vllm-lint.yml": "fail-on: error\n"}, ["a/m.yaml"]),
        ({"m.yaml": UNRELATED}, ["m.yaml", "--format", "json"]),  # an option it does not know
        ({"m.yaml": UNRELATED}, ["m.yaml", "--fail-on", "everything"]),  # a usage error
        ({"m.yaml": UNRELATED}, ["."]),  # a folder
        ({"m.yaml": UNRELATED}, ["-"]),  # stdin
        ({"m.yaml": UNRELATED}, []),  # no path: the program walks `.`
        ({"m.yaml": UNRELATED}, ["missing.yaml"]),  # exit 2
        ({"node_modules/m.yaml": UNRELATED}, ["node_modules/m.yaml"]),  # excluded folder
        ({"m.yaml": UNRELATED.encode("utf-16")}, ["m.yaml"]),  # decoded before the prefilter
        ({"m.yaml": "a: 1\n" * ((1 << 20) + 1)}, ["m.yaml"]),  # over the size limit
    ],
)
def test_declines_where_the_program_may_say_more(
    repo: Path, setup: dict[str, str | bytes], args: list[str]
) -> None:
    for name, content in setup.items():
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            Path(name).write_bytes(content)
        else:
            Path(name).write_text(content)
    assert quick_answer(args) == (None, "")


def test_declines_links_and_configurations_above_the_folder(repo: Path) -> None:
    Path("m.yaml").write_text(UNRELATED)
    os.symlink("m.yaml", "link.yaml")
    assert quick_answer(["link.yaml"]) == (None, "")  # a link may lead out of the repo
    shutil.rmtree(".git")
    Path("sub").mkdir()
    Path("sub/m.yaml").write_text(UNRELATED)
    Path(".vllm-lint.yaml").write_text("fail-on: error\n")
    with chdir("sub"):  # no .git in sub: the configuration one folder up governs
        assert quick_answer(["m.yaml"]) == (None, "")
