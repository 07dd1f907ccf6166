"""What documentation and Python files that never name vLLM cost (issue 20).

Before issue 20, `.md`, `.mdx`, `.rst`, `.ipynb` and `.py` files were skipped by their name
alone; now each is read and searched for `vllm` (the same byte test as a YAML manifest, without
the `--config` key heuristic). This times vllm-lint as pre-commit runs it (one process, every
file an argument) on N such files, with the readers on (the default) and off
(`lint-docs: false`, `lint-python: false`: skipped by name, as before), and one such file alone
(the cold start of a commit that touches one README).

    python benchmarks/skip_cost.py [--files 2000] [--runs 7] [--vllm-lint PATH]

The files are written under benchmarks/out/skip-cost/: Markdown pages and Python modules of
typical sizes (2-12 KiB) that never say vLLM, a notebook every 50 files.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from run import BenchError, Timing, find_tool, fmt_s, measure

HERE = Path(__file__).resolve().parent
_WORDS = [
    "deploy",
    "model",
    "server",
    "request",
    "token",
    "cache",
    "batch",
    "queue",
    "latency",
    "metric",
    "config",
    "kubernetes",
    "pod",
    "service",
    "replica",
    "scale",
    "budget",
    "route",
    "gateway",
    "health",
    "probe",
]


def _markdown(rng: random.Random, size: int) -> str:
    lines = ["# Operations guide", ""]
    while sum(len(x) + 1 for x in lines) < size:
        if rng.random() < 0.15:
            lines += ["```bash", f"kubectl rollout restart deploy/{rng.choice(_WORDS)}", "```", ""]
        else:
            lines.append(" ".join(rng.choice(_WORDS) for _ in range(14)) + ".")
            lines.append("")
    return "\n".join(lines)


def _python(rng: random.Random, size: int) -> str:
    lines = ['"""A module of an application."""', "", "import os", "import subprocess", ""]
    n = 0
    while sum(len(x) + 1 for x in lines) < size:
        n += 1
        word = rng.choice(_WORDS)
        lines += [
            f"def {word}_{n}(value: int, name: str = {word!r}) -> list[str]:",
            f'    """Return the {word} entries for {{name}}."""',
            f'    cmd = ["kubectl", "get", "{word}", name, "--output", "json"]',
            "    return subprocess.run(cmd, check=False, capture_output=True).stdout.split()",
            "",
        ]
    return "\n".join(lines)


def _notebook(rng: random.Random) -> str:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": [_markdown(rng, 800)]},
        {
            "cell_type": "code",
            "metadata": {},
            "outputs": [],
            "execution_count": 1,
            "source": [_python(rng, 1500)],
        },
    ]
    return json.dumps(
        {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1
    )


def write_repo(root: Path, files: int) -> list[str]:
    rng = random.Random(20)
    names = []
    for k in range(files):
        folder = root / f"pkg{k % 40:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        size = rng.randint(2048, 12288)
        if k % 50 == 49:
            name, text = f"nb{k}.ipynb", _notebook(rng)
        elif k % 2:
            name, text = f"mod{k}.py", _python(rng, size)
        else:
            name, text = f"page{k}.md", _markdown(rng, size)
        assert "vllm" not in text.lower()
        (folder / name).write_text(text, encoding="utf-8")
        names.append(str((folder / name).relative_to(root)))
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--vllm-lint", help="the vllm-lint executable to time")
    parser.add_argument("--out", type=Path, default=HERE / "out" / "skip-cost")
    ns = parser.parse_args(argv)
    try:
        vl = find_tool("vllm-lint", ns.vllm_lint, Path("/nonexistent"))
    except BenchError as exc:
        print(f"benchmark: {exc}", file=sys.stderr)
        return 2
    on, off = ns.out / "read", ns.out / "skipped"
    names = write_repo(on, ns.files)
    write_repo(off, ns.files)
    (off / ".vllm-lint.yaml").write_text("lint-docs: false\nlint-python: false\n", encoding="utf-8")
    (on / ".vllm-lint.yaml").write_text("lint-docs: true\nlint-python: true\n", encoding="utf-8")
    one = next(n for n in names if n.endswith(".md"))
    cases = [
        (Timing(f"{ns.files} files, read"), [str(vl), *names], on),
        (Timing(f"{ns.files} files, skipped by name"), [str(vl), *names], off),
        (Timing("one README, read"), [str(vl), one], on),
        (Timing("one README, skipped by name"), [str(vl), one], off),
    ]
    measure(cases, ns.runs)
    for timing, _argv, _cwd in cases:
        if "0 vLLM invocation(s)" not in timing.output or "Traceback" in timing.output:
            print(
                f"benchmark: unexpected output for {timing.label}:\n{timing.output}",
                file=sys.stderr,
            )
            return 2
    print(f"vllm-lint: {vl}; {ns.runs} runs each, medians\n")
    print("| case | wall | cpu | peak RSS |\n|---|---:|---:|---:|")
    for timing, _argv, _cwd in cases:
        cells = (timing.label, fmt_s(timing.wall), fmt_s(timing.cpu), f"{timing.rss_mib:.1f} MiB")
        print("| " + " | ".join(cells) + " |")
    read, skipped = cases[0][0], cases[1][0]
    per_file = (read.cpu - skipped.cpu) / ns.files * 1e6
    print(f"\ncost of reading a file that names no vLLM: {per_file:.0f} µs of CPU per file")
    return 0


if __name__ == "__main__":
    sys.exit(main())
