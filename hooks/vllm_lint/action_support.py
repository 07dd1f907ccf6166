"""The GitHub Action's lint step: inputs (from the environment), one vllm-lint run, step outputs.

action.yml hands every input over through `env:`, never through the script text. This module
checks the inputs, narrows the paths to the files a pull request or push changed when asked,
runs the CLI in a child process (its output is the step's log: annotations, the job summary,
the SARIF file), says what the repository's configuration removed from the report, and writes
`findings-count` and `sarif-file` to `$GITHUB_OUTPUT`.
Run as `python -I -m vllm_lint.action_support`; the exit code is the CLI's.

The checkout may come from an untrusted pull request. Nothing in it is imported or run: every
interpreter is isolated (`-I`), git runs only plumbing that runs no hook, filter or driver, and
text from the checkout (file names, the CLI's error messages) reaches the log only in a form
the runner does not read as a workflow command.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import unquote

from vllm_lint.files.layout import CONFIG_NAMES
from vllm_lint.report.escape import inert
from vllm_lint.report.github import escape_data, escape_property

PREFIX = "GHA_VLLM_LINT_"
FAIL_ON = ("error", "warning", "info", "never")
CONFIG_FROM = ("head", "base")
EXIT_USAGE, EXIT_INTERNAL = 2, 3
_NO_COMMIT = "0" * 40  # `github.event.before` of a push that created the branch
# Options the action sets itself: `args` may not change what the action reads back.
_OWN_OPTIONS = (
    "--format",
    "-o",
    "--output-format",
    "--sarif-file",
    "--summary-file",
    "--show-invocations",
    "--statistics",
)
_MAX_LISTED = 20  # removed findings named in the log; the job summary lists up to 100
_BASE_FILE_BYTES = 1 << 20


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
    args: tuple[str, ...] = ()
    config_from: str = "head"


def read_inputs(env: Mapping[str, str]) -> Inputs:
    def get(name: str, default: str = "") -> str:
        return env.get(PREFIX + name, default).strip()

    def split(name: str, value: str) -> tuple[str, ...]:
        try:
            return tuple(shlex.split(value))
        except ValueError as exc:
            raise InputError(f"{name}: {exc}") from None

    paths = split("paths", get("PATHS", "."))
    fail_on = get("FAIL_ON").lower()  # empty: the configuration's, else the CLI's default
    if fail_on and fail_on not in FAIL_ON:
        raise InputError(f"fail-on: {fail_on!r} is not one of {', '.join(FAIL_ON)}")
    only_changed = get("ONLY_CHANGED", "false").lower() or "false"
    if only_changed not in ("true", "false"):
        raise InputError(f"only-changed: {only_changed!r} is not true or false")
    limit = get("ANNOTATE_LIMIT", "10") or "10"
    if not re.fullmatch(r"[0-9]{1,9}", limit):  # not isdigit: `²` is a digit to it
        raise InputError(f"annotate-limit: {limit!r} is not a whole number (0 or more)")
    config_from = get("CONFIG_FROM", "head").lower() or "head"
    if config_from not in CONFIG_FROM:
        raise InputError(f"config-from: {config_from!r} is not head or base")
    args = split("args", get("ARGS"))
    for arg in args:
        name = arg.split("=", 1)[0]
        if name in _OWN_OPTIONS or (name.startswith("-o") and not name.startswith("--")):
            raise InputError(f"args: {name} is set by the action itself")
        if name in ("--config", "--no-config"):
            raise InputError(f"args: {name}: use the config and config-from inputs")
        if arg == "--":
            raise InputError("args: give paths with the paths input")
    return Inputs(
        paths=paths or (".",),
        vllm_version=get("VLLM_VERSION"),
        config=get("CONFIG"),
        fail_on=fail_on,
        only_changed=only_changed == "true",
        sarif_file=get("SARIF_FILE"),
        annotate_limit=int(limit),
        args=args,
        config_from=config_from,
    )


# -- git (plumbing only: no hook, filter, textconv or external diff runs) ------------------------


def _git(*args: str) -> subprocess.CompletedProcess[bytes] | None:
    command = ["git", "-c", "core.fsmonitor=false", "-c", "core.quotepath=off", *args]
    try:
        return subprocess.run(command, capture_output=True, check=False, timeout=120)
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
        "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv",
        "--diff-filter=d", "--relative", base, "HEAD", "--",
    )  # fmt: skip
    if proc is None or proc.returncode != 0:
        return None
    return [os.fsdecode(raw) for raw in proc.stdout.split(b"\0") if raw]


def _blob(rev: str, path: str) -> bytes | None:
    """A file's bytes at a commit (`git cat-file`: no filter runs), None if it has none."""
    if path.startswith("-"):
        return None
    proc = _git("cat-file", "blob", f"{rev}:{path}")
    if proc is None or proc.returncode != 0 or len(proc.stdout) > _BASE_FILE_BYTES:
        return None
    return proc.stdout


