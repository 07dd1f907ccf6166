"""The GitHub Action's lint step: inputs (from the environment), one vllm-lint run, step outputs.

action.yml hands every input over through `env:`, never through the script text. This module
checks the inputs, narrows the paths to the files a pull request or push changed when asked,
runs the CLI in a child process (its output is the step's log: annotations, the job summary,
the SARIF file), and writes `findings-count` and `sarif-file` to `$GITHUB_OUTPUT`.
Run as `python -m vllm_lint.action_support`; the exit code is the CLI's.
"""

from __future__ import annotations

import json
import os
import secrets
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vllm_lint.report.github import escape_data, escape_property

PREFIX = "GHA_VLLM_LINT_"
FAIL_ON = ("error", "warning", "info", "never")
_NO_COMMIT = "0" * 40  # `github.event.before` of a push that created the branch


class InputError(Exception):
    """An action input that cannot be used: reported as one `::error::` line, exit 2."""


@dataclass(frozen=True)
class Inputs:
    paths: tuple[str, ...]
    vllm_version: str
    config: str
    fail_on: str
    only_changed: bool
    sarif_file: str
    annotate_limit: int


def read_inputs(env: Mapping[str, str]) -> Inputs:
    def get(name: str, default: str = "") -> str:
        return env.get(PREFIX + name, default).strip()

    try:
        paths = tuple(shlex.split(get("PATHS", ".")))
    except ValueError as exc:
        raise InputError(f"paths: {exc}") from None
    fail_on = get("FAIL_ON").lower()  # empty: the configuration's, else the CLI's default
    if fail_on and fail_on not in FAIL_ON:
        raise InputError(f"fail-on: {fail_on!r} is not one of {', '.join(FAIL_ON)}")
    only_changed = get("ONLY_CHANGED", "false").lower() or "false"
    if only_changed not in ("true", "false"):
        raise InputError(f"only-changed: {only_changed!r} is not true or false")
    limit = get("ANNOTATE_LIMIT", "10") or "10"
    if not limit.isdigit():
        raise InputError(f"annotate-limit: {limit!r} is not a whole number (0 or more)")
    return Inputs(
        paths=paths or (".",),
        vllm_version=get("VLLM_VERSION"),
        config=get("CONFIG"),
        fail_on=fail_on,
        only_changed=only_changed == "true",
        sarif_file=get("SARIF_FILE"),
        annotate_limit=int(limit),
    )


def _git(*args: str) -> subprocess.CompletedProcess[bytes] | None:
    try:
        return subprocess.run(["git", *args], capture_output=True, check=False, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None


def _is_commit(rev: str) -> bool:
    proc = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    return proc is not None and proc.returncode == 0


def base_commit(env: Mapping[str, str]) -> tuple[str, str] | None:
    """The commit to diff against and how it was chosen, or None when none is in the clone."""
    candidates = [(env.get(PREFIX + "PR_BASE_SHA", ""), "the pull request's base commit")]
    if env.get("GITHUB_EVENT_NAME", "").startswith("pull_request") and _is_commit("HEAD^2"):
        candidates.append(("HEAD^1", "the base side of the pull request's merge commit"))
    if env.get("GITHUB_BASE_REF"):
        candidates.append((f"origin/{env['GITHUB_BASE_REF']}", "the base branch"))
    before = env.get(PREFIX + "PUSH_BEFORE", "")
    if before != _NO_COMMIT:
        candidates.append((before, "the commit before the push"))
    for rev, why in candidates:
        if rev and not rev.startswith("-") and _is_commit(rev):
            return rev, why
    return None


def changed_files(base: str) -> list[str] | None:
    """Files added or modified since `base`, relative to the current folder; None if git fails."""
    proc = _git(
        "-c", "core.quotepath=off", "diff", "--name-only", "-z", "--no-renames",
        "--diff-filter=d", "--relative", base, "HEAD", "--",
    )  # fmt: skip
    if proc is None or proc.returncode != 0:
        return None
    return [os.fsdecode(raw) for raw in proc.stdout.split(b"\0") if raw]


def under(path: str, roots: Sequence[str]) -> bool:
    """Is `path` (relative to the current folder) one of `roots` or inside one of them?"""
    target = os.path.normpath(path)
    for root in roots:
        folder = os.path.normpath(os.path.relpath(root) if os.path.isabs(root) else root)
        if folder == os.curdir or target == folder or target.startswith(folder + os.sep):
            return True
    return False


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "vllm_lint", *args]


