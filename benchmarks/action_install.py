"""How long the GitHub Action takes, cold (a new job) and warm (its second run in a job), with
uv on the runner and with pip only.

    python benchmarks/action_install.py [--repeat 3] [--python PATH] [--uv PATH] [--only pip|uv]

The action's steps run as GitHub runs them, by the same code as the tests
(tests/test_action.py's `run_action`: each `run:` step in bash with the runner's flags, its
env from the inputs, `GITHUB_ACTION_PATH` this checkout), on a one-manifest repository. Cold:
a fresh `$RUNNER_TEMP`, as every job has (the install downloads the pinned wheels: the figure
includes the network). Warm: the same `$RUNNER_TEMP` again. The pip runs have no uv on PATH;
the uv runs have one (`--uv`, default: the one on PATH or beside this Python). Prints, per case,
the median over the repeats of the install step, the lint step and the whole action, in
seconds. Needs the test dependencies (pytest), git and bash.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))
os.environ.setdefault("VLLM_LINT_CACHE_DIR", "")  # conftest: no per-session cache folder
from conftest import BAD_DEPLOYMENT  # noqa: E402
from test_action import ActionRun, make_repo, run_action  # noqa: E402


def _path_without_uv() -> str:
    """PATH less every folder that holds a uv (the pip case: a runner without uv)."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(f for f in folders if f and not (Path(f) / "uv").exists())


def _measure(
    label: str, path: str, python: str, repeat: int, scratch: Path
) -> list[tuple[str, list[ActionRun]]]:
    os.environ["PATH"] = path
    workspace = make_repo(scratch / f"ws-{label}", {"deploy/vllm.yaml": BAD_DEPLOYMENT})
    cold: list[ActionRun] = []
    warm: list[ActionRun] = []
    for attempt in range(repeat):
        runner_temp = scratch / f"temp-{label}-{attempt}"  # a new job: an empty $RUNNER_TEMP
        runner_temp.mkdir()
        for runs in (cold, warm):
            run = run_action(workspace, runner_temp, {"python": python})
            if run.codes != {"install": 0, "lint": 1}:
                sys.exit(f"action_install: the action failed ({label}):\n{run.log}")
            runs.append(run)
    return [(f"{label} cold", cold), (f"{label} warm", warm)]


def _median(runs: list[ActionRun], pick: Callable[[ActionRun], float]) -> float:
    return statistics.median(pick(run) for run in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--python",
        default=os.path.realpath(sys.executable),  # the base interpreter, not this venv's
        help="the action's python input (default: the interpreter behind this one)",
    )
    parser.add_argument(
        "--uv", default=shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    )
    parser.add_argument("--only", choices=("pip", "uv"))
    args = parser.parse_args()

    plain = _path_without_uv()
    cases: list[tuple[str, str]] = []
    if args.only != "uv":
        cases.append(("pip", plain))
    if args.only != "pip" and not Path(args.uv).is_file():
        sys.exit(f"action_install: no uv at {args.uv} (pip install uv, or --only pip)")
    with tempfile.TemporaryDirectory(prefix="vllm-lint-action-bench-") as folder:
        scratch = Path(folder)
        if args.only != "pip":
            shim = scratch / "uv-bin"  # uv alone on PATH, beside nothing else
            shim.mkdir()
            (shim / "uv").symlink_to(args.uv)
            cases.append(("uv", os.pathsep.join((str(shim), plain))))
        saved = os.environ["PATH"]
        results = []
        try:
            for label, path in cases:
                results += _measure(label, path, args.python, args.repeat, scratch)
        finally:
            os.environ["PATH"] = saved
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"action_install: median of {args.repeat}, seconds (load average {load:.1f})")
    print(f"{'case':<10} {'install':>8} {'lint':>8} {'action':>8}")
    for name, runs in results:
        install = _median(runs, lambda r: r.seconds["install"])
        lint = _median(runs, lambda r: r.seconds["lint"])
        total = _median(runs, lambda r: sum(r.seconds.values()))
        print(f"{name:<10} {install:>8.2f} {lint:>8.2f} {total:>8.2f}")


if __name__ == "__main__":
    main()
