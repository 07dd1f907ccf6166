"""The composite action, run step by step as a GitHub runner would, on a repo with a bad manifest.

Each `run:` step of action.yml is executed with its own `shell` (bash, with the runner's
`--noprofile --norc -eo pipefail`), in a temporary git workspace, with `GITHUB_ACTION_PATH`,
`GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, `GITHUB_WORKSPACE` and `RUNNER_TEMP` set and the
step's `env:` evaluated from the inputs (defaults from action.yml) and earlier steps' outputs.
The install step really runs: it makes a virtual environment, installs the pinned wheels of
hooks/action-requirements.txt into it (with uv when PATH has it, else pip) and points it at this
repository's hooks/, once per test session (the runner temp folder is shared, as within one
job). benchmarks/action_install.py times the same steps.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from packaging.markers import default_environment
from packaging.utils import canonicalize_name
from ruamel.yaml import YAML

from conftest import BAD_DEPLOYMENT as BAD
from conftest import REPO, run_cli, write
from test_action_requirements import pinned_for
from vllm_lint import __version__

pytestmark = [
    pytest.mark.slow,  # the action's steps run in bash, its install step included
    pytest.mark.skipif(
        shutil.which("git") is None or shutil.which("bash") is None, reason="needs git and bash"
    ),
]

FIXED = BAD.replace("            - --use-replayssm\n", "")
_EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def load_action() -> dict[str, Any]:
    data: dict[str, Any] = YAML(typ="safe").load((REPO / "action.yml").read_text("utf-8"))
    return data


def _lookup(expression: str, context: Mapping[str, Any]) -> str:
    """The only expressions the action may use: a dotted path into the contexts."""
    if not re.fullmatch(r"[A-Za-z_][\w.-]*", expression):
        raise AssertionError(f"unsupported expression in action.yml: {expression!r}")
    value: Any = context
    for part in expression.split("."):
        value = value.get(part, "") if isinstance(value, Mapping) else ""
    return "" if value is None else str(value)


def evaluate(text: str, context: Mapping[str, Any]) -> str:
    return _EXPRESSION.sub(lambda m: _lookup(m.group(1), context), text)


_TOKEN = re.compile(r"\s*(&&|\|\||==|!=|!|\(|\)|'(?:[^']|'')*'|[A-Za-z_][\w.-]*)")
_STATUS = ("success", "failure", "cancelled", "always")


def condition(text: str, context: Mapping[str, Any], failed: bool) -> bool:
    """A step's `if:` as the runner reads it, for the grammar action.yml may use: `!`, `&&`,
    `||`, `==`, `!=`, parentheses, 'strings', context paths and the status functions. Without
    a status function, `success() &&` is implied (a failed step skips the rest)."""
    body = text.strip()
    if body.startswith("${{") and body.endswith("}}"):
        body = body[3:-2]
    tokens, at = [], 0
    while at < len(body.rstrip()):
        match = _TOKEN.match(body, at)
        assert match, f"unsupported expression in action.yml: {body[at:]!r}"
        tokens.append(match.group(1))
        at = match.end()
    functions = {"success": not failed, "failure": failed, "cancelled": False, "always": True}

    def primary(k: int) -> tuple[Any, int]:
        token = tokens[k]
        if token == "!":
            value, k = primary(k + 1)
            return not value, k
        if token == "(":
            value, k = disjunction(k + 1)
            assert tokens[k] == ")"
            return value, k + 1
        if token.startswith("'"):
            return token[1:-1].replace("''", "'"), k + 1
        if token in ("true", "false"):
            return token == "true", k + 1
        if token in _STATUS:
            assert tokens[k + 1 : k + 3] == ["(", ")"], token
            return functions[token], k + 3
        return _lookup(token, context), k + 1

    def comparison(k: int) -> tuple[Any, int]:
        left, k = primary(k)
        if k < len(tokens) and tokens[k] in ("==", "!="):
            right, after = primary(k + 1)
            equal = str(left).lower() == str(right).lower()  # the runner compares ignoring case
            return equal if tokens[k] == "==" else not equal, after
        return left, k

    def conjunction(k: int) -> tuple[Any, int]:
        value, k = comparison(k)
        while k < len(tokens) and tokens[k] == "&&":
            right, k = comparison(k + 1)
            value = bool(value) and bool(right)
        return value, k

    def disjunction(k: int) -> tuple[Any, int]:
        value, k = conjunction(k)
        while k < len(tokens) and tokens[k] == "||":
            right, k = conjunction(k + 1)
            value = bool(value) or bool(right)
        return value, k

    value, end = disjunction(0)
    assert end == len(tokens), body
    if not any(t in _STATUS for t in tokens):
        return not failed and bool(value)
    return bool(value)


def read_outputs(path: Path) -> dict[str, str]:
    """`name=value` and `name<<DELIMITER` … `DELIMITER`, as the runner parses $GITHUB_OUTPUT."""
    outputs: dict[str, str] = {}
    lines = path.read_text("utf-8").splitlines() if path.exists() else []
    index = 0
    while index < len(lines):
        line = lines[index]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            end = lines.index(delimiter, index + 1)
            outputs[name] = "\n".join(lines[index + 1 : end])
            index = end + 1
        else:
            name, value = line.split("=", 1)
            outputs[name] = value
            index += 1
    return outputs


@dataclass
class ActionRun:
    codes: dict[str, int] = field(default_factory=dict)
    log: str = ""
    summary: str = ""
    outputs: dict[str, str] = field(default_factory=dict)
    uses: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # would have run
    seconds: dict[str, float] = field(
        default_factory=dict
    )  # per step (benchmarks/action_install.py)

    @property
    def failed(self) -> bool:
        return any(code != 0 for code in self.codes.values())


def run_action(
    workspace: Path,
    runner_temp: Path,
    inputs: Mapping[str, str] | None = None,
    github: Mapping[str, Any] | None = None,
) -> ActionRun:
    action = load_action()
    values = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    for name, value in (inputs or {}).items():
        assert name in values, f"action.yml has no input {name!r}"
        values[name] = value
    context: dict[str, Any] = {"inputs": values, "steps": {}, "github": dict(github or {})}
    base_env = {
        k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_", "GHA_"))
    }
    for variable in ("PYTHONPATH", "VIRTUAL_ENV", "VLLM_LINT_DEBUG"):
        base_env.pop(variable, None)  # the runner has neither this checkout nor a venv active
    base_env.update(
        GITHUB_ACTIONS="true",
        GITHUB_WORKSPACE=str(workspace),
        GITHUB_ACTION_PATH=str(REPO),
        GITHUB_EVENT_NAME=str((github or {}).get("event_name", "push")),
        RUNNER_TEMP=str(runner_temp),
    )
    result = ActionRun()
    summary = runner_temp / f"summary-{len(list(runner_temp.glob('summary-*')))}.md"
    for number, step in enumerate(action["runs"]["steps"]):
        step_id = step.get("id", f"step{number}")
        if not condition(str(step.get("if", "true")), context, result.failed):
            continue  # skipped, as after a failed step unless the condition says otherwise
        if "uses" in step:  # another action (the SARIF upload): recorded, not run here
            given = {k: evaluate(str(v), context) for k, v in step.get("with", {}).items()}
            result.uses.append((step["uses"], given))
            continue
        assert step.get("shell") == "bash", f"step {step_id} must name its shell"
        output = runner_temp / f"output-{step_id}-{os.urandom(4).hex()}"
        env = dict(base_env, GITHUB_OUTPUT=str(output), GITHUB_STEP_SUMMARY=str(summary))
        env.update({k: evaluate(str(v), context) for k, v in step.get("env", {}).items()})
        script = runner_temp / f"{step_id}.sh"
        script.write_text(step["run"], encoding="utf-8")
        started = time.perf_counter()
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=600,
        )
        result.seconds[step_id] = time.perf_counter() - started
        result.log += proc.stdout
        result.codes[step_id] = proc.returncode
        context["steps"][step_id] = {"outputs": read_outputs(output)}
    result.summary = summary.read_text("utf-8") if summary.exists() else ""
    result.outputs = {
        name: evaluate(str(spec["value"]), context) for name, spec in action["outputs"].items()
    }
    return result


def _git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return proc.stdout.strip()


def make_repo(root: Path, files: Mapping[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    _git(root, "init", "-q")
    _git(root, "config", "user.email", "test@vllm-lint.invalid")
    _git(root, "config", "user.name", "test")
    commit(root, files, "first")
    return root


def commit(root: Path, files: Mapping[str, str], message: str) -> str:
    for name, text in files.items():
        write(root, name, text)
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", message)
    return _git(root, "rev-parse", "HEAD")


@pytest.fixture(scope="session")
def runner_temp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("runner-temp")


def _annotations(log: str) -> list[str]:
    return [line for line in log.splitlines() if re.match(r"::(error|warning|notice) file=", line)]


def test_action_fails_on_a_bad_manifest_with_annotation_summary_and_outputs(
    tmp_path: Path, runner_temp: Path
) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": BAD, "README.md": "# hi\n"})
    expected = run_cli("--format", "json", "deploy/vllm.yaml", cwd=workspace).findings()
    assert [f["rule"] for f in expected] == ["VL101"]
    flag_lines = {
        number
        for number, text in enumerate((workspace / "deploy/vllm.yaml").read_text().splitlines(), 1)
        if "--use-replayssm" in text or "--speculative-config" in text
    }
    assert expected[0]["line"] in flag_lines  # the finding points at one of the pair's lines

    run = run_action(workspace, runner_temp)

    assert run.codes == {"install": 0, "lint": 1}, run.log
    line = expected[0]["line"]
    assert any(
        a.startswith(f"::error file=deploy/vllm.yaml,line={line},col={expected[0]['col']},")
        and "title=VL101 replayssm-no-spec-decode::" in a
        for a in _annotations(run.log)
    ), run.log
    assert f"deploy/vllm.yaml:{line}:{expected[0]['col']}" in run.summary
    assert "VL101 replayssm-no-spec-decode" in run.summary
    assert run.outputs["findings-count"] == "1"
    sarif = json.loads(Path(run.outputs["sarif-file"]).read_text("utf-8"))
    results = sarif["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results] == [line]


def test_the_action_keeps_no_rule_cache(
    tmp_path: Path, runner_temp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the cache off (an earlier step may have run the pull request's code and left one
    in the runner's cache folder) the action writes no cache and touches none it finds."""
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR", raising=False)
    xdg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    poisoned = xdg / "vllm-lint" / f"rules-{__version__}.json"
    poisoned.parent.mkdir(parents=True)
    poisoned.write_text("not a cache of rules", encoding="utf-8")
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": BAD})

    run = run_action(workspace, runner_temp)

    assert run.codes["lint"] == 1, run.log
    assert run.outputs["findings-count"] == "1"
    assert poisoned.read_text(encoding="utf-8") == "not a cache of rules"
    assert [p.name for p in poisoned.parent.iterdir()] == [poisoned.name]


