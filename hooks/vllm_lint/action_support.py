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
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import unquote

from vllm_lint.files.layout import CONFIG_NAMES
from vllm_lint.report.escape import inert
from vllm_lint.report.gate import shown
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
    known = _option_names()
    for arg in args:
        name = arg.split("=", 1)[0]
        if name.startswith("-") and name not in ("-", "--") and name not in known:
            # whole names only: argparse would take `--conf` for `--config`, `-qo` for `-q -o`
            raise InputError(f"args: {name} is not a vllm-lint option (options are matched whole)")
        if name in _OWN_OPTIONS:
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


def _option_names() -> frozenset[str]:
    """Every option string of the command line, whole (`--config`, `-o`, never a prefix)."""
    from vllm_lint.arguments import parser

    return frozenset(option for action in parser()._actions for option in action.option_strings)


def baseline_argument(args: Sequence[str]) -> tuple[list[str], str | None]:
    """`args` without `--baseline FILE` (`--baseline=FILE`), and FILE (None if not given)."""
    kept: list[str] = []
    found = None
    words = iter(args)
    for arg in words:
        if arg == "--baseline":
            found = next(words, None)
        elif arg.startswith("--baseline="):
            found = arg.split("=", 1)[1]
        else:
            kept.append(arg)
    return kept, found


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


@contextmanager
def base_inputs(inputs: Inputs, env: Mapping[str, str]) -> Iterator[Inputs]:
    """`config-from: base` beyond the configuration: a `--baseline` named in `args` is the
    base commit's copy of that file (none there: no baseline, every finding is reported), and
    in each file whose suppression comments differ from the base's, inline suppressions count
    for nothing (`--ignore-suppressions`): what they hide is reported."""
    found = base_commit(env)
    assert found is not None  # base_configuration checked it first
    base = found[0]
    args, baseline = baseline_argument(inputs.args)
    written: list[str] = []
    try:
        if baseline is not None:
            raw = _blob(base, _relative(baseline))
            if raw is None:
                _command(
                    "notice",
                    f"config-from: base: the base commit has no baseline {inert(baseline)}; "
                    "every finding is reported",
                )
            else:
                path = _write(
                    PurePosixPath(f".vllm-lint-base-{secrets.token_hex(8)}-baseline"), raw
                )
                written.append(path)
                args += [f"--baseline={path}"]
        edited = suppressions_edited(base)
        if edited:
            names = ", ".join(inert(name) for name in edited[:_MAX_LISTED])
            print(
                f"config-from: base: inline suppressions this change edits count for nothing "
                f"in {len(edited)} file(s): {names}",
                flush=True,
            )
        args += [f"--ignore-suppressions={name}" for name in edited]
        yield replace(inputs, args=tuple(args))
    finally:
        for path in written:
            with suppress(OSError):
                os.remove(path)


def _relative(name: str) -> str:
    return PurePosixPath(os.path.relpath(name).replace(os.sep, "/")).as_posix()


def _directives(data: bytes | None) -> list[bytes] | None:
    """The lines that mention vllm-lint (every suppression comment is one), sorted."""
    if data is None:
        return None
    return sorted(line.strip() for line in data.lower().splitlines() if b"vllm-lint" in line)


def suppressions_edited(base: str) -> list[str]:
    """The changed files whose suppressions the change may have put to new use: their
    suppression comments (lines naming vllm-lint) differ from the base commit's (added,
    removed, reworded), or a changed line is one a comment covers (its own, the next)."""
    edited = []
    for name in changed_files(base) or []:
        relative = _relative(name)
        after = _blob("HEAD", relative)
        if _directives(_blob(base, relative) or b"") != _directives(after) or _covers_a_change(
            base, relative, after or b""
        ):
            edited.append(name)
    return edited


_HUNK = re.compile(rb"^@@ -[0-9]+(?:,[0-9]+)? \+([0-9]+)(?:,([0-9]+))? @@", re.MULTILINE)


