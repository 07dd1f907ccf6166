"""The documentation and Python corpora (issue 20): real READMEs, docs pages, notebooks and
Python launchers from public repositories (tests/corpus/docs/, tests/corpus/python/, with
URL, commit and license in each SOURCES.md), hand-labelled in each folder's launches.json.

Every labelled launch is found at its line (or is listed in `NOT_FOUND` with the reason);
no labelled non-launch starts a launch; no finding falls on a labelled placeholder; the
flags labelled for a found launch are the flags read; every error or warning is justified.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO, run_cli
from vllm_lint.model import FileResult, Invocation
from vllm_lint.options import Options
from vllm_lint.pipeline import lint_file

CORPORA = {name: REPO / "tests" / "corpus" / name for name in ("docs", "python")}

_WRAPPER = (
    "LMCache's own CLI (`lmcache_vllm serve`, `lmcache_vllm.vllm.entrypoints…`) that forwards "
    "to vLLM: a program sources/programs.py does not know (issue 17 owns the program words)"
)
_GRPC = (
    "`python -m vllm.entrypoints.grpc_server`: vLLM's deprecated gRPC launcher "
    "(vllm/entrypoints/grpc_server.py in 0.34.0 re-exports launchers/grpc_server.main), not "
    "one of the server programs sources/programs.py knows"
)
_INLINE = "an inline code span in prose, not a code block: inline spans are not read"
# (corpus, path, line) -> why that labelled launch is not found
NOT_FOUND: dict[tuple[str, str, int], str] = {
    ("docs", "LMCache__LMCache/docs/source/examples/launching.rst", 95): _WRAPPER,
    ("docs", "LMCache__LMCache/docs/source/examples/launching.rst", 98): _WRAPPER,
    ("docs", "LMCache__LMCache/docs/source/getting_started/quickstart.rst", 11): _WRAPPER,
    ("docs", "LMCache__LMCache/examples/frontend/README.md", 12): f"{_WRAPPER}; {_INLINE}",
    ("docs", "dstackai__dstack/mkdocs/docs/examples/inference/vllm.md", 168): _GRPC,
    ("docs", "dstackai__dstack/mkdocs/docs/examples/inference/vllm.md", 183): _GRPC,
    ("docs", "meta-llama__llama-cookbook/3p-integrations/llama_on_prem.md", 71): "`python "
    "api_server.py` run from a vLLM checkout: any project's script could have that name",
    ("docs", "meta-llama__llama-cookbook/3p-integrations/llama_on_prem.md", 75): _INLINE,
    ("docs", "meta-llama__llama-cookbook/3p-integrations/llama_on_prem.md", 77): _INLINE,
    ("python", "camel-ai__camel/camel/models/vllm_model.py", 136): "`vllm server` (a typo "
    "of `serve` in CAMEL's code): not a server launch; vLLM's CLI would refuse the subcommand",
    ("python", "volcengine__verl/verl/workers/rollout/vllm_rollout/vllm_async_server.py", 363): (
        '`["serve", path] + args` parsed in-process by vLLM\'s serve subparser: a list '
        "starting with `serve` alone is no program"
    ),
}

_ASCEND = (
    "vllm-ascend registers the `ascend` quantization method from its platform plugin; vLLM "
    "itself (0.34.0 QuantizationMethods, vllm/model_executor/layers/quantization/__init__.py) "
    "has no such method: right for upstream vLLM, a limitation for Ascend hardware"
)
_NEWEST = "the page names no release, so the newest known (0.34.0)"
# (corpus, path, rule, line) -> why vLLM refuses it
_DEMO_SERVER = (
    "`python -m vllm.entrypoints.api_server`, the demo server: gone from vLLM 0.25 "
    "(schemas/rules/launch/VL500); the page pins no release, so the newest is assumed"
)
_STALE_ENV = (
    "VL015: the variable is not in that release's vllm/envs.py (schemas/envs/): vLLM ignores it "
    "(and from 0.17 logs 'Unknown vLLM environment variable'); issue 18"
)
JUSTIFIED: dict[tuple[str, str, str, int], str] = {
    **{
        ("docs", page, "VL015", line): _STALE_ENV
        for page, line in (
            ("vllm-project__production-stack/tutorials/25-v100-legacy-gpu-deployment.md", 79),
            ("vllm-project__production-stack/tutorials/25-v100-legacy-gpu-deployment.md", 149),
            ("vllm-project__recipes/Qwen/Qwen3-Next.md", 47),
            ("vllm-project__recipes/Qwen/Qwen3-Next.md", 48),
            ("vllm-project__recipes/Qwen/Qwen3-Next.md", 50),
            ("vllm-project__recipes/Qwen/Qwen3-Next.md", 51),
            ("vllm-project__vllm-ascend/docs/source/tutorials/models/Qwen3-Dense.md", 255),
        )
    },
    ("docs", "vllm-project__recipes/Qwen/Qwen3-Next.md", "VL134", 66): (
        "VL134: Qwen3-Next is hybrid; with prefix caching on by default (0.28+) vLLM needs "
        "chunked prefill for the Mamba cache, and the recipe turns it off (the page pins no "
        "release: 0.34.0 assumed; models/config.py:1103 there)"
    ),
    (
        "docs",
        "meta-llama__llama-cookbook/3p-integrations/llama_on_prem.md",
        "VL500",
        36,
    ): _DEMO_SERVER,
    (
        "docs",
        "datawhalechina__self-llm/models/Yuan2.0/04-Yuan2.0-2B vLLM部署调用.ipynb",
        "VL500",
        275,
    ): _DEMO_SERVER,
    ("docs", "AI-Hypercomputer__maxtext/docs/tutorials/inference.md", "VL011", 98): "the "
    "line ends in `\\ ` (backslash, space): bash passes ' ' as a second positional and ends "
    "the command there; argparse refuses 'unrecognized arguments'",
    ("docs", "datawhalechina__self-llm/models/Qwen3/02-Qwen3-8B-vLLM 部署调用.md", "VL002", 207): (
        f"--enable-reasoning left vLLM in 0.10.0 (schemas/renamed-flags.json); {_NEWEST}"
    ),
    (
        "docs",
        "vllm-project__production-stack/tutorials/23-whisper-api-transcription.md",
        "VL002",
        24,
    ): (f"--task left vLLM in 0.13.0 (schemas/renamed-flags.json); {_NEWEST}"),
    **{
        (
            "docs",
            "vllm-project__vllm-ascend/docs/source/tutorials/models/Qwen3-Dense.md",
            "VL005",
            n,
        ): (_ASCEND)
        for n in (241, 269, 292, 314, 336, 539, 571, 590)
    },
    ("python", "instructlab__instructlab/src/instructlab/model/backends/vllm.py", "VL005", 428): (
        "bitsandbytes left QuantizationMethods in 0.28 (vllm/model_executor/layers/"
        "quantization/__init__.py); 0.34.0 oracle: 'Unknown quantization method: bitsandbytes'"
        f"; the file pins no release, so {_NEWEST}"
    ),
}


@cache
def labels(corpus: str) -> list[dict[str, Any]]:
    data = json.loads((CORPORA[corpus] / "launches.json").read_text(encoding="utf-8"))
    return list(data["files"])


def _entries() -> list[Any]:
    return [
        pytest.param(corpus, entry, id=f"{corpus}/{entry['path']}")
        for corpus in CORPORA
        for entry in labels(corpus)
    ]


@cache
def linted(corpus: str, path: str) -> FileResult:
    root = CORPORA[corpus]
    return lint_file(str(root / path), Options(root=root))


def written(inv: Invocation) -> set[int]:
    """The lines a launch is written on: its program words (a `docker run` through its
    image, an API call from where its engine arguments are built) and its image."""
    lines = set(range(inv.anchor.line, inv.anchor.end_line + 1)) if inv.anchor else set()
    if inv.image is not None:
        lines.add(inv.image.span.line)
    return lines


def _flag(name: str) -> str:
    """A labelled flag (or keyword argument) as the flag it sets."""
    name = name.split("=")[0].split(".")[0]  # `--x.key` sets --x
    if name.startswith("-") and not name.startswith("--"):
        return name  # `-cc`, `-O3`
    return ("--" + name.lstrip("-")).replace("_", "-")


def _read_flags(invs: list[Invocation]) -> set[str]:
    """The flags the launches read, named as written (`--port={port}`: the flag is literal,
    its value not)."""
    read = set()
    for inv in invs:
        for tok in inv.argv:
            if not tok.text.startswith("-"):
                continue
            name = _flag(tok.text)
            if "{" not in name and "<" not in name:
                read |= {name, re.sub(r"^--no-", "--", name)}
    return read


@pytest.mark.parametrize(("corpus", "entry"), _entries())
def test_every_labelled_launch_is_found_at_its_line(corpus: str, entry: dict[str, Any]) -> None:
    found = linted(corpus, entry["path"]).invocations
    missing = []
    for launch in entry["launches"]:
        line = launch["line"]
        if (corpus, entry["path"], line) in NOT_FOUND:
            assert not any(line in written(i) for i in found), "found now: drop NOT_FOUND"
            continue
        at = [i for i in found if line in written(i)]
        if not at:
            missing.append(f"L{line} {launch['program']}")
            continue
        if launch["program"].startswith("production-stack helm values"):
            continue  # the labels list chart keys (`maxModelLen`), not flags
        read = _read_flags(at)
        unread = [f for f in launch["flags"] if _flag(f) not in read | {"--model"}]
        unread = [f for f in unread if not f.startswith("**")]  # `**kwargs`: not literal
        assert not unread or _explained(launch), f"L{line}: flags not read: {unread}"
    assert not missing, f"not found: {missing}; found at {[sorted(written(i)) for i in found]}"


def _explained(launch: dict[str, Any]) -> bool:
    """Flags a label lists that are, rightly, not part of the launch read."""
    note = launch["note"]
    return (
        "'\\ '" in note  # a broken continuation: the flags after it run as another command
        or "vllm_cmd.extend" in note  # instructlab: --chat-template set on one arm of an if/elif
    )


@pytest.mark.parametrize(("corpus", "entry"), _entries())
def test_no_launch_on_a_labelled_non_launch(corpus: str, entry: dict[str, Any]) -> None:
    result = linted(corpus, entry["path"])
    wrong = [
        f"L{n['line']} ({n['why']}): {i.origin}"
        for n in entry["not_launches"]
        for i in result.invocations
        if n["line"] in written(i)
    ]
    assert not wrong
    lines = {n["line"] for n in entry["not_launches"]}
    assert not [f for f in result.findings if f.span.line in lines]


@pytest.mark.parametrize(("corpus", "entry"), _entries())
def test_no_finding_on_a_placeholder(corpus: str, entry: dict[str, Any]) -> None:
    result = linted(corpus, entry["path"])
    text = (CORPORA[corpus] / entry["path"]).read_text(encoding="utf-8").split("\n")
    hit = []
    for placeholder in entry["placeholders"]:
        line = text[placeholder["line"] - 1]
        written_as = placeholder["text"]
        if entry["kind"] == "notebook":
            written_as = json.dumps(written_as, ensure_ascii=False)[1:-1]
        start = line.find(written_as)
        assert start >= 0, placeholder
        cols = range(start + 1, start + 1 + len(written_as))
        hit += [
            f"{f.rule} at L{f.span.line}:{f.span.col} on {placeholder['text']!r}"
            for f in result.findings
            if f.span.line == placeholder["line"] and (f.span.col in cols or f.span.col == start)
        ]
    assert not hit


def test_the_corpora_are_large_enough() -> None:
    """The issue asks for at least 60 files; the labels hold what the README counts."""
    files = sum(len(labels(c)) for c in CORPORA)
    launches = sum(len(e["launches"]) for c in CORPORA for e in labels(c))
    assert files >= 60, files
    assert launches >= 150, launches


def test_most_labelled_launches_are_found() -> None:
    total = sum(len(e["launches"]) for c in CORPORA for e in labels(c))
    assert total - len(NOT_FOUND) >= 160, "recall fell: 162 of 174 are found"


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_every_error_and_warning_is_justified(corpus: str) -> None:
    run = run_cli("--format", "json", "--fail-on", "never", ".", cwd=CORPORA[corpus])
    assert run.code == 0, run.err
    reported = {
        (corpus, f["path"], f["rule"], f["line"])
        for f in run.findings()
        if f["severity"] in ("error", "warning")
    }
    expected = {key for key in JUSTIFIED if key[0] == corpus}
    assert reported - expected == set(), "unexplained"
    assert expected - reported == set(), "justified but no longer reported"


def test_every_file_is_read_without_a_crash() -> None:
    for corpus, root in CORPORA.items():
        run = run_cli("--format", "json", "--fail-on", "never", ".", cwd=root)
        assert run.code == 0 and "Traceback" not in run.err, (corpus, run.err)
        assert run.json()["invocations"] >= 40


def test_not_found_lists_only_labelled_launches() -> None:
    labelled = {
        (c, e["path"], launch["line"])
        for c in CORPORA
        for e in labels(c)
        for launch in e["launches"]
    }
    assert set(NOT_FOUND) <= labelled
    assert all(Path(CORPORA[c] / p).is_file() for c, p, _ in NOT_FOUND)