def test_fail_on_never_passes_and_still_reports(tmp_path: Path, runner_temp: Path) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": BAD})
    sarif = workspace / "out" / "vllm-lint.sarif"
    (workspace / "out").mkdir()
    run = run_action(
        workspace, runner_temp, {"fail-on": "never", "sarif-file": "out/vllm-lint.sarif"}
    )
    assert run.codes == {"install": 0, "lint": 0}, run.log
    assert len(_annotations(run.log)) == 1
    assert run.outputs == {"findings-count": "1", "sarif-file": "out/vllm-lint.sarif"}
    assert sarif.is_file()


def test_a_clean_repo_passes_with_zero_findings(tmp_path: Path, runner_temp: Path) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": FIXED})
    run = run_action(workspace, runner_temp, {"fail-on": "warning"})
    assert run.codes == {"install": 0, "lint": 0}, run.log
    assert run.outputs["findings-count"] == "0"
    assert _annotations(run.log) == []
    assert "**0 error(s)**" in run.summary


def test_only_changed_lints_what_the_pull_request_changed(
    tmp_path: Path, runner_temp: Path
) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/old.yaml": BAD})
    base = _git(workspace, "rev-parse", "HEAD")
    commit(workspace, {"deploy/vllm.yaml": BAD, "docs/notes.yaml": BAD}, "the pull request")
    event = {"event_name": "pull_request", "event": {"pull_request": {"base": {"sha": base}}}}
    run = run_action(workspace, runner_temp, {"only-changed": "true", "paths": "deploy"}, event)
    files = [re.match(r"::\w+ file=([^,]+),", a).group(1) for a in _annotations(run.log)]  # type: ignore[union-attr]
    assert files == ["deploy/vllm.yaml"], run.log
    assert run.outputs["findings-count"] == "1"
    assert run.codes["lint"] == 1