def under(path: str, roots: Sequence[str]) -> bool:
    """Is `path` (relative to the current folder) one of `roots` or inside one of them?"""
    target = os.path.normpath(path)
    for root in roots:
        folder = os.path.normpath(os.path.relpath(root) if os.path.isabs(root) else root)
        if folder == os.curdir or target == folder or target.startswith(folder + os.sep):
            return True
    return False


# -- the CLI ----------------------------------------------------------------------------------


def _cli(*args: str) -> list[str]:
    # -I: the current folder (the checkout) is not on the child's path either
    return [sys.executable, "-I", "-m", "vllm_lint", *args]


def cli_arguments(
    inputs: Inputs, targets: Sequence[str], sarif_file: str, config: str | None = None
) -> list[str]:
    args = ["--format", "github", "--annotate-limit", str(inputs.annotate_limit)]
    args += ["--sarif-file", sarif_file]
    if inputs.fail_on:
        args += ["--fail-on", inputs.fail_on]
    return [*args, *_shared_arguments(inputs, config), "--", *targets]


def _shared_arguments(inputs: Inputs, config: str | None) -> list[str]:
    """What both runs (the report, and the one without configuration) are given."""
    args = []
    if inputs.vllm_version:
        args += ["--vllm-version", inputs.vllm_version]
    if config:
        args += ["--config", config]
    return [*args, *inputs.args]


def _command(kind: str, message: str) -> None:
    print(f"::{kind} title={escape_property('vllm-lint')}::{escape_data(message)}", flush=True)


def set_outputs(path: str, values: Mapping[str, str]) -> None:
    """Append step outputs in the multi-line form, so no value can forge another output."""
    with open(path, "a", encoding="utf-8") as handle:
        for name, value in values.items():
            delimiter = f"ghadelimiter_{secrets.token_hex(16)}"
            handle.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


def _sarif_results(sarif_file: str) -> list[dict[str, Any]] | None:
    try:
        with open(sarif_file, encoding="utf-8") as handle:
            document = json.load(handle)
        return [result for run in document["runs"] for result in run["results"]]
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
    """The CLI's stdout (workflow commands it escaped itself) is the log. Its stderr may quote
    the checkout (a YAML error's text, a file name): copied line by line in inert form, and its
    one-line errors become annotations."""
    proc = subprocess.run(
        _cli(*args), stderr=subprocess.PIPE, encoding="utf-8", errors="replace", check=False
    )
    lines = [line for line in proc.stderr.split("\n") if line.strip()]
    for line in lines:
        print(inert(line), file=sys.stderr, flush=True)
    if proc.returncode == EXIT_USAGE:
        for line in lines:
            if line.startswith("vllm-lint: "):
                _command("error", line.removeprefix("vllm-lint: "))
    elif proc.returncode not in (0, 1):
        what = next((line for line in lines if "internal error" in line), "no message")
        _command(
            "error",
            f"vllm-lint stopped with exit code {proc.returncode} (3: an internal error, a bug "
            f"in vllm-lint; please report it): {what}",
        )
    return proc.returncode


def _nothing_to_lint(sarif_file: str, summary: str) -> None:
    from vllm_lint.report import ReportContext, sarif

    sarif.write_file(sarif_file, [], ReportContext(files_checked=0, invocations=0))
    message = "No changed file under the given paths: nothing to lint."
    print(f"vllm-lint: {message}", flush=True)
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(f"## vllm-lint\n\n{message}\n")


# -- config-from: base ------------------------------------------------------------------------


