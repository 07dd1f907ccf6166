"""Time installed builds of vllm-lint side by side: the same cases, the builds alternating.

    python benchmarks/compare_builds.py base=/tmp/base-venv/bin/vllm-lint \
        now=/tmp/vllm-lint-bench/vllm-lint/bin/vllm-lint

Make a build of any commit with `git archive --prefix=src/ COMMIT | tar -x -C /tmp/b` and
`python3 -m venv /tmp/b/venv && /tmp/b/venv/bin/pip install /tmp/b/src ruamel.yaml.clib`.
Cases (in `benchmarks/out/mono-2000`, which `run.py` generates): one unrelated manifest, one
manifest that launches vLLM, and the 2,000 files as arguments. Each cell is the median wall
time and the peak RSS of the child (`os.wait4`); a Markdown table goes to stdout. Use it to
answer "is this change slower than that commit", which ratios against a peer cannot: the peer's
own time moves with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(argv: Sequence[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one run."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, _status, usage = os.wait4(child.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("builds", nargs="+", metavar="NAME=EXECUTABLE")
    parser.add_argument("--repo", type=Path, default=HERE / "out" / "mono-2000")
    parser.add_argument("--runs", type=int, default=11, help="timed runs of a one-file case")
    ns = parser.parse_args(argv)
    builds = dict(b.split("=", 1) for b in ns.builds)
    if not (ns.repo / ".git").exists():
        print(f"{ns.repo}: no repo; run `python benchmarks/run.py` first", file=sys.stderr)
        return 2
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ns.repo, capture_output=True, text=True, check=True
    )
    files = listed.stdout.split()
    unrelated = next(f for f in files if f.startswith("services/"))
    launching = next(f for f in files if f.startswith("ml/") and "deployment" in f)
    cases = {
        "one unrelated manifest": [unrelated],
        "one manifest that launches vLLM": [launching],
        f"{len(files):,} files as arguments": files,
    }
    print("| case | " + " | ".join(builds) + " |")
    print("| --- |" + " --- |" * len(builds))
    for case, args in cases.items():
        runs = ns.runs if len(args) == 1 else max(3, ns.runs // 2)
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in builds}
        for i in range(runs + 1):  # the first round warms the page cache, untimed
            for name, exe in builds.items():
                sample = run([exe, *args], ns.repo)
                if i:
                    samples[name].append(sample)
        cells = [
            f"{1e3 * statistics.median(w for w, _ in got):.0f} ms, {max(m for _, m in got):.0f} MiB"
            for got in samples.values()
        ]
        print(f"| {case} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