def test_only_changed_without_the_base_commit_lints_everything_and_says_so(
    tmp_path: Path, runner_temp: Path
) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/old.yaml": BAD})
    commit(workspace, {"deploy/vllm.yaml": BAD}, "the pull request")
    missing = "1" * 40  # as after a depth-1 checkout: the base is not in the clone
    event = {"event_name": "pull_request", "event": {"pull_request": {"base": {"sha": missing}}}}
    run = run_action(workspace, runner_temp, {"only-changed": "true"}, event)
    assert "::warning title=vllm-lint::only-changed: the base commit is not in this clone" in (
        run.log
    )
    assert run.outputs["findings-count"] == "2"


def test_only_changed_with_nothing_changed_under_paths_passes(
    tmp_path: Path, runner_temp: Path
) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/old.yaml": BAD})
    before = _git(workspace, "rev-parse", "HEAD")
    commit(workspace, {"README.md": "# docs only\n"}, "a push")
    run = run_action(
        workspace,
        runner_temp,
        {"only-changed": "true", "paths": "deploy"},
        {"event": {"before": before}},
    )
    assert run.codes["lint"] == 0, run.log
    assert run.outputs["findings-count"] == "0"
    assert "nothing to lint" in run.summary
    assert json.loads(Path(run.outputs["sarif-file"]).read_text())["runs"][0]["results"] == []


