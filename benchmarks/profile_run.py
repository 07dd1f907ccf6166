"""Where vllm-lint spends its time: imports on a cold start, and each pipeline stage on a repo.

    python benchmarks/profile_run.py                 # uses the venv that run.py --setup made
    python benchmarks/profile_run.py --python /path/to/python --repo benchmarks/out/mono-2000

Three views, written to stdout and `benchmarks/out/profile.md`:
1. the cold start (one unrelated manifest): `python -X importtime`, median self time per module
   over several runs, and the wall time of `python -c pass`, of the imports alone and of the run;
2. stage timers on the repo (files as arguments, as pre-commit passes them): chosen functions of
   the package are wrapped with a timer (inclusive time, outermost call only, call count), far
   cheaper than a profiler so the split is close to the real one; median of several processes;
3. the top functions of a cProfile run of the same (saved to `out/profile.pstats`), for detail.

Run `benchmarks/run.py` once first: it generates the repos.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import inspect
import io
import json
import os
import pkgutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_PYTHON = Path("/tmp/vllm-lint-bench/vllm-lint/bin/python")

# (modules, attribute, depth in the printed tree): the first of the `|`-separated modules that
# has the attribute is used; missing ones are skipped, as the package changes.
STAGES: tuple[tuple[str, str, int], ...] = (
    ("vllm_lint.cli", "main", 0),
    ("vllm_lint.quick", "answer", 1),
    ("vllm_lint.cli", "_configuration", 1),
    ("vllm_lint.config", "Configs.for_path", 2),
    ("vllm_lint.config", "Configs.for_file", 2),
    ("vllm_lint.files.collect", "expand", 1),
    ("vllm_lint.pipeline", "lint_paths", 1),
    ("vllm_lint.config", "Config.excludes", 2),
    ("vllm_lint.pipeline", "lint_file", 2),
    ("vllm_lint.files.sniff", "worth_parsing", 3),
    ("vllm_lint.pipeline", "check_file", 3),
    ("vllm_lint.sources.registry", "extract", 4),
    ("vllm_lint.read.yaml", "load", 5),
    ("vllm_lint.sources.kubernetes", "find", 5),
    ("vllm_lint.sources.compose", "find", 5),
    ("vllm_lint.sources.helm_values", "find", 5),
    ("vllm_lint.sources.crds", "find", 5),
    ("vllm_lint.sources.ray", "find", 5),
    ("vllm_lint.sources.registry", "_run", 5),
    ("vllm_lint.sources.env_args", "find", 5),
    ("vllm_lint.sources.vllm_config", "find", 5),
    ("vllm_lint.sources.registry", "_settle", 5),
    ("vllm_lint.sources.registry", "_duplicate_keys", 5),
    ("vllm_lint.read.yaml", "walk", 5),
    ("vllm_lint.pipeline", "_judged", 4),
    ("vllm_lint.sources.config_file", "read", 5),
    ("vllm_lint.effective.build", "settings_for", 5),
    ("vllm_lint.argv.catalog", "_catalog", 6),
    ("vllm_lint.argv.parser", "ArgvParser.parse", 6),
    ("vllm_lint.argv.mined", "check", 6),  # issue 18: pydantic constraints, registries
    ("vllm_lint.argv.mined", "validation_for", 6),
    ("vllm_lint.effective.environ", "check", 6),  # issue 18: VLLM_* variables
    ("vllm_lint.effective.derive.models", "model_facts", 7),  # issue 18: model facts
    ("vllm_lint.effective.build", "_fill_defaults", 6),
    ("vllm_lint.effective.derive", "derive", 6),
    ("vllm_lint.rules.evaluate", "evaluate", 5),
    ("vllm_lint.rules.registry", "builtin_rules", 6),
    ("vllm_lint.rules.evaluate", "_check", 6),
    ("vllm_lint.rules.lifted", "problems", 6),  # issue 28: VL600, the lifted refusals
    ("vllm_lint.argv.catalog", "known_releases", 4),
    ("vllm_lint.pipeline", "reported", 1),
    ("vllm_lint.rules.suppress", "apply", 2),
    ("vllm_lint.report.text", "report", 1),
)


# -- inside the measured interpreter --------------------------------------------------------


class Timer:
    """Inclusive wall time of the outermost calls of one function (generators: until exhausted)."""

    def __init__(self) -> None:
        self.total = 0.0
        self.calls = 0
        self.depth = 0

    def wrap(self, func: Callable[..., Any]) -> Callable[..., Any]:
        timer = self

        if inspect.isgeneratorfunction(func):

            @functools.wraps(func)
            def gen_wrapper(*args: Any, **kwargs: Any) -> Iterator[Any]:
                timer.calls += 1
                inner = func(*args, **kwargs)
                while True:
                    timer.depth += 1
                    start = time.perf_counter()
                    try:
                        item = next(inner)
                    except StopIteration:
                        return
                    finally:
                        timer.depth -= 1
                        if timer.depth == 0:
                            timer.total += time.perf_counter() - start
                    yield item

            return gen_wrapper

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            timer.calls += 1
            timer.depth += 1
            start = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                timer.depth -= 1
                if timer.depth == 0:
                    timer.total += time.perf_counter() - start

        return wrapper


def _import_all() -> float:
    start = time.perf_counter()
    import vllm_lint

    for info in pkgutil.walk_packages(vllm_lint.__path__, "vllm_lint."):
        if info.name.endswith("__main__"):
            continue
        with contextlib.suppress(Exception):
            importlib.import_module(info.name)
    return time.perf_counter() - start


def _install(module_names: str, attr: str) -> tuple[str, Timer] | None:
    """Replace the function everywhere the package holds a reference to it."""
    for module_name in module_names.split("|"):
        module = sys.modules.get(module_name)
        if module is not None and attr.split(".")[0] in vars(module):
            break
    else:
        return None
    owner: Any = module
    *path, name = attr.split(".")
    for part in path:
        owner = getattr(owner, part, None)
    original = getattr(owner, name, None) if owner is not None else None
    if original is None:
        return None
    timer = Timer()
    wrapped = timer.wrap(original)
    setattr(owner, name, wrapped)
    if not path:
        for other in list(sys.modules.values()):
            if other is None or not getattr(other, "__name__", "").startswith("vllm_lint"):
                continue
            for key, value in list(vars(other).items()):
                if value is original:
                    setattr(other, key, wrapped)
                elif isinstance(value, dict):
                    for k, v in list(value.items()):
                        if v is original:
                            value[k] = wrapped
    return module_name, timer


def inner_stages(paths: Sequence[str]) -> None:
    imports = _import_all()
    timers = {f"{m}:{a}": _install(m, a) for m, a, _d in STAGES}
    from vllm_lint.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        main(list(paths))
    result: dict[str, Any] = {"imports": imports}
    for key, found in timers.items():
        if found is not None:
            result[key] = [found[1].total, found[1].calls, found[0]]
    print(json.dumps(result))


def inner_cprofile(paths: Sequence[str], out: str) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    from vllm_lint.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        main(list(paths))
    profiler.disable()
    profiler.dump_stats(out)
    stream = io.StringIO()
    stats = pstats.Stats(profiler, stream=stream)
    stats.strip_dirs().sort_stats("tottime").print_stats(25)
    print(stream.getvalue())


# -- outside ----------------------------------------------------------------------------------


def importtime(python: Path, code: str, cwd: Path, runs: int) -> list[tuple[float, float, str]]:
    """(median self ms, median cumulative ms, module) from `-X importtime`."""
    seen: dict[str, list[tuple[int, int]]] = {}
    for _ in range(runs):
        err = subprocess.run(
            [str(python), "-X", "importtime", "-c", code],
            capture_output=True,
            text=True,
            cwd=cwd,
            check=False,
        ).stderr
        for line in err.splitlines():
            if not line.startswith("import time:") or "[us]" in line:
                continue
            own, cumulative, name = line.split(":", 1)[1].split("|")
            seen.setdefault(name.strip(), []).append((int(own), int(cumulative)))
    rows = [
        (
            statistics.median(s for s, _c in v) / 1000,
            statistics.median(c for _s, c in v) / 1000,
            name,
        )
        for name, v in seen.items()
    ]
    return sorted(rows, reverse=True)


def wall(python: Path, code: str, cwd: Path, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([str(python), "-c", code], cwd=cwd, stdout=subprocess.DEVNULL, check=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", type=Path, default=DEFAULT_PYTHON)
    parser.add_argument("--repo", type=Path, default=HERE / "out" / "mono-2000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--inner", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    ns = parser.parse_args(argv)
    if ns.inner:
        # run by the outer process inside the measured interpreter, cwd = the repo
        paths = Path(".synth-files").read_text().split("\n")
        if ns.inner[0] == "stages":
            inner_stages(paths)
        else:
            inner_cprofile(paths, ns.inner[1])
        return 0
    repo: Path = ns.repo.resolve()
    if not (repo / ".synth-files").is_file():
        print(
            f"profile: {repo} is not a generated repo; run benchmarks/run.py first", file=sys.stderr
        )
        return 2
    python: Path = ns.python
    paths = (repo / ".synth-files").read_text().split("\n")
    unrelated = next(p for p in paths if "/service-" in p)
    lines = [
        "# vllm-lint profile",
        "",
        f"Command: `python benchmarks/profile_run.py{''.join(' ' + a for a in sys.argv[1:])}` "
        f"— {time.strftime('%Y-%m-%d %H:%M')}, python `{python}`, repo `{repo.name}` "
        f"({len(paths)} files), load average {os.getloadavg()[0]:.2f}.",
        "",
        "## 1. Cold start: one unrelated manifest",
        "",
    ]
    run_code = f"from vllm_lint.cli import main; main([{unrelated!r}])"
    floor = wall(python, "pass", repo, ns.runs * 2 + 1)
    imports_only = wall(python, "import vllm_lint.cli", repo, ns.runs * 2 + 1)
    full = wall(python, run_code, repo, ns.runs * 2 + 1)
    lines += [
        f"Wall medians: `python -c pass` {floor:.1f} ms; `import vllm_lint.cli` "
        f"{imports_only:.1f} ms; the whole run {full:.1f} ms.",
        "",
    ]
    rows = importtime(python, run_code, repo, ns.runs * 2 + 1)
    baseline = {name for _s, _c, name in importtime(python, "pass", repo, 3)}
    extra = [r for r in rows if r[2] not in baseline]
    ours = [r for r in extra if r[2].startswith("vllm_lint")]
    heavy = [
        r[2]
        for r in extra
        if r[2].split(".")[0] in ("ruamel", "jsonschema", "yaml", "_ruamel_yaml")
    ]
    lines += [
        f"`-X importtime`: {len(extra)} modules beyond a bare interpreter, "
        f"{sum(r[0] for r in extra):.1f} ms of self time ({sum(r[0] for r in ours):.1f} ms in "
        f"{len(ours)} vllm_lint modules, the rest stdlib they pull in). YAML/schema libraries "
        f"imported: {', '.join(heavy[:5]) or 'none'}.",
        "",
        "| self ms | cumulative ms | module |",
        "| ---: | ---: | --- |",
        *(f"| {s:.2f} | {c:.2f} | `{name}` |" for s, c, name in extra[:25]),
        "",
        "vllm_lint modules imported on this path: "
        + ", ".join(f"`{n}`" for _s, _c, n in sorted(ours, key=lambda r: r[2])),
        "",
    ]

    # 2. stage timers
    me = str(Path(__file__).resolve())
    samples: list[dict[str, Any]] = []
    for _ in range(max(3, ns.runs)):
        proc = subprocess.run(
            [str(python), me, "--inner", "stages"],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
        )
        samples.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    total = statistics.median(s["vllm_lint.cli:main"][0] for s in samples)
    imports_ms = statistics.median(s["imports"] for s in samples) * 1000
    lines += [
        f"## 2. Stage timers, {len(paths)} files as arguments (median of {len(samples)} processes)",
        "",
        f"Every module imported up front: {imports_ms:.0f} ms "
        "(all of the package, more than a run needs). Then `main(files)`; times are inclusive, "
        "children indented under their caller.",
        "",
        "| stage | ms | % of main | calls |",
        "| --- | ---: | ---: | ---: |",
    ]
    for module, attr, depth in STAGES:
        key = f"{module}:{attr}"
        if key not in samples[0]:
            continue
        ms = statistics.median(s[key][0] for s in samples) * 1000
        calls, where = samples[0][key][1], samples[0][key][2]
        name = f"{'  ' * depth}{'↳ ' if depth else ''}`{where.removeprefix('vllm_lint.')}.{attr}`"
        lines.append(f"| {name} | {ms:.1f} | {ms / (total * 1000) * 100:.0f}% | {calls} |")

    # 3. cProfile
    stats_file = HERE / "out" / "profile.pstats"
    stats_file.parent.mkdir(exist_ok=True)  # the child writes it there
    proc = subprocess.run(
        [str(python), me, "--inner", "cprofile", str(stats_file)],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    lines += [
        "",
        "## 3. cProfile, same run (profiler overhead inflates Python-heavy code)",
        "",
        f"Saved to `{stats_file.relative_to(HERE.parent)}` (`python -m pstats` or snakeviz).",
        "",
        "```",
        proc.stdout.strip(),
        "```",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    (HERE / "out" / "profile.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
