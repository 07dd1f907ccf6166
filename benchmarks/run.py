"""Time vllm-lint against check-jsonschema on the same files, in the same run.

    python benchmarks/run.py --setup      # once: two venvs under /tmp/vllm-lint-bench
    python benchmarks/run.py              # full: 2,000 and 20,000 files (a few minutes)
    python benchmarks/run.py --quick      # 200 and 2,000 files, fewer runs (under a minute)

Both tools run as pre-commit runs a hook: one fresh process over every file passed as
arguments. Each case runs several times, the two tools alternating so that load from other
processes falls on both alike; the table gives medians of wall time and of CPU time
(user + system, less sensitive to a busy machine) and the peak RSS of the child
(`os.wait4`). The Markdown table goes to stdout and to `benchmarks/out/results.md`.

What is compared: check-jsonschema validates every file against `benchmarks/k8s-schema.json`
(required keys, a container shape and one "not both flags" rule); vllm-lint does its whole
job (prefilter, parse, find invocations, parse argv per release, evaluate every rule).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import synth

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SCHEMA = HERE / "k8s-schema.json"
DEFAULT_VENVS = Path("/tmp/vllm-lint-bench")
DEFAULT_CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "real-world"

# The targets (issue 7): ratios of medians on the same machine in the same run.
TARGET_REPO_RATIO = 0.20
TARGET_COLD_RATIO = 0.15  # one unrelated manifest (issue 15)
TARGET_COLD_VLLM_RATIO = 0.20  # one manifest that launches vLLM (issue 15)
TARGET_SCALE = 11.0
TARGET_MEMORY_GROWTH = 1.25  # "flat": 10x the files, at most 1.25x the peak RSS


@dataclass
class Sample:
    wall: float  # seconds
    cpu: float  # seconds, user + system of the child
    rss_kib: int  # peak resident set of the child
    code: int


@dataclass
class Timing:
    label: str
    samples: list[Sample] = field(default_factory=list)
    output: str = ""  # stdout + stderr of the first run, for the sanity checks

    @property
    def wall(self) -> float:
        return statistics.median(s.wall for s in self.samples)

    @property
    def cpu(self) -> float:
        return statistics.median(s.cpu for s in self.samples)

    @property
    def rss_mib(self) -> float:
        return max(s.rss_kib for s in self.samples) / 1024


class BenchError(Exception):
    """A run that cannot be measured honestly (tool missing, wrong result): stop and say why."""


# -- running one process --------------------------------------------------------------------


# Runs one command and writes [wall, cpu, peak RSS KiB, exit code] to the file named first.
# A child's ru_maxrss includes the RSS of the process it was forked from, up to its exec (Linux
# records the old mm's high-water mark at exec): forked straight from this script, which holds
# 20,000 paths, every tool would seem to need tens of MiB more. This small launcher is the
# parent instead, and it is smaller than any Python tool it starts.
LAUNCHER = """
import json, os, subprocess, sys, time
result, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
proc = subprocess.Popen(argv)
_pid, status, usage = os.wait4(proc.pid, 0)
wall = time.perf_counter() - start
with open(result, "w") as fh:
    json.dump([wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
               os.waitstatus_to_exitcode(status)], fh)