def test_config_input_and_the_configurations_fail_on(tmp_path: Path, runner_temp: Path) -> None:
    workspace = make_repo(
        tmp_path / "ws",
        {
            "deploy/vllm.yaml": BAD,
            "ci/vllm-lint.yaml": "ignore: [replayssm-no-spec-decode]\n",
            ".vllm-lint.yaml": "fail-on: never\n",
        },
    )
    found = run_action(workspace, runner_temp)  # fail-on left empty: the config's `never`
    assert found.codes["lint"] == 0, found.log
    assert found.outputs["findings-count"] == "1"
    ignored = run_action(workspace, runner_temp, {"config": "ci/vllm-lint.yaml"})
    assert ignored.codes["lint"] == 0, ignored.log
    assert ignored.outputs["findings-count"] == "0"
    stricter = run_action(workspace, runner_temp, {"fail-on": "error"})  # the input wins
    assert stricter.codes["lint"] == 1, stricter.log


def test_inputs_are_never_run_as_shell(tmp_path: Path, runner_temp: Path) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": FIXED})
    hostile = {
        "paths": 'deploy "$(touch pwned-paths)"',
        "vllm-version": "0.28.0; touch pwned-version",
        "sarif-file": "`touch pwned-sarif`.sarif",
    }
    run = run_action(workspace, runner_temp, hostile)
    assert run.codes["lint"] == 2, run.log  # a usage error, reported, not executed
    assert "::error title=vllm-lint::error: --vllm-version: not a vLLM release" in run.log
    assert not list(workspace.glob("pwned*")), run.log