def _covers_a_change(base: str, path: str, text: bytes) -> bool:
    """Whether a line of `path` that names vllm-lint, or the line after it, changed since
    `base` (a suppression that the change slid a new finding under)."""
    proc = _git(
        "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", base, "HEAD", "--", path
    )
    if proc is None or proc.returncode != 0:
        return True  # cannot tell: the suppressions of this file hide nothing
    changed: set[int] = set()
    for hunk in _HUNK.finditer(proc.stdout):
        start, count = int(hunk[1]), int(hunk[2] or 1)
        changed.update(range(start, start + max(count, 1) + (count == 0)))  # a deletion: both sides
    return any(
        number in changed or number + 1 in changed
        for number, line in enumerate(text.lower().splitlines(), start=1)
        if b"vllm-lint" in line
    )


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
        # the URI is the name's bytes; `--format json` shows it as the gate does
        path = shown(unquote(location["artifactLocation"]["uri"], errors="surrogateescape"), "json")
        line, col = region.get("startLine", 0), region.get("startColumn", 0)
        found[_key(result["ruleId"], path, line, col)] += 1
    return found


class ComparisonFailed(Exception):
    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def _unconfigured(
    inputs: Inputs, targets: Sequence[str]
) -> list[tuple[tuple[str, str, int, int], Any]]:
    """The findings of the same lint with no configuration file at all, keyed by place."""
    from vllm_lint.report.github import workspace_path

    # nothing that hides findings: no configuration, no inline suppression, no baseline
    args = ["--format", "json", "--fail-on", "never", "--no-config", "--ignore-suppressions=."]
    args += baseline_argument(_shared_arguments(inputs, None))[0]
    proc = subprocess.run(
        _cli(*args, "--", *targets),
        capture_output=True,
        check=False,
        encoding="utf-8",
        errors="replace",
    )
    why = ""
    if proc.returncode not in (0, 1):
        why = f"exit code {proc.returncode}"
    else:
        try:
            findings = json.loads(proc.stdout)["findings"]
        except (ValueError, KeyError, TypeError):
            why = "output that is not vllm-lint's JSON"
    if why:
        said = [line for line in proc.stderr.split("\n") if line.strip()]
        raise ComparisonFailed(
            f"the comparison run (the same lint without configuration, suppressions or "
            f"baseline) stopped with {why}: {inert(said[-1]) if said else 'no message'}; what "
            "the configuration hides cannot be told, so the step fails",
            proc.returncode if proc.returncode not in (0, 1) else EXIT_INTERNAL,
        )
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
) -> int:
    """Lint again without configuration, suppressions or baseline, and say plainly which
    findings (rules, files) they removed, and when the configuration's fail-on let the step
    pass: a warning in the log and the job summary when the change edits any of them (or a
    rule pack), else a notice. Returns the step's failing exit code when the comparison run
    fails (a crash must not skip the warning and leave the step green), else 0."""
    results = _sarif_results(sarif_file)
    if results is None:
        return 0
    try:
        keyed = _unconfigured(inputs, targets)
    except ComparisonFailed as exc:
        _command("error", str(exc))
        return exc.code
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
    edits = _edits(inputs, env)
    packs = edits.get("rule packs", [])
    if not removed and not passed and not packs:
        return 0
    parts = []
    if removed:
        by_rule = Counter(f["rule"] for f in removed)
        files = sorted({f["path"] for f in removed})
        rules = ", ".join(f"{rule} ({n})" for rule, n in sorted(by_rule.items()))
        shown = ", ".join(inert(f) for f in files[:_MAX_LISTED])
        more = f" and {len(files) - _MAX_LISTED} more" if len(files) > _MAX_LISTED else ""
        parts.append(
            f"the configuration, suppressions and baseline removed {len(removed)} finding(s) "
            f"that vllm-lint reports without them: rules {rules}; in {len(files)} file(s): "
            f"{shown}{more}"
        )
    if passed:
        parts.append("the configuration's fail-on lets this step pass")
    if packs:
        parts.append("what an edited rule pack no longer finds is not counted here")
    if edits:
        message = (
            f"This change edits {_edited(edits, inert)}, and "
            + "; ".join(parts)
            + (
                ". With `config-from: base` the base commit's configuration, rule packs and "
                "baseline were used; suppressions the change edits hid nothing."
                if inputs.config_from == "base"
                else ". Set `config-from: base` to lint with the base commit's configuration, "
                "rule packs, baseline and suppressions."
            )
        )
        _command("warning", message)
    else:
        _command("notice", "; ".join(parts).capitalize() + ".")
    summary = env.get("GITHUB_STEP_SUMMARY", "")
    if summary and (removed or edits):
        _append_removed(summary, removed, edits)
    return 0