"""


def run_once(argv: Sequence[str], cwd: Path, capture: bool) -> tuple[Sample, str]:
    """One child process: wall time, CPU time and peak RSS from its own rusage."""
    sink = subprocess.PIPE if capture else subprocess.DEVNULL
    with tempfile.NamedTemporaryFile(suffix=".json") as result:
        launch = [sys.executable, "-c", LAUNCHER, result.name, *argv]
        done = subprocess.run(launch, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT, check=False)
        try:
            wall, cpu, rss, code = json.loads(Path(result.name).read_text())
        except (OSError, ValueError):
            raise BenchError(f"could not run {argv[0]} (launcher exit {done.returncode})") from None
    output = done.stdout.decode("utf-8", "replace") if done.stdout is not None else ""
    return Sample(wall, cpu, rss, code), output


def measure(cases: Sequence[tuple[Timing, Sequence[str], Path]], runs: int) -> None:
    """Run every case `runs` times, round-robin, plus one untimed warm-up each (page cache)."""
    for timing, argv, cwd in cases:
        _sample, timing.output = run_once(argv, cwd, capture=True)
    for _ in range(runs):
        for timing, argv, cwd in cases:
            sample, _out = run_once(argv, cwd, capture=False)
            timing.samples.append(sample)


# -- tools ----------------------------------------------------------------------------------


def find_tool(name: str, given: str | None, venv: Path) -> Path:
    if given:
        path = Path(given)
        if not path.is_file():
            raise BenchError(f"--{name}: {given} is not a file")
        return path
    in_venv = venv / "bin" / name
    if in_venv.is_file():
        return in_venv
    on_path = shutil.which(name)
    if on_path:
        return Path(on_path)
    raise BenchError(f"{name} not found: run with --setup, or pass --{name} PATH")


def setup(venvs: Path, worktree: bool) -> None:
    """Two venvs, made once: check-jsonschema with the C YAML parser, and vllm-lint, which is
    reinstalled on every --setup (a plain install, as users get it) from the checkout's last
    commit, or with --worktree from the files as they are now (uncommitted edits included)."""
    source, state = (REPO, worktree_state()) if worktree else export_head(venvs)
    plans = {
        "check-jsonschema": ["check-jsonschema", "ruamel.yaml.clib"],
        "vllm-lint": ["--force-reinstall", str(source)],
    }
    for name, packages in plans.items():
        venv = venvs / name
        python = venv / "bin" / "python"
        pip = [str(python), "-m", "pip", "install", "-q"]
        if not python.exists():
            print(f"creating {venv} …", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run([*pip, "--upgrade", "pip"], check=False, capture_output=True)
        elif name == "check-jsonschema":
            continue
        print(f"installing {' '.join(packages)} into {venv} …", file=sys.stderr)
        done = subprocess.run([*pip, *packages], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise BenchError(f"pip install {' '.join(packages)} failed:\n{done.stderr[-3000:]}")
    stamp = f"{state}, installed {time.strftime('%Y-%m-%d %H:%M')}"
    (venvs / "vllm-lint" / "source.txt").write_text(stamp, encoding="utf-8")


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def export_head(venvs: Path) -> tuple[Path, str]:
    """The checkout's HEAD as plain files (what is committed, whatever others are editing)."""
    commit = _git("rev-parse", "--short", "HEAD")
    target = venvs / "src"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", "HEAD"], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target, f"commit {commit} of {REPO}"


def worktree_state() -> str:
    commit = _git("rev-parse", "--short", "HEAD")
    changed = _git("status", "--porcelain", "--", "hooks", "schemas", "pyproject.toml")
    count = len(changed.splitlines())
    return f"the work tree of {REPO} at {commit} ({count} uncommitted file(s) in hooks/ schemas/)"