def _base_config_source(inputs: Inputs, base: str) -> tuple[str, dict[str, Any]]:
    """The configuration file of the base commit (the `config` input's path, else the
    repository's top-level one) and its settings; empty settings when it has none."""
    names = [inputs.config] if inputs.config else list(CONFIG_NAMES)
    for name in names:
        relative = PurePosixPath(os.path.relpath(name).replace(os.sep, "/")).as_posix()
        raw = _blob(base, relative)
        if raw is None:
            if inputs.config:
                raise InputError(f"config-from: base: the base commit has no {inputs.config}")
            continue
        try:
            text = raw.decode("utf-8")
            if PurePosixPath(relative).name == "pyproject.toml":
                table = _toml(text).get("tool", {}).get("vllm-lint")
                if table is None and not inputs.config:
                    continue
                data = table or {}
            else:
                from ruamel.yaml import YAML

                data = YAML(typ="safe", pure=True).load(text) or {}
        except Exception as exc:  # any parse error of a file we only pass on
            raise InputError(f"config-from: base: {relative} at {base}: {exc}") from None
        if not isinstance(data, dict):
            raise InputError(f"config-from: base: {relative} at {base} is not a mapping")
        return relative, data
    return CONFIG_NAMES[0], {}


def _toml(text: str) -> dict[str, Any]:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    return tomllib.loads(text)


@contextmanager
def base_configuration(inputs: Inputs, env: Mapping[str, str]) -> Iterator[str]:
    """The base commit's configuration, and the rule packs it names, written beside where the
    file stands (so its paths mean what they mean there) under names vllm-lint never lints
    (a leading dot, no suffix); removed afterwards. Yields the path for `--config`."""
    found = base_commit(env)
    if found is None:
        raise InputError(
            "config-from: base needs the base commit in the clone (actions/checkout with "
            "fetch-depth: 2 for pull requests, 0 for pushes)"
        )
    base = found[0]
    relative, data = _base_config_source(inputs, base)
    folder = PurePosixPath(relative).parent
    token = secrets.token_hex(8)
    written: list[str] = []
    try:
        packs = []
        for number, pack in enumerate(data.get("extra-rules") or []):
            source = os.path.normpath((folder / str(pack)).as_posix()).replace(os.sep, "/")
            raw = None if source.startswith("..") else _blob(base, source)
            if raw is None:
                raise InputError(f"config-from: base: the base commit has no rule pack {pack}")
            name = f".vllm-lint-base-{token}-pack{number}"
            written.append(_write(folder / name, raw))
            packs.append(name)
        if packs:
            data = {**data, "extra-rules": packs}
        path = _write(folder / f".vllm-lint-base-{token}", json.dumps(data).encode())
        written.append(path)
        print(
            f"config-from: base: the configuration of {found[1]} ({base}): "
            f"{inert(relative) if data else 'none'}",
            flush=True,
        )
        yield path
    finally:
        for path in written:
            with suppress(OSError):
                os.remove(path)


def _write(path: PurePosixPath, data: bytes) -> str:
    target = os.path.join(*path.parts) if path.parts else str(path)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never through a link
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return target


# -- what the configuration removed -----------------------------------------------------------


def _key(rule: str, path: str, line: int, col: int) -> tuple[str, str, int, int]:
    return rule, PurePosixPath(os.path.normpath(path).replace(os.sep, "/")).as_posix(), line, col


def _reported(results: Sequence[Mapping[str, Any]]) -> Counter[tuple[str, str, int, int]]:
    found: Counter[tuple[str, str, int, int]] = Counter()
    for result in results:
        location = result["locations"][0]["physicalLocation"]
        region = location.get("region", {})
        path = unquote(location["artifactLocation"]["uri"])
        line, col = region.get("startLine", 0), region.get("startColumn", 0)
        found[_key(result["ruleId"], path, line, col)] += 1
    return found


def _unconfigured(
    inputs: Inputs, targets: Sequence[str]
) -> list[tuple[tuple[str, str, int, int], Any]] | None:
    """The findings of the same lint with no configuration file at all, keyed by place."""
    from vllm_lint.report.github import workspace_path

    args = ["--format", "json", "--fail-on", "never", "--no-config"]
    args += _shared_arguments(inputs, None)
    proc = subprocess.run(
        _cli(*args, "--", *targets), capture_output=True, check=False, encoding="utf-8"
    )
    if proc.returncode != 0:
        return None
    try:
        findings = json.loads(proc.stdout)["findings"]
    except (ValueError, KeyError, TypeError):
        return None
    keyed = []
    for finding in findings:
        line = finding["line"]
        col = finding["col"] if line >= 1 else 0
        keyed.append((_key(finding["rule"], workspace_path(finding["path"]), line, col), finding))
    return keyed