def _edited(edits: Mapping[str, Sequence[str]], quote: Any) -> str:
    """`the vllm-lint configuration (a, b), rule packs (c)`: what the change edits."""
    return ", ".join(
        f"{kind} ({', '.join(quote(n) for n in names[:_MAX_LISTED])})"
        for kind, names in edits.items()
    )


def _edits(inputs: Inputs, env: Mapping[str, str]) -> dict[str, list[str]]:
    """What the change (since the base commit) edits of all that can hide findings: the
    configuration files, the rule packs the base's or the head's configuration names, the
    baseline named in `args`, inline suppressions (by file)."""
    found = base_commit(env)
    if found is None:
        return {}
    base = found[0]
    proc = _git("diff", "--name-only", "-z", "--no-ext-diff", "--no-textconv", base, "HEAD")
    if proc is None or proc.returncode != 0:
        return {}
    names = {os.fsdecode(raw) for raw in proc.stdout.split(b"\0") if raw}
    configs = sorted(n for n in names if PurePosixPath(n).name in CONFIG_NAMES)
    if inputs.config and _relative(inputs.config) in names:
        configs = sorted({*configs, _relative(inputs.config)})
    packs = sorted(p for p in _packs(inputs, base) | _packs(inputs, "HEAD") if p in names)
    baseline = baseline_argument(inputs.args)[1]
    baselines = [_relative(baseline)] if baseline and _relative(baseline) in names else []
    edits = {
        "the vllm-lint configuration": configs,
        "rule packs": packs,
        "the baseline": baselines,
        "the suppression comments of": suppressions_edited(base),
    }
    return {kind: found for kind, found in edits.items() if found}


def _packs(inputs: Inputs, rev: str) -> set[str]:
    """The rule packs the configuration names at `rev`, relative to the repository."""
    try:
        relative, data = _base_config_source(inputs, rev)
    except InputError:
        return set()
    folder = PurePosixPath(relative).parent
    named = data.get("extra-rules") or []
    if not isinstance(named, list):
        return set()
    return {os.path.normpath((folder / str(p)).as_posix()).replace(os.sep, "/") for p in named}


def _append_removed(
    path: str, removed: Sequence[Mapping[str, Any]], edits: Mapping[str, Sequence[str]]
) -> None:
    from vllm_lint.report.markdown import cell

    lines = ["", "### What the configuration removed", ""]
    if edits:
        edited = _edited(edits, lambda name: f"`{cell(name)}`")
        lines += [f":warning: This change edits {edited}.", ""]
    if removed:
        lines += [
            f"{len(removed)} finding(s) are reported without the configuration, suppressions "
            "and baseline, and not with them:",
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
            with base_configuration(inputs, env) as config, base_inputs(inputs, env) as based:
                code = _lint(based, targets, sarif_file, config, env)
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
        failed = report_removed(inputs, targets, sarif_file, code, env)
        if failed:
            return failed  # what the configuration hides cannot be told: the step fails
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
