"""The Action on a hostile pull request: nothing of the checkout runs, nothing it holds can
forge a workflow command, and a configuration it changes cannot quietly hide findings.

The steps of action.yml run as in tests/test_action.py (the real install into a virtual
environment, then the real lint step), in a checkout that an attacker wrote.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from test_action import BAD, FIXED, _git, commit, make_repo, run_action
from test_action import runner_temp as runner_temp  # the session's runner temp folder

pytestmark = pytest.mark.slow  # the action's steps run in bash, its install step included

CANARY = "ATTACKER-CODE-RAN"


def _canary(marker: Path) -> str:
    return (
        f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
        f"print('::warning::{CANARY}', flush=True)\n"
        "raise SystemExit(0)\n"
    )


def _trap_checkout(root: Path, marker: Path) -> dict[str, str]:
    """What a pull request may add to stand in for the linter or for what installs it: the
    package itself, the tools the install step runs with `-m`, and modules every Python run
    imports from its path."""
    canary = _canary(marker)
    files = {"deploy/vllm.yaml": BAD}
    for name in (
        "vllm_lint/__init__.py",
        "vllm_lint/__main__.py",
        "vllm_lint/action_support.py",
        "vllm_lint/cli.py",
        "venv/__init__.py",
        "venv/__main__.py",
        "pip/__init__.py",
        "pip/__main__.py",
        "sitecustomize.py",
        "usercustomize.py",
        "runpy.py",
        "json.py",
        "shlex.py",
        "subprocess.py",
        "secrets.py",
        "tempfile.py",
        "ruamel/__init__.py",
        "jsonschema/__init__.py",
    ):
        files[name] = canary
    files["evil.pth"] = f"import os; os.system('touch {marker}')\n"
    return files


def test_nothing_in_the_checkout_runs_in_any_step(tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    workspace = make_repo(tmp_path / "ws", _trap_checkout(tmp_path, marker))
    fresh_temp = tmp_path / "runner-temp"  # a fresh install: venv and pip run too
    fresh_temp.mkdir()
    run = run_action(workspace, fresh_temp)
    assert run.codes == {"install": 0, "lint": 1}, run.log
    assert CANARY not in run.log, run.log
    assert not marker.exists(), marker.read_text()
    assert run.outputs["findings-count"] == "1"  # the real linter ran, and found the finding


def test_the_canaries_would_have_run_without_isolation(tmp_path: Path) -> None:
    """The test above can fail: the same checkout, the lint step without `-I`."""
    marker = tmp_path / "PWNED"
    workspace = make_repo(tmp_path / "ws", _trap_checkout(tmp_path, marker))
    proc = subprocess.run(
        [sys.executable, "-m", "vllm_lint.action_support"],
        cwd=workspace,
        capture_output=True,
        text=True,
        check=False,
    )
    assert CANARY in proc.stdout
    assert marker.exists()


# -- workflow commands --------------------------------------------------------------------------

_ALLOWED = re.compile(
    r"::(error|warning|notice) (file=[^:]*|title=vllm-lint)::"
    r"|::stop-commands::[0-9a-f]{32}$|::[0-9a-f]{32}::$"
)


def forged(log: str) -> list[str]:
    """Lines the runner would read as a workflow command that vllm-lint did not write: `::cmd`
    after blanks at a line's start, `##[` anywhere (the legacy form). Inside a
    `::stop-commands::` block nothing is read."""
    found = []
    stopped = ""
    for line in log.splitlines():
        if stopped:
            if line == f"::{stopped}::":
                stopped = ""
            continue
        match = re.match(r"::stop-commands::([0-9a-f]{32})$", line)
        if match:
            stopped = match.group(1)
            continue
        if "##[" in line or (line.lstrip().startswith("::") and not _ALLOWED.match(line)):
            found.append(line)
    return found


def test_forged_lines_are_detected() -> None:
    """The check above can fail."""
    assert forged("::warning::x\nok\n  ::set-output name=a::b\nfile ##[error]x\n") == [
        "::warning::x",
        "  ::set-output name=a::b",
        "file ##[error]x",
    ]
    assert forged("::stop-commands::" + "a" * 32 + "\n::warning::x\n::" + "a" * 32 + "::\n") == []


def test_nothing_from_the_checkout_forges_a_workflow_command(
    tmp_path: Path, runner_temp: Path
) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/old.yaml": FIXED})
    base = _git(workspace, "rev-parse", "HEAD")
    commit(
        workspace,
        {
            # a reused anchor: ruamel's warning quotes the lines around it
            "deploy/anchors.yaml": "# vllm\na: &x 1\nb: &x 2\n::warning::forged-by-anchor: 1\n",
            # a changed file whose name is echoed in the command line
            "deploy/##[error]forged-by-name.yaml": FIXED,
            "deploy/::error::forged-by-name2.yaml": FIXED,
            # a configuration error quoting a raw newline
            ".vllm-lint.yaml": 'fail-on: "x\\n::error::forged-by-config ##[warning]x"\n',
        },
        "the pull request",
    )
    event = {"event_name": "pull_request", "event": {"pull_request": {"base": {"sha": base}}}}
    run = run_action(workspace, runner_temp, {"only-changed": "true"}, event)
    assert run.codes["lint"] == 2, run.log  # the configuration is refused
    assert "forged-by-config" in run.log  # … and its error is shown, inert
    assert forged(run.log) == [], run.log
    (workspace / ".vllm-lint.yaml").unlink()
    run = run_action(workspace, runner_temp, {"only-changed": "true"}, event)
    assert run.codes["lint"] == 0, run.log
    assert "forged-by-name" in run.log
    assert forged(run.log) == [], run.log


# -- SARIF upload, args and version ---------------------------------------------------------------

UPLOAD = "github/codeql-action/upload-sarif@"


def test_sarif_upload_is_opt_in_pinned_and_runs_after_findings(
    tmp_path: Path, runner_temp: Path
) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": BAD})
    off = run_action(workspace, runner_temp)
    assert off.uses == [], off.uses
    on = run_action(workspace, runner_temp, {"upload-sarif": "true", "sarif-category": "k8s"})
    assert on.codes["lint"] == 1  # the findings fail the lint step; the upload still runs
    [(uses, given)] = on.uses
    assert re.fullmatch(rf"{re.escape(UPLOAD)}[0-9a-f]{{40}}", uses), uses
    assert given == {"sarif_file": on.outputs["sarif-file"], "category": "k8s"}
    results = json.loads(Path(given["sarif_file"]).read_text())["runs"][0]["results"]
    assert len(results) == 1
    assert on.summary.count("## vllm-lint") == 1  # the step summary as without the upload


def test_the_upload_step_is_pinned_to_a_release_commit() -> None:
    text = (REPO / "action.yml").read_text("utf-8")
    match = re.search(rf"uses: {re.escape(UPLOAD)}([0-9a-f]{{40}}) # (v\d+\.\d+\.\d+)", text)
    assert match, "the upload step names its commit and the release it is"


def test_args_input_reaches_the_cli_and_cannot_take_over_the_output(
    tmp_path: Path, runner_temp: Path
) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": BAD})
    selected = run_action(workspace, runner_temp, {"args": "--ignore VL101"})
    assert selected.codes["lint"] == 0, selected.log
    assert selected.outputs["findings-count"] == "0"
    for args, says in (
        ("--format json", "args: --format is set by the action itself"),
        ("--sarif-file=/tmp/x", "args: --sarif-file is set by the action itself"),
        ("--config other.yaml", "args: --config: use the config and config-from inputs"),
        ("'unclosed", "args: No closing quotation"),
    ):
        run = run_action(workspace, runner_temp, {"args": args})
        assert run.codes["lint"] == 2, run.log
        assert f"::error title=vllm-lint::{says}" in run.log, run.log


def test_args_and_version_are_never_run_as_shell(tmp_path: Path, runner_temp: Path) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": FIXED})
    run = run_action(workspace, runner_temp, {"args": "$(touch pwned-args) `touch pwned2`"})
    assert run.codes["lint"] == 2  # the words reach the CLI as paths-to-be, literally
    bad = run_action(workspace, runner_temp, {"version": "0.1.0; touch pwned-version"})
    assert bad.codes == {"install": 2}, bad.log
    assert "::error title=vllm-lint::version: not a release number" in bad.log
    assert not list(workspace.glob("pwned*"))


# -- what a configuration removed; config-from: base ----------------------------------------------


def _pull_request(workspace: Path, files: dict[str, str]) -> dict[str, object]:
    base = _git(workspace, "rev-parse", "HEAD")
    commit(workspace, files, "the pull request")
    return {"event_name": "pull_request", "event": {"pull_request": {"base": {"sha": base}}}}


def test_a_config_the_pull_request_changes_is_named_with_what_it_removed(
    tmp_path: Path, runner_temp: Path
) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": BAD, "k8s/other.yaml": BAD})
    event = _pull_request(workspace, {".vllm-lint.yaml": "exclude: ['**']\nignore: [VL101]\n"})
    run = run_action(workspace, runner_temp, {}, event)
    assert run.codes["lint"] == 0 and run.outputs["findings-count"] == "0", run.log
    [warning] = [line for line in run.log.splitlines() if line.startswith("::warning ")]
    assert "This change edits the vllm-lint configuration (.vllm-lint.yaml)" in warning
    assert "removed 2 finding(s)" in warning and "VL101 (2)" in warning
    assert "deploy/vllm.yaml" in warning and "k8s/other.yaml" in warning
    assert "config-from: base" in warning
    assert "### What the configuration removed" in run.summary
    assert "deploy/vllm.yaml:" in run.summary

    base = run_action(workspace, runner_temp, {"config-from": "base"}, event)
    assert base.codes["lint"] == 1, base.log  # the base commit has no configuration
    assert base.outputs["findings-count"] == "2"
    assert not list(workspace.rglob(".vllm-lint-base-*")), "temporary files left behind"


def test_config_from_base_uses_the_base_configuration_and_its_rule_packs(
    tmp_path: Path, runner_temp: Path
) -> None:
    pack = (REPO / "examples/rule-packs/forbid-trust-remote-code.json").read_text()
    manifest = FIXED.replace(
        "- --speculative-config", "- --trust-remote-code\n            - --speculative-config"
    )
    workspace = make_repo(
        tmp_path / "ws",
        {
            "deploy/vllm.yaml": manifest,
            "ci/vllm-lint.yaml": "extra-rules: [../policy/org.json]\n",
            "policy/org.json": pack,
        },
    )
    # the pull request keeps the configuration and defuses the pack: its rule rejects nothing
    defused = json.loads(pack)
    defused["rules"][0]["rejects"] = {"not": {}}
    event = _pull_request(workspace, {"policy/org.json": json.dumps(defused)})
    head = run_action(workspace, runner_temp, {"config": "ci/vllm-lint.yaml"}, event)
    assert head.outputs["findings-count"] == "0", head.log
    base = run_action(
        workspace, runner_temp, {"config": "ci/vllm-lint.yaml", "config-from": "base"}, event
    )
    assert base.codes["lint"] == 1, base.log
    assert "title=ORG001 no-trust-remote-code" in base.log
    assert not list(workspace.rglob(".vllm-lint-base-*"))


def test_config_from_base_without_the_base_commit_is_an_error(
    tmp_path: Path, runner_temp: Path
) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": FIXED})
    run = run_action(workspace, runner_temp, {"config-from": "base"})
    assert run.codes["lint"] == 2
    assert "::error title=vllm-lint::config-from: base needs the base commit" in run.log


# -- the step's exit codes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "says"),
    [(3, "exit code 3 (3: an internal error"), (-11, "exit code -11")],
)
def test_an_internal_error_or_a_crash_is_an_error_annotation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], code: int, says: str
) -> None:
    from vllm_lint import action_support

    program = (
        "import os, sys; sys.stderr.write('vllm-lint: internal error: KeyError: x\\n'); "
        f"sys.stderr.flush(); os.kill(os.getpid(), 11) if {code} < 0 else sys.exit({code})"
    )
    monkeypatch.setattr(action_support, "_cli", lambda *args: [sys.executable, "-c", program])
    assert action_support._run(["x"]) == code
    out = capsys.readouterr().out
    assert f"::error title=vllm-lint::vllm-lint stopped with {says}" in out, out


def test_a_fail_on_the_pull_request_relaxes_is_named(tmp_path: Path, runner_temp: Path) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": BAD})
    event = _pull_request(workspace, {"pyproject.toml": '[tool.vllm-lint]\nfail-on = "never"\n'})
    run = run_action(workspace, runner_temp, {}, event)
    assert run.codes["lint"] == 0 and run.outputs["findings-count"] == "1", run.log
    [warning] = [line for line in run.log.splitlines() if line.startswith("::warning ")]
    assert "edits the vllm-lint configuration (pyproject.toml)" in warning, warning
    assert "the configuration's fail-on lets this step pass" in warning
    assert "removed" not in warning  # the finding is reported: only the exit code changed
    strict = run_action(workspace, runner_temp, {"config-from": "base"}, event)
    assert strict.codes["lint"] == 1, strict.log


# -- issue 25: whole option names; the comparison run; edits that hide findings ----------------


@pytest.mark.parametrize(
    "args",
    [
        "--conf other.yaml",
        "--summ /tmp/x.md",
        "--output json",
        "--form json",
        "-qojson",
        "--no-conf",
    ],
)
def test_args_are_matched_to_whole_option_names(
    tmp_path: Path, runner_temp: Path, args: str
) -> None:
    """argparse took `--conf` for `--config` and `--output` for `--output-format`: a pull
    request's workflow could pass the banned options by a prefix."""
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": BAD})
    run = run_action(workspace, runner_temp, {"args": args})
    assert run.codes["lint"] == 2, run.log
    name = args.split()[0]
    assert f"::error title=vllm-lint::args: {name} is not a vllm-lint option" in run.log, run.log