def report_removed(
    inputs: Inputs,
    targets: Sequence[str],
    sarif_file: str,
    code: int,
    env: Mapping[str, str],
) -> None:
    """Lint again without any configuration, and say plainly which findings (rules, files)
    the configuration removed, and when its fail-on let the step pass; a warning when the pull
    request changed a configuration file."""
    results = _sarif_results(sarif_file)
    keyed = _unconfigured(inputs, targets) if results is not None else None
    if results is None or keyed is None:
        return
    kept = _reported(results)
    removed = []
    for key, finding in keyed:
        if kept[key] > 0:
            kept[key] -= 1
        else:
            removed.append(finding)
    # fail-on of the configuration (the input overrides it) let findings through
    passed = (
        not inputs.fail_on
        and code == 0
        and any(r.get("level") in ("error", "warning") for r in results)
    )
    if not removed and not passed:
        return
    changed = _changed_configs(env)
    parts = []
    if removed:
        by_rule = Counter(f["rule"] for f in removed)
        files = sorted({f["path"] for f in removed})
        rules = ", ".join(f"{rule} ({n})" for rule, n in sorted(by_rule.items()))
        shown = ", ".join(inert(f) for f in files[:_MAX_LISTED])
        more = f" and {len(files) - _MAX_LISTED} more" if len(files) > _MAX_LISTED else ""
        parts.append(
            f"the configuration removed {len(removed)} finding(s) that vllm-lint reports "
            f"without it: rules {rules}; in {len(files)} file(s): {shown}{more}"
        )
    if passed:
        parts.append("the configuration's fail-on lets this step pass")
    if changed:
        names = ", ".join(inert(c) for c in changed[:_MAX_LISTED])
        message = (
            f"This change edits the vllm-lint configuration ({names}), and "
            + "; ".join(parts)
            + ". Set `config-from: base` to lint with the base commit's configuration."
        )
        _command("warning", message)
    else:
        _command("notice", "; ".join(parts).capitalize() + ".")
    summary = env.get("GITHUB_STEP_SUMMARY", "")
    if summary and removed:
        _append_removed(summary, removed, changed)


def _changed_configs(env: Mapping[str, str]) -> list[str]:
    """The configuration files a pull request or push changed (or added, or deleted)."""
    found = base_commit(env)
    if found is None:
        return []
    proc = _git("diff", "--name-only", "-z", "--no-ext-diff", "--no-textconv", found[0], "HEAD")
    if proc is None or proc.returncode != 0:
        return []
    names = [os.fsdecode(raw) for raw in proc.stdout.split(b"\0") if raw]
    return [n for n in names if PurePosixPath(n).name in CONFIG_NAMES]


def _append_removed(
    path: str, removed: Sequence[Mapping[str, Any]], changed: Sequence[str]
) -> None:
    from vllm_lint.report.markdown import cell

    lines = ["", "### What the configuration removed", ""]
    if changed:
        edited = ", ".join(f"`{cell(c)}`" for c in changed)
        lines += [f"This change edits the configuration: {edited}.", ""]
    lines += [
        f"{len(removed)} finding(s) are reported without the configuration and not with it:",
        "",
        "| rule | where |",
        "|---|---|",
    ]
    for finding in removed[:100]:
        where = f"{finding['path']}:{finding['line']}"
        lines.append(f"| {cell(finding['rule'])} | {cell(where)} |")
    if len(removed) > 100:
        lines.append(f"\n{len(removed) - 100} more not shown.")
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


# -- the step -----------------------------------------------------------------------------------


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
        elif inputs.config_from == "base":
            with base_configuration(inputs, env) as config:
                code = _lint(inputs, targets, sarif_file, config, env)
        else:
            code = _lint(inputs, targets, sarif_file, inputs.config or None, env)
    except (InputError, OSError) as exc:
        _command("error", str(exc))
        return EXIT_USAGE
    outputs = {"sarif-file": sarif_file if os.path.exists(sarif_file) else ""}
    results = _sarif_results(sarif_file)
    outputs["findings-count"] = "" if results is None else str(len(results))
    if env.get("GITHUB_OUTPUT"):
        set_outputs(env["GITHUB_OUTPUT"], outputs)
    return code


def _lint(
    inputs: Inputs,
    targets: Sequence[str],
    sarif_file: str,
    config: str | None,
    env: Mapping[str, str],
) -> int:
    args = cli_arguments(inputs, targets, sarif_file, config)
    print(inert("vllm-lint " + shlex.join(args)), flush=True)
    code = _run(args)
    if code in (0, 1):
        report_removed(inputs, targets, sarif_file, code, env)
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