def describe(tool: Path) -> str:
    """`name version (C YAML parser: yes/no)`, from the tool and the python beside it."""
    version = subprocess.run(
        [str(tool), "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    python = tool.parent / "python"
    clib = "unknown"
    if python.exists():
        probe = subprocess.run(
            [str(python), "-c", "import _ruamel_yaml"], capture_output=True, check=False
        )
        clib = "yes" if probe.returncode == 0 else "no"
    source = tool.parent.parent / "source.txt"
    built = f"; {source.read_text().strip()}" if source.is_file() else ""
    return f"{version or tool.name} (ruamel.yaml.clib importable: {clib}{built})"


# -- data -----------------------------------------------------------------------------------


def synthetic_repo(out: Path, files: int, vllm: int) -> tuple[Path, list[str]]:
    """The monorepo as a git work tree (so a folder argument is walked like a real repo's)."""
    root = out / f"mono-{files}"
    stamp = root / ".synth-stamp"
    want = f"generator {synth.GENERATOR_VERSION} files {files} vllm {vllm}\n"
    listing = root / ".synth-files"
    if stamp.is_file() and stamp.read_text() == want and listing.is_file():
        return root, listing.read_text().split("\n")
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    print(f"generating {files} manifests in {root} …", file=sys.stderr)
    paths = sorted(synth.write(root, files, vllm))
    git = ["git", "-C", str(root), "-c", "user.name=bench", "-c", "user.email=bench@invalid"]
    subprocess.run([*git, "init", "-q"], check=True)
    (root / ".git" / "info" / "exclude").write_text(".synth-*\n")
    subprocess.run([*git, "add", "--", "ml", "services"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "synthetic monorepo"], check=True)
    listing.write_text("\n".join(paths))
    stamp.write_text(want)
    return root, paths


CONFIG_TEXT = """\
# A project configuration as a user would write one (issue 6's .vllm-lint.yaml).
fail-on: error
exclude:
  - "legacy/**"
"""


def configured_repo(out: Path, manifest: Path) -> Path:
    """A git work tree with a `.vllm-lint.yaml` and one manifest that has nothing of vLLM."""
    root = out / "configured"
    target = root / "services" / "web" / manifest.name
    if not (root / ".git").is_dir():
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    target.write_bytes(manifest.read_bytes())
    (root / ".vllm-lint.yaml").write_text(CONFIG_TEXT, encoding="utf-8")
    return root


def corpus_files(corpus: Path) -> list[str]:
    """The files a folder walk of the corpus lints (YAML and JSON), relative to it."""
    found = []
    for path in sorted(corpus.rglob("*")):
        if path.is_file() and path.suffix.lower() in (".yaml", ".yml", ".json"):
            found.append(str(path.relative_to(corpus)))
    return found


def check_args_fit(argv: Sequence[str]) -> None:
    size = sum(len(a) + 1 + 8 for a in argv) + sum(
        len(k) + len(v) + 10 for k, v in os.environ.items()
    )
    if size > os.sysconf("SC_ARG_MAX") - 4096:
        raise BenchError(f"{len(argv)} arguments exceed ARG_MAX; use a shorter --out path")


# -- sanity ---------------------------------------------------------------------------------


def expect_vllm_lint(timing: Timing, files: int | None, invocations: int | None) -> None:
    """vllm-lint must have read every file and found every server, else the time means nothing."""
    codes = {s.code for s in timing.samples}
    if not codes <= {0, 1}:
        raise BenchError(f"{timing.label}: vllm-lint exited {codes}:\n{timing.output[-2000:]}")
    summary = _summary_line(timing.output)
    wanted = (
        "file(s) checked" if files is None else f"{files} file(s) checked",
        "vLLM invocation(s)" if invocations is None else f"{invocations} vLLM invocation(s)",
    )
    if not all(w in summary for w in wanted):
        raise BenchError(
            f"{timing.label}: expected {wanted} in vllm-lint's summary, got {summary!r}"
        )


def expect_check_jsonschema(timing: Timing, parse_errors_ok: bool) -> None:
    codes = {s.code for s in timing.samples}
    if not codes <= {0, 1}:
        raise BenchError(
            f"{timing.label}: check-jsonschema exited {codes}:\n{timing.output[-2000:]}"
        )
    if not parse_errors_ok and "Failed to parse" in timing.output:
        raise BenchError(
            f"{timing.label}: check-jsonschema failed to parse:\n{timing.output[:2000]}"
        )


# -- report ---------------------------------------------------------------------------------


def fmt_s(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def verdict(ok: bool) -> str:
    return "**met**" if ok else "**not met**"


def row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def pair_row(case: str, ours: Timing, peer: Timing | None, target: float | None) -> str:
    ratio = ours.wall / peer.wall if peer else None
    cpu_ratio = ours.cpu / peer.cpu if peer else None
    return row(
        [
            case,
            f"{fmt_s(ours.wall)} (cpu {fmt_s(ours.cpu)}, {ours.rss_mib:.0f} MiB)",
            f"{fmt_s(peer.wall)} (cpu {fmt_s(peer.cpu)}, {peer.rss_mib:.0f} MiB)" if peer else "—",
            f"{ratio:.2f}×" if ratio is not None else "—",
            f"{cpu_ratio:.2f}×" if cpu_ratio is not None else "—",
            f"≤ {target:.2f}×" if target is not None else "—",
            verdict(ratio <= target) if ratio is not None and target is not None else "—",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="200 and 2,000 files, 3 runs")
    parser.add_argument("--runs", type=int, help="timed runs per case (default 5, quick 3)")
    parser.add_argument(
        "--setup", action="store_true", help="(re)install vllm-lint from HEAD into its venv first"
    )
    parser.add_argument(
        "--worktree", action="store_true", help="with --setup: install the work tree, not HEAD"
    )
    parser.add_argument("--venvs", type=Path, default=DEFAULT_VENVS, help="where --setup puts them")
    parser.add_argument("--vllm-lint", help="the vllm-lint executable to time")
    parser.add_argument("--check-jsonschema", help="the check-jsonschema executable to time")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=HERE / "out")
    ns = parser.parse_args(argv)
    try:
        return bench(ns)
    except BenchError as exc:
        print(f"benchmark: {exc}", file=sys.stderr)
        return 2


def bench(ns: argparse.Namespace) -> int:
    if ns.setup:
        setup(ns.venvs, ns.worktree)
    vl = find_tool("vllm-lint", ns.vllm_lint, ns.venvs / "vllm-lint")
    cj = find_tool("check-jsonschema", ns.check_jsonschema, ns.venvs / "check-jsonschema")
    runs = ns.runs or (3 if ns.quick else 5)
    small, large = (200, 2000) if ns.quick else (2000, 20000)
    out: Path = ns.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()

    repos = {n: synthetic_repo(out, n, n // 20) for n in (small, large)}
    cj_base = [str(cj), "--schemafile", str(SCHEMA)]

    timings: dict[str, Timing] = {}

    def t(key: str, label: str) -> Timing:
        timings[key] = Timing(label)
        return timings[key]

    # 1. Cold start: one manifest that has nothing to do with vLLM.
    root, paths = repos[small]
    unrelated = next(p for p in paths if p.endswith(".yaml") and "/service-" in p)
    python = vl.parent / "python"
    if not python.exists():
        python = Path(sys.executable)  # any interpreter measures the argv floor
    configured = configured_repo(out, root / unrelated)
    in_configured = str(Path("services", "web", Path(unrelated).name))
    launching = next(p for p in paths if p.endswith("/deployment.yaml") and p.startswith("ml/"))
    cold_cases = [
        (t("cold_vl", "cold vllm-lint"), [str(vl), unrelated], root),
        (t("cold_vlv", "cold vllm-lint, a vLLM manifest"), [str(vl), launching], root),
        (t("cold_cjv", "cold check-jsonschema, a vLLM manifest"), [*cj_base, launching], root),
        (t("cold_cj", "cold check-jsonschema"), [*cj_base, unrelated], root),
        (t("cold_cfg", "cold vllm-lint, configured"), [str(vl), in_configured], configured),
        (t("floor", "python -c pass"), [str(python), "-c", "pass"], root),
    ]
    measure(cold_cases, runs * 2 + 1)
    expect_vllm_lint(timings["cold_vl"], 1, 0)
    expect_vllm_lint(timings["cold_vlv"], 1, 1)
    expect_vllm_lint(timings["cold_cfg"], 1, 0)
    expect_check_jsonschema(timings["cold_cj"], parse_errors_ok=False)
    expect_check_jsonschema(timings["cold_cjv"], parse_errors_ok=False)

    # 2. The repos, files as arguments (pre-commit --all-files) and as one folder (CLI, action).
    for n, (root, paths) in repos.items():
        check_args_fit([*cj_base, *paths])
        n_runs = runs if n <= 2000 else max(3, runs - 2)
        measure(
            [
                (t(f"vl_{n}", f"vllm-lint {n} files"), [str(vl), *paths], root),
                (t(f"cj_{n}", f"check-jsonschema {n} files"), [*cj_base, *paths], root),
                (t(f"vld_{n}", f"vllm-lint {n} folder"), [str(vl), "."], root),
                # the interpreter alone holding the same argv: 20,000 paths cost ~25 MiB of RSS
                (
                    t(f"argv_{n}", f"python -c pass {n} args"),
                    [str(python), "-c", "pass", *paths],
                    root,
                ),
            ],
            n_runs,
        )
        expect_vllm_lint(timings[f"vl_{n}"], n, n // 20)
        expect_vllm_lint(timings[f"vld_{n}"], n, n // 20)
        expect_check_jsonschema(timings[f"cj_{n}"], parse_errors_ok=False)

    # 3. Only the files that launch vLLM: the cost of the real work per invocation.
    root, paths = repos[small]
    servers = [p for p in paths if p.endswith("/deployment.yaml") and p.startswith("ml/")]
    measure(
        [
            (t("vl_servers", "vllm-lint servers"), [str(vl), *servers], root),
            (t("cj_servers", "check-jsonschema servers"), [*cj_base, *servers], root),
        ],
        runs,
    )
    expect_vllm_lint(timings["vl_servers"], len(servers), len(servers))
    expect_check_jsonschema(timings["cj_servers"], parse_errors_ok=False)

    # 4. The real-world corpus (templates and multi-document files included).
    corpus: Path = ns.corpus
    corpus_n = 0
    if corpus.is_dir():
        found = corpus_files(corpus)
        corpus_n = len(found)
        measure(
            [
                (t("vl_corpus", "vllm-lint corpus"), [str(vl), "."], corpus),
                (t("cj_corpus", "check-jsonschema corpus"), [*cj_base, *found], corpus),
            ],
            runs,
        )
        expect_vllm_lint(timings["vl_corpus"], None, None)
        expect_check_jsonschema(timings["cj_corpus"], parse_errors_ok=True)

    elapsed = time.perf_counter() - started
    report = render(ns, vl, cj, timings, small, large, len(servers), corpus, corpus_n, elapsed)
    print(report)
    (out / "results.md").write_text(report, encoding="utf-8")
    return 0


def _summary_line(output: str) -> str:
    """vllm-lint's summary line (the "[*] N fixable" line may follow it)."""
    lines = [line for line in output.strip().splitlines() if "file(s) checked" in line]
    return lines[-1] if lines else ""


def _summary_count(timing: Timing, what: str) -> int:
    """A number from vllm-lint's summary: `… in 98 file(s) checked (186 vLLM invocation(s))`."""
    words = _summary_line(timing.output).replace("(", " ").split()
    return int(words[words.index(what) - 1])


def render(
    ns: argparse.Namespace,
    vl: Path,
    cj: Path,
    tm: dict[str, Timing],
    small: int,
    large: int,
    servers: int,
    corpus: Path,
    corpus_n: int,
    elapsed: float,
) -> str:
    command = "python benchmarks/run.py" + "".join(f" {shlex.quote(a)}" for a in sys.argv[1:])
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    runs = len(tm[f"vl_{small}"].samples)
    lines = [
        "# vllm-lint benchmark",
        "",
        f"Command: `{command}` — {time.strftime('%Y-%m-%d %H:%M')}, took {elapsed:.0f} s.",
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, load average at the end {load}.",
        f"- vllm-lint: `{vl}` — {describe(vl)}",
        f"- check-jsonschema: `{cj}` — {describe(cj)}, `--schemafile benchmarks/k8s-schema.json`",
        "",
        f"Medians of {runs} runs per repo case ({len(tm['cold_vl'].samples)} for cold start, "
        f"{len(tm[f'vl_{large}'].samples)} for {large:,} files), the tools alternating; "
        "each cell: wall time (CPU time user+sys, peak RSS). Ratio = vllm-lint wall / "
        "check-jsonschema wall (the target's measure); cpu ratio = the same for CPU time, "
        "steadier when other processes load the machine (compare the load average above).",
        "",
        row(["case", "vllm-lint", "check-jsonschema", "ratio", "cpu ratio", "target", ""]),
        row(["---"] * 7),
        pair_row(
            "one unrelated manifest (cold start)", tm["cold_vl"], tm["cold_cj"], TARGET_COLD_RATIO
        ),
        pair_row(
            "one manifest that launches vLLM (cold start)",
            tm["cold_vlv"],
            tm["cold_cjv"],
            TARGET_COLD_VLLM_RATIO,
        ),
        pair_row(
            "the same, in a repo with a `.vllm-lint.yaml`",
            tm["cold_cfg"],
            tm["cold_cj"],
            TARGET_COLD_RATIO,
        ),
        pair_row(
            f"{small:,} files as arguments ({small // 20} launch vLLM)",
            tm[f"vl_{small}"],
            tm[f"cj_{small}"],
            TARGET_REPO_RATIO if small == 2000 else None,
        ),
        pair_row(
            f"{small:,} files, folder argument `vllm-lint .`",
            tm[f"vld_{small}"],
            tm[f"cj_{small}"],
            None,
        ),
        pair_row(
            f"{large:,} files as arguments ({large // 20} launch vLLM)",
            tm[f"vl_{large}"],
            tm[f"cj_{large}"],
            TARGET_REPO_RATIO if large == 2000 else None,
        ),
        pair_row(
            f"{large:,} files, folder argument `vllm-lint .`",
            tm[f"vld_{large}"],
            tm[f"cj_{large}"],
            None,
        ),
        pair_row(
            f"only the {servers} manifests that launch vLLM",
            tm["vl_servers"],
            tm["cj_servers"],
            None,
        ),
    ]
    if "vl_corpus" in tm:
        lines.append(
            pair_row(
                f"real-world corpus (vllm-lint: the folder, "
                f"{_summary_count(tm['vl_corpus'], 'file')} files, "
                f"{_summary_count(tm['vl_corpus'], 'vLLM')} launches; "
                f"check-jsonschema: its {corpus_n} YAML/JSON files)",
                tm["vl_corpus"],
                tm["cj_corpus"],
                None,
            )
        )
    if "floor" in tm:  # the interpreter beside vllm-lint (else the one running this script)
        floor = tm["floor"]
        lines.append(
            row(
                [
                    "`python -c pass` (the interpreter's own start)",
                    f"{fmt_s(floor.wall)} (cpu {fmt_s(floor.cpu)}, {floor.rss_mib:.0f} MiB)",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                ]
            )
        )
    scale_vl = tm[f"vl_{large}"].wall / tm[f"vl_{small}"].wall
    scale_cj = tm[f"cj_{large}"].wall / tm[f"cj_{small}"].wall
    scale_dir = tm[f"vld_{large}"].wall / tm[f"vld_{small}"].wall
    mem_vl = tm[f"vl_{large}"].rss_mib / tm[f"vl_{small}"].rss_mib
    mem_cj = tm[f"cj_{large}"].rss_mib / tm[f"cj_{small}"].rss_mib
    mem_dir = tm[f"vld_{large}"].rss_mib / tm[f"vld_{small}"].rss_mib

    def net(tool: str) -> float:
        big = tm[f"{tool}_{large}"].rss_mib - tm[f"argv_{large}"].rss_mib
        return big / (tm[f"{tool}_{small}"].rss_mib - tm[f"argv_{small}"].rss_mib)

    net_vl, net_cj = net("vl"), net("cj")
    per_file = (tm[f"vl_{large}"].wall - tm[f"vl_{small}"].wall) / (large - small)
    per_file_cj = (tm[f"cj_{large}"].wall - tm[f"cj_{small}"].wall) / (large - small)
    lines += [
        "",
        row(["scaling, 10× the files", "vllm-lint", "check-jsonschema", "target", ""]),
        row(["---"] * 5),
        row(
            [
                f"time {large:,} / {small:,} files (arguments)",
                f"{scale_vl:.1f}×",
                f"{scale_cj:.1f}×",
                f"≤ {TARGET_SCALE:.0f}×",
                verdict(scale_vl <= TARGET_SCALE),
            ]
        ),
        row(
            [
                f"time {large:,} / {small:,} files (folder)",
                f"{scale_dir:.1f}×",
                "—",
                f"≤ {TARGET_SCALE:.0f}×",
                verdict(scale_dir <= TARGET_SCALE),
            ]
        ),
        row(
            [
                f"peak RSS {large:,} / {small:,} files, arguments",
                f"{mem_vl:.2f}× ({tm[f'vl_{small}'].rss_mib:.0f} → "
                f"{tm[f'vl_{large}'].rss_mib:.0f} MiB)",
                f"{mem_cj:.2f}× ({tm[f'cj_{small}'].rss_mib:.0f} → "
                f"{tm[f'cj_{large}'].rss_mib:.0f} MiB)",
                "—",
                "—",
            ]
        ),
        row(
            [
                "the same, net of `python -c pass` holding that argv "
                f"({tm[f'argv_{small}'].rss_mib:.0f} → {tm[f'argv_{large}'].rss_mib:.0f} MiB)",
                f"{net_vl:.2f}×",
                f"{net_cj:.2f}×",
                f"≤ {TARGET_MEMORY_GROWTH}× (flat)",
                verdict(net_vl <= TARGET_MEMORY_GROWTH),
            ]
        ),
        row(
            [
                f"peak RSS {large:,} / {small:,} files, folder argument (no argv)",
                f"{mem_dir:.2f}× ({tm[f'vld_{small}'].rss_mib:.0f} → "
                f"{tm[f'vld_{large}'].rss_mib:.0f} MiB)",
                "—",
                f"≤ {TARGET_MEMORY_GROWTH}× (flat)",
                verdict(mem_dir <= TARGET_MEMORY_GROWTH),
            ]
        ),
        row(
            [
                "marginal wall time per extra file",
                f"{per_file * 1e3:.2f} ms",
                f"{per_file_cj * 1e3:.2f} ms",
                "—",
                "—",
            ]
        ),
        "",
        f"Synthetic repos: `{synth.__name__}.py` generator {synth.GENERATOR_VERSION}; of n files, "
        "n/20 launch vLLM (Deployments/StatefulSets across releases 0.8–0.34, four launch forms, "
        "some with --use-replayssm and speculative decoding), n/20 are their Service/HPA/PDB "
        "(they mention vLLM, so they pass the prefilter and are parsed), the rest are ordinary "
        "services. One YAML document per file (check-jsonschema refuses multi-document files). "
        "Targets are issue 7's.",
    ]
    if corpus_n:
        lines.append(
            f"Corpus: `{corpus}` — check-jsonschema gets its {corpus_n} YAML/JSON files as "
            "arguments and fails to parse the templates and multi-document ones (its time "
            "includes that); vllm-lint walks the folder."
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