@pytest.mark.parametrize("option", ["--conf", "--summ", "--output", "--no-conf", "--sarif"])
def test_the_cli_matches_whole_option_names(tmp_path: Path, option: str) -> None:
    from conftest import run_cli

    run = run_cli(option, "x", ".", cwd=tmp_path)
    assert run.code == 2 and f"unrecognized arguments: {option}" in run.err, run
    assert run_cli("rules", "--form", "json", cwd=tmp_path).code == 2  # the subcommand too


def _elif_chain() -> str:
    """A Python launcher vllm-lint 1d21f6f could not read (exit 3, RecursionError)."""
    branches = "".join(f"elif x == {i}:\n    pass\n" for i in range(1, 1200))
    return f"from vllm import LLM\nx = 0\nif x == 0:\n    pass\n{branches}LLM(model='m')\n"


def test_the_step_is_never_green_when_the_comparison_run_fails(
    tmp_path: Path, runner_temp: Path
) -> None:
    """Issue 25 (high): the pull request hides its finding with a configuration and adds, in a
    folder that configuration excludes, a file the run without configuration cannot read. The
    step passed without the warning. Now either the comparison runs (and warns) or it fails."""
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": FIXED})
    event = _pull_request(
        workspace,
        {
            "deploy/vllm.yaml": BAD,
            ".vllm-lint.yaml": "exclude: ['vendor/**']\nignore: [VL101]\n",
            "vendor/launch.py": _elif_chain(),
        },
    )
    run = run_action(workspace, runner_temp, {}, event)
    warned = any(
        line.startswith("::warning ") and "removed 1 finding(s)" in line
        for line in run.log.splitlines()
    )
    assert run.codes["lint"] != 0 or warned, run.log
    if run.codes["lint"] != 0:
        assert "::error title=vllm-lint::the comparison run" in run.log, run.log


