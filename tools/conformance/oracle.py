"""Ask vLLM itself: run a batch of cases through shared/oracle/oracle.py in a release's environment.

The oracle is run as it is (`--batch`, one JSON case a line); this module only finds the
environment of a release, adds the model kinds this tool brings (tools/conformance/models/),
and turns the answers into verdicts. Nothing here imports vLLM.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .cases import Case
from .verdicts import Verdict

HERE = Path(__file__).resolve().parent
DEFAULT_ORACLE = HERE.parents[2] / "shared" / "oracle" / "oracle.py"


# Refusals that depend on what is installed beside vLLM or on files the oracle's config-only
# model folders lack (a tokenizer), not on the flags: a package to `pip install`
# (suffix decoding: arctic-inference; --grpc: smg-grpc-servicer), or the tokenizer itself.
_ENVIRONMENT = re.compile(
    # ("Chunked prefill is required for Mamba prefix caching" is a verdict on the flags)
    r"pip install|Install via|(?<!prefill )is required for"
    r"|Couldn't instantiate the backend tokenizer"
    r"|No module named|requires the \w+ package|in the tokenizer"
    # the hardware: the oracle stands in for one 8xH100 node (compute capability 9.0)
    r"|larger than the number of available GPUs|compute capability"
)


def environment_artifact(answer: dict[str, Any]) -> bool:
    if answer.get("accepted") or answer.get("suspect"):
        return bool(answer.get("suspect"))
    source = str(answer.get("source") or "")
    return bool(_ENVIRONMENT.search(str(answer.get("error") or ""))) or source.startswith(
        "vllm/tokenizers/"
    )


def artifact_verdict(verdict: Verdict) -> bool:
    """A recorded refusal that today's criteria would not record."""
    answer = {"accepted": verdict.accepted, "error": verdict.error, "source": verdict.source}
    return environment_artifact(answer)


class OracleError(Exception):
    """The oracle could not be run (no environment, harness failure): one line for the user."""


def default_root(release: str) -> Path:
    """The folder shared/oracle/setup.sh builds for a release (see its README)."""
    tmp = Path(tempfile.gettempdir())
    return tmp / "vllm-oracle" if release == "0.33.0" else tmp / f"vllm-oracle-{release}"


def root_for(release: str) -> Path:
    override = os.environ.get(f"VLLM_ORACLE_ROOT_{release.replace('.', '_')}")
    return Path(override) if override else default_root(release)


def _install_models(root: Path) -> None:
    """Copy this tool's extra model kinds (config.json only) beside the oracle's own."""
    for model in sorted((HERE / "models").iterdir()):
        target = root / "models" / model.name / "config.json"
        source = model / "config.json"
        if not target.exists() or target.read_bytes() != source.read_bytes():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)


def check_environment(release: str, oracle: Path = DEFAULT_ORACLE) -> Path:
    root = root_for(release)
    python = root / "venv" / "bin" / "python"
    if not python.exists():
        raise OracleError(
            f"no oracle environment for vLLM {release} at {root}: run "
            f"`VLLM_VERSION={release} bash {oracle.parent / 'setup.sh'}`"
        )
    if not oracle.exists():
        raise OracleError(f"oracle not found: {oracle}")
    return root


def ask(
    cases: Iterable[Case], release: str, oracle: Path = DEFAULT_ORACLE, chunk: int = 200
) -> Iterator[Verdict]:
    """vLLM's verdict on each case (all of `release`), in chunks so progress is kept."""
    root = check_environment(release, oracle)
    _install_models(root)
    pending = [c for c in cases if c.release == release]
    for start in range(0, len(pending), chunk):
        part = pending[start : start + chunk]
        answers = _run_batch(root, oracle, part)
        for case in part:
            answer = answers.get(case.key)
            if answer is None or answer.get("accepted") is None:
                why = (answer or {}).get("harness_error", "no answer")
                print(f"oracle {release}: skipped {case.line!r}: {why}", file=sys.stderr)
                continue
            if environment_artifact(answer):
                why = answer.get("suspect") or answer.get("error")
                print(f"oracle {release}: not recorded: {case.line!r}: {why}", file=sys.stderr)
                continue
            yield Verdict.from_answer(case, answer)
        print(
            f"oracle {release}: {min(start + chunk, len(pending))}/{len(pending)}", file=sys.stderr
        )


def _run_batch(root: Path, oracle: Path, cases: list[Case]) -> dict[str, dict[str, Any]]:
    stdin = "".join(json.dumps(c.oracle_request()) + "\n" for c in cases)
    # vLLM caches what it learns about a model class under VLLM_CACHE_ROOT, one file per class
    # name: releases sharing the default folder overwrite each other's entries and every case
    # re-inspects its model in a fresh interpreter. One cache folder per environment.
    env = {**os.environ, "VLLM_ORACLE_ROOT": str(root), "VLLM_CACHE_ROOT": str(root / "cache")}
    proc = subprocess.run(
        [str(root / "venv" / "bin" / "python"), str(oracle), "--batch"],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    answers: dict[str, dict[str, Any]] = {}
    for line in proc.stdout.splitlines():
        try:
            answer = json.loads(line)
        except ValueError:
            continue
        if isinstance(answer, dict) and "id" in answer:
            answers[answer["id"]] = answer
    if not answers:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no output"]
        raise OracleError(f"oracle failed (exit {proc.returncode}): {tail[0]}")
    return answers