def test_a_bad_input_is_one_error_line(tmp_path: Path, runner_temp: Path) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": FIXED})
    run = run_action(workspace, runner_temp, {"fail-on": "sometimes"})
    assert run.codes["lint"] == 2
    assert "::error title=vllm-lint::fail-on: 'sometimes' is not one of" in run.log
    assert "Traceback" not in run.log


def _site_packages(venv: Path) -> Path:
    (site,) = [*venv.glob("lib/python3*/site-packages"), *venv.glob("Lib/site-packages")]
    return site


def _installed(site: Path) -> dict[str, str]:
    """Name and version of every distribution installed in `site`."""
    found = importlib.metadata.distributions(path=[str(site)])
    return {canonicalize_name(d.metadata["Name"]): d.version for d in found}


@pytest.mark.parametrize("installer", ["uv", "pip", "ensurepip"])
def test_a_cold_install_takes_only_the_pinned_wheels_and_points_at_the_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, installer: str
) -> None:
    """Each way the install step can go: uv on PATH; pip of the python input; neither (a
    Python without pip: the environment's own ensurepip). vllm-lint itself is not installed:
    a .pth puts the action's hooks/ on the path."""
    folders = [
        f for f in os.environ["PATH"].split(os.pathsep) if f and not (Path(f) / "uv").exists()
    ]
    python = os.path.realpath(sys.executable)  # the interpreter behind the test's venv
    if installer == "uv":
        uv = _tool("uv")
        if uv is None:
            pytest.skip("uv is not installed (pip install uv)")
        shim = tmp_path / "uv-bin"
        shim.mkdir()
        (shim / "uv").symlink_to(uv)
        folders.insert(0, str(shim))
    if installer == "ensurepip":
        subprocess.run(
            [python, "-I", "-m", "venv", "--without-pip", str(tmp_path / "bare")], check=True
        )
        python = str(tmp_path / "bare" / "bin" / "python")
        assert subprocess.run(
            [python, "-I", "-m", "pip", "--version"], capture_output=True
        ).returncode
    monkeypatch.setenv("PATH", os.pathsep.join(folders))
    fresh = tmp_path / "runner-temp"
    fresh.mkdir()
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": BAD})

    run = run_action(workspace, fresh, {"python": python})

    assert run.codes == {"install": 0, "lint": 1}, run.log
    assert run.outputs["findings-count"] == "1"
    (venv,) = fresh.glob("vllm-lint-*")
    site = _site_packages(venv)
    pinned = pinned_for({**default_environment(), "extra": ""})
    installed = _installed(site)
    if installer == "ensurepip":
        installed.pop("pip")  # the Python's own bundled pip, which then installed the wheels
        installed.pop("setuptools", None)  # bundled with it before Python 3.12
    assert installed == {name: pin.version for name, pin in pinned.items()}
    assert (site / "vllm-lint-action.pth").read_text("utf-8") == f"{REPO / 'hooks'}\n"
    assert not list(site.glob("vllm_lint*"))


def test_a_second_run_in_the_job_reuses_the_environment(tmp_path: Path, runner_temp: Path) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": FIXED})
    first = run_action(workspace, runner_temp)
    assert first.codes == {"install": 0, "lint": 0}, first.log
    (marker,) = runner_temp.glob("vllm-lint-*/installed")
    made = marker.stat().st_mtime_ns
    again = run_action(workspace, runner_temp)
    assert again.codes == {"install": 0, "lint": 0}, again.log
    assert list(runner_temp.glob("vllm-lint-*/installed")) == [marker]
    assert marker.stat().st_mtime_ns == made