def test_a_comparison_run_that_fails_fails_the_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same, whatever makes the comparison fail: the real step (`main`), with the run
    without configuration replaced by a program that stops with exit 3."""
    from vllm_lint import action_support

    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": FIXED})
    commit(workspace, {".vllm-lint.yaml": "ignore: [VL101]\n", "deploy/vllm.yaml": BAD}, "pr")
    real = action_support._cli
    crash = [sys.executable, "-c", "import sys; sys.stderr.write('boom\\n'); sys.exit(3)"]
    monkeypatch.setattr(
        action_support, "_cli", lambda *args: crash if "--no-config" in args else real(*args)
    )
    monkeypatch.chdir(workspace)
    env = {"RUNNER_TEMP": str(tmp_path), "GITHUB_WORKSPACE": str(workspace)}
    assert action_support.main(env) == 3
    out = capsys.readouterr().out
    assert "::error title=vllm-lint::the comparison run" in out and "exit code 3: boom" in out


def test_head_mode_warns_of_every_edit_that_removes_findings(
    tmp_path: Path, runner_temp: Path
) -> None:
    """A suppression comment, a baseline the `args` name, a defused rule pack: each is named
    in a warning and the job summary (issue 25: they passed silently)."""
    pack = (REPO / "examples/rule-packs/forbid-trust-remote-code.json").read_text()
    manifest = FIXED.replace(
        "- --speculative-config", "- --trust-remote-code\n            - --speculative-config"
    )
    workspace = make_repo(
        tmp_path / "ws",
        {
            "deploy/vllm.yaml": FIXED,
            ".vllm-lint.yaml": "extra-rules: [policy/org.json]\n",
            "policy/org.json": pack,
        },
    )
    # a suppression the pull request adds on the line of a new finding
    suppressed = BAD.replace(
        "- --use-replayssm", "- --use-replayssm  # vllm-lint: ignore[VL101] patched"
    )
    event = _pull_request(workspace, {"deploy/vllm.yaml": suppressed})
    run = run_action(workspace, runner_temp, {}, event)
    assert run.codes["lint"] == 0, run.log
    [warning] = [line for line in run.log.splitlines() if line.startswith("::warning ")]
    assert "the suppression comments of (deploy/vllm.yaml)" in warning, warning
    assert "removed 1 finding(s)" in warning and "VL101 (1)" in warning, warning
    assert (
        ":warning: This change edits the suppression comments of (`deploy/vllm.yaml`)"
        in run.summary
    )

    # a baseline the pull request writes to record its new finding
    workspace = make_repo(tmp_path / "ws2", {"deploy/vllm.yaml": FIXED})
    base = _git(workspace, "rev-parse", "HEAD")
    write_baseline(workspace, BAD)
    commit(workspace, {"deploy/vllm.yaml": BAD}, "the pull request")
    event = {"event_name": "pull_request", "event": {"pull_request": {"base": {"sha": base}}}}
    run = run_action(workspace, runner_temp, {"args": "--baseline known.json"}, event)
    assert run.codes["lint"] == 0, run.log
    [warning] = [line for line in run.log.splitlines() if line.startswith("::warning ")]
    assert "the baseline (known.json)" in warning and "removed 1 finding(s)" in warning, warning
    strict = run_action(
        workspace, runner_temp, {"args": "--baseline known.json", "config-from": "base"}, event
    )
    assert strict.codes["lint"] == 1, strict.log  # the base has no baseline: reported
    assert "the base commit has no baseline known.json" in strict.log

    # a rule pack the pull request defuses
    workspace = make_repo(
        tmp_path / "ws3",
        {
            "deploy/vllm.yaml": manifest,
            ".vllm-lint.yaml": "extra-rules: [policy/org.json]\n",
            "policy/org.json": pack,
        },
    )
    defused = json.loads(pack)
    defused["rules"][0]["rejects"] = {"not": {}}
    event = _pull_request(workspace, {"policy/org.json": json.dumps(defused)})
    run = run_action(workspace, runner_temp, {}, event)
    assert run.codes["lint"] == 0, run.log
    [warning] = [line for line in run.log.splitlines() if line.startswith("::warning ")]
    assert "rule packs (policy/org.json)" in warning, warning
    assert "rule packs (`policy/org.json`)" in run.summary


def write_baseline(workspace: Path, text: str) -> None:
    """`known.json`: the baseline of `text` at deploy/vllm.yaml, written by the real CLI."""
    from conftest import run_cli, write

    scratch = workspace.parent / f"{workspace.name}-scratch"
    write(scratch, "deploy/vllm.yaml", text)
    run = run_cli("--write-baseline", "known.json", ".", cwd=scratch)
    assert run.code in (0, 1), run.err
    commit(workspace, {"known.json": (scratch / "known.json").read_text()}, "baseline")


def test_config_from_base_takes_suppressions_and_the_baseline_from_the_base(
    tmp_path: Path, runner_temp: Path
) -> None:
    """Issue 25: with `config-from: base` the pull request still controlled inline
    suppressions and a baseline named in `args`."""
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": FIXED})
    suppressed = BAD.replace(
        "- --use-replayssm", "- --use-replayssm  # vllm-lint: ignore[VL101] patched"
    )
    event = _pull_request(workspace, {"deploy/vllm.yaml": suppressed})
    head = run_action(workspace, runner_temp, {}, event)
    assert head.codes["lint"] == 0, head.log  # head mode: the suppression holds (and is named)
    base = run_action(workspace, runner_temp, {"config-from": "base"}, event)
    assert base.codes["lint"] == 1, base.log
    assert "title=VL101" in base.log
    assert "suppressions this change edits count for nothing in 1 file(s)" in base.log
    assert not list(workspace.rglob(".vllm-lint-base-*"))


def test_diff_in_the_action_forges_no_workflow_command(tmp_path: Path, runner_temp: Path) -> None:
    """Issue 25 (high): with `args: --diff` the diff printed file text and names raw into the
    action's log (`::add-mask::`, `##[error]`, escape sequences)."""
    script = (
        "#!/bin/sh\n"
        "# ::add-mask::secret \x1b]0;title\x07\n"
        'vllm serve Qwen/Qwen3-8B --use-v2-block-manager --served-model-name "##[error]x"\n'
        "::warning::context line\n"
    )
    workspace = make_repo(tmp_path / "ws", {"serve ##[warning]x.sh": script})
    run = run_action(workspace, runner_temp, {"vllm-version": "0.9.2", "args": "--diff"})
    assert "-vllm serve Qwen/Qwen3-8B --use-v2-block-manager" in run.log, run.log
    assert forged(run.log) == [], run.log
    assert "\x1b" not in run.log and "\x07" not in run.log