def cli_arguments(inputs: Inputs, targets: Sequence[str], sarif_file: str) -> list[str]:
    args = ["--format", "github", "--annotate-limit", str(inputs.annotate_limit)]
    args += ["--sarif-file", sarif_file]
    if inputs.fail_on:
        args += ["--fail-on", inputs.fail_on]
    if inputs.vllm_version:
        args += ["--vllm-version", inputs.vllm_version]
    if inputs.config:
        args += ["--config", inputs.config]
    return [*args, "--", *targets]


def _printable(text: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def _command(kind: str, message: str) -> None:
    print(f"::{kind} title={escape_property('vllm-lint')}::{escape_data(message)}", flush=True)


def set_outputs(path: str, values: Mapping[str, str]) -> None:
    """Append step outputs in the multi-line form, so no value can forge another output."""
    with open(path, "a", encoding="utf-8") as handle:
        for name, value in values.items():
            delimiter = f"ghadelimiter_{secrets.token_hex(16)}"
            handle.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


def _count(sarif_file: str) -> int | None:
    try:
        with open(sarif_file, encoding="utf-8") as handle:
            document = json.load(handle)
        return sum(len(run["results"]) for run in document["runs"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _targets(inputs: Inputs, env: Mapping[str, str]) -> list[str]:
    if not inputs.only_changed:
        return list(inputs.paths)
    found = base_commit(env)
    files = changed_files(found[0]) if found else None
    if found is None or files is None:
        _command(
            "warning",
            "only-changed: the base commit is not in this clone (use actions/checkout with "
            "fetch-depth: 2 for pull requests, 0 for pushes); linting every path instead.",
        )
        return list(inputs.paths)
    kept = [f for f in files if under(f, inputs.paths) and os.path.lexists(f)]
    print(f"only-changed: {len(kept)} changed file(s) since {found[1]} ({found[0]})", flush=True)
    return kept


def _run(args: Sequence[str]) -> int:
    """The CLI's stdout is the log; its one-line errors also become annotations."""
    proc = subprocess.run(
        _cli(*args), stderr=subprocess.PIPE, encoding="utf-8", errors="replace", check=False
    )
    sys.stderr.write(proc.stderr)
    if proc.returncode == 2:
        for line in proc.stderr.splitlines():
            if line.startswith("vllm-lint: "):
                _command("error", line.removeprefix("vllm-lint: "))
    return proc.returncode


def _nothing_to_lint(sarif_file: str, summary: str) -> None:
    from vllm_lint.report import ReportContext, sarif

    sarif.write_file(sarif_file, [], ReportContext(files_checked=0, invocations=0))
    message = "No changed file under the given paths: nothing to lint."
    print(f"vllm-lint: {message}", flush=True)
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(f"## vllm-lint\n\n{message}\n")


def main(env: Mapping[str, str] | None = None) -> int:
    env = os.environ if env is None else env
    try:
        inputs = read_inputs(env)
        temp = env.get("RUNNER_TEMP") or tempfile.gettempdir()
        sarif_file = inputs.sarif_file or os.path.join(temp, "vllm-lint.sarif")
        if os.path.isfile(sarif_file):
            os.remove(sarif_file)  # a stale file must not be counted if this run fails early
        targets = _targets(inputs, env)
        summary = env.get("GITHUB_STEP_SUMMARY", "")
        if not targets:
            _nothing_to_lint(sarif_file, summary)
            code = 0
        else:
            args = cli_arguments(inputs, targets, sarif_file)
            print(_printable("vllm-lint " + shlex.join(args)), flush=True)
            code = _run(args)
    except (InputError, OSError) as exc:
        _command("error", str(exc))
        return 2
    outputs = {"sarif-file": sarif_file if os.path.exists(sarif_file) else ""}
    count = _count(sarif_file)
    outputs["findings-count"] = "" if count is None else str(count)
    if env.get("GITHUB_OUTPUT"):
        set_outputs(env["GITHUB_OUTPUT"], outputs)
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