def test_the_version_input_checks_the_release_and_installs_nothing(
    tmp_path: Path, runner_temp: Path
) -> None:
    workspace = make_repo(tmp_path / "ws", {"deploy/vllm.yaml": FIXED})
    same = run_action(workspace, runner_temp, {"version": __version__})
    assert same.codes == {"install": 0, "lint": 0}, same.log
    other = run_action(workspace, runner_temp, {"version": "99.0.0"})
    assert other.codes == {"install": 2}, other.log
    assert (
        f"::error title=vllm-lint::version: this action is vllm-lint {__version__}, not 99.0.0"
        in other.log
    )
    for venv in runner_temp.glob("vllm-lint-*"):  # nothing of that name came from an index
        assert "vllm-lint" not in _installed(_site_packages(venv))


# -- static checks of action.yml and the workflows ------------------------------------------

_SHA_PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")


def _workflows() -> list[Path]:
    return sorted((REPO / ".github" / "workflows").glob("*.y*ml"))


def _steps(document: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    if "runs" in document:
        return list(document["runs"].get("steps", []))
    return [s for job in document.get("jobs", {}).values() for s in job.get("steps", [])]


def test_no_expression_inside_any_run_script_and_every_uses_pinned() -> None:
    documents = [("action.yml", load_action())]
    documents += [(p.name, YAML(typ="safe").load(p.read_text("utf-8"))) for p in _workflows()]
    assert len(documents) >= 2, "expected a workflow that dogfoods the action"
    for name, document in documents:
        for step in _steps(document):
            if "run" in step:
                assert "${{" not in step["run"], f"{name}: expression inside run: {step['run']}"
                assert "shell" in step or name != "action.yml", f"{name}: run step without shell"
            if "uses" in step:
                uses = step["uses"]
                assert uses.startswith("./") or _SHA_PINNED.match(uses), f"{name}: {uses}"


def test_a_workflow_runs_the_action_on_examples() -> None:
    uses_self = []
    for path in _workflows():
        for step in _steps(YAML(typ="safe").load(path.read_text("utf-8"))):
            if step.get("uses", "").split(" ")[0] == "./":
                uses_self.append(step.get("with", {}).get("paths", ""))
    assert any(p.startswith("examples") for p in uses_self), uses_self


def _tool(name: str) -> str | None:
    """Found on PATH, next to this Python, or in $VLLM_LINT_ACTLINT_BIN."""
    folders = [os.environ.get("VLLM_LINT_ACTLINT_BIN", ""), str(Path(sys.executable).parent)]
    for folder in filter(None, folders):
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which(name)


def _need(name: str) -> str:
    path = _tool(name)
    if path is None:
        pytest.skip(
            f"{name} is not installed: python3 -m venv /tmp/actlint && /tmp/actlint/bin/pip "
            f"install check-jsonschema zizmor, then VLLM_LINT_ACTLINT_BIN=/tmp/actlint/bin"
        )
    return path


def test_action_and_workflows_validate_with_check_jsonschema() -> None:
    tool = _need("check-jsonschema")
    for schema, files in (
        ("vendor.github-actions", [REPO / "action.yml"]),
        ("vendor.github-workflows", _workflows()),
    ):
        proc = subprocess.run(
            [tool, "--builtin-schema", schema, *map(str, files)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr


def _zizmor(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_need("zizmor"), "--offline", "--no-progress", *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ, NO_COLOR="1"),
    )


def test_zizmor_reports_nothing_on_the_action_and_workflows() -> None:
    proc = _zizmor(REPO / "action.yml", REPO / ".github" / "workflows")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "No findings to report" in proc.stdout, proc.stdout


def test_zizmor_would_catch_an_input_interpolated_into_run(tmp_path: Path) -> None:
    """The gate above can fail: the same action with one input pasted into its script."""
    text = (REPO / "action.yml").read_text("utf-8")
    broken = text.replace(
        '"$GHA_VLLM_LINT_RUN" -I -m vllm_lint.action_support',
        '"$GHA_VLLM_LINT_RUN" -I -m vllm_lint.action_support ${{ inputs.paths }}',
    )
    assert broken != text
    (tmp_path / "action.yml").write_text(broken, encoding="utf-8")
    proc = _zizmor(tmp_path / "action.yml")
    assert proc.returncode != 0
    assert "template-injection" in proc.stdout, proc.stdout