def test_hostile_and_undecodable_file_names_in_the_action(
    tmp_path: Path, runner_temp: Path
) -> None:
    """A file name that is not UTF-8 crashed SARIF, which the action always writes (issue 25);
    names with `##[` must match between the SARIF report and the comparison run, or the action
    would say the configuration removed findings it did not."""
    import os

    workspace = make_repo(tmp_path / "ws", {"deploy/##[error]odd.yaml": BAD})
    with open(os.path.join(os.fsencode(workspace), b"deploy", b"bad\xff.yaml"), "wb") as handle:
        handle.write(BAD.encode())
    commit(workspace, {}, "a name that is not UTF-8")
    run = run_action(workspace, runner_temp)
    assert run.codes["lint"] == 1, run.log
    assert run.outputs["findings-count"] == "2", run.log
    assert "removed" not in run.log, run.log
    assert forged(run.log) == [], run.log
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.loads(Path(run.outputs["sarif-file"]).read_text())["runs"][0]["results"]
    ]
    assert sorted(uris) == ["deploy/%23%23%5Berror%5Dodd.yaml", "deploy/bad%FF.yaml"], uris


def test_config_from_base_a_finding_slid_under_a_base_suppression_is_reported(
    tmp_path: Path, runner_temp: Path
) -> None:
    """The suppression comment is the base's, unchanged; the pull request puts a new finding
    on the line it covers. With `config-from: base` the finding is reported; in head mode the
    warning names the file's suppressions."""
    comment = "            # vllm-lint: ignore[VL101] measured on our patched image\n"
    spec = "            - --speculative-config\n"
    [before, after] = BAD.split(spec)
    value = after.splitlines(keepends=True)[0]  # the JSON line after the flag
    base_text = (
        before.replace("            - --use-replayssm\n", "") + comment + "            # (none)\n"
    )
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": base_text})
    event = _pull_request(workspace, {"deploy/vllm.yaml": before + comment + spec + value})
    head = run_action(workspace, runner_temp, {}, event)
    assert head.codes["lint"] == 0, head.log
    [warning] = [line for line in head.log.splitlines() if line.startswith("::warning ")]
    assert "the suppression comments of (deploy/vllm.yaml)" in warning, warning
    base = run_action(workspace, runner_temp, {"config-from": "base"}, event)
    assert base.codes["lint"] == 1, base.log
    assert "title=VL101" in base.log
