#!/usr/bin/env python3
"""Check the hand labels of the docs and Python corpora (stdlib only; not a pytest file).

    python3 tests/corpus/docs/check_labels.py

For tests/corpus/docs/ and tests/corpus/python/: every path in launches.json exists, every
corpus file is labelled exactly once, every line is in range, a launch's line names something
that starts vLLM, each placeholder's text is on its line, each flag is written near its launch,
and SOURCES.md names every repository directory. Prints the counts; exits 1 on any problem.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = [HERE, HERE.parent / "python"]
SKIP = {"README.md", "SOURCES.md", "launches.json", "check_labels.py"}
KINDS = {"markdown", "mdx", "rst", "notebook", "python"}
# A launch's line must name something that starts vLLM (program, module, image, API call).
LAUNCH_WORDS = re.compile(
    r"vllm|serve|api_server|grpc_server|\bLLM\(|EngineArgs|from_engine_args|engine_kwargs|"
    r"LLMConfig|run_server"
)
# optional `shapes`: the classes of issue 27 a file belongs to (tests/corpus/shapes/README.md)
SHAPES = {"hardware-grant", "engine-command", "foreign-llm", "vllm-alias", "embedded-script"}
FLAG_WINDOW = 150  # lines around the launch line where each labelled flag must be written


def kind_of(path: Path) -> str:
    return {".md": "markdown", ".mdx": "mdx", ".rst": "rst", ".ipynb": "notebook", ".py": "python"}[
        path.suffix
    ]


def unescaped(line: str) -> str:
    """A notebook's JSON line with its string escapes undone (best effort)."""
    try:
        return json.loads(line.strip().rstrip(","))
    except (ValueError, TypeError):
        return line.replace('\\"', '"').replace("\\\\", "\\")


def check(root: Path, problems: list[str]) -> Counter:
    counts: Counter = Counter()
    labels = json.loads((root / "launches.json").read_text(encoding="utf-8"))["files"]
    files = {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and p.relative_to(root).as_posix() not in SKIP
    }
    seen: set[str] = set()
    sources = (root / "SOURCES.md").read_text(encoding="utf-8") if (root / "SOURCES.md").is_file() else ""
    for entry in labels:
        rel = entry["path"]
        where = f"{root.name}/{rel}"
        if rel in seen:
            problems.append(f"{where}: labelled twice")
        seen.add(rel)
        path = root / rel
        if not path.is_file():
            problems.append(f"{where}: labelled but missing")
            continue
        if entry.get("kind") not in KINDS or entry["kind"] != kind_of(path):
            problems.append(f"{where}: kind {entry.get('kind')!r}, expected {kind_of(path)!r}")
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        n = len(lines)

        def line_ok(item: dict, what: str) -> str | None:
            ln = item.get("line")
            if not isinstance(ln, int) or not 1 <= ln <= n:
                problems.append(f"{where}: {what} line {ln} out of range 1..{n}")
                return None
            raw = lines[ln - 1]
            return raw + "\n" + unescaped(raw) if entry["kind"] == "notebook" else raw

        for shape in entry.get("shapes", []):
            if shape not in SHAPES:
                problems.append(f"{where}: unknown shape {shape!r}")
        for launch in entry["launches"]:
            for key in ("line", "program", "model", "flags", "note"):
                if key not in launch:
                    problems.append(f"{where}: launch at {launch.get('line')} lacks {key!r}")
            src = line_ok(launch, "launch")
            if src is None:
                continue
            if launch.get("word") and launch["word"] not in src:
                problems.append(f"{where}:{launch['line']}: launch line lacks {launch['word']!r}")
            elif not launch.get("word") and not LAUNCH_WORDS.search(src):
                problems.append(f"{where}:{launch['line']}: launch line names no vLLM program: {src.strip()[:80]!r}")
            lo = max(0, launch["line"] - 1 - FLAG_WINDOW)
            near = "\n".join(lines[lo : launch["line"] + FLAG_WINDOW])
            for flag in launch["flags"]:
                bare = flag.lstrip("*")
                if bare and bare not in near:
                    problems.append(f"{where}:{launch['line']}: flag {flag!r} not written near the launch")
            counts["launches"] += 1
            counts[f"launches/{entry['kind']}"] += 1
        for neg in entry["not_launches"]:
            if line_ok(neg, "not_launch") is not None and not neg.get("why"):
                problems.append(f"{where}:{neg['line']}: not_launch without 'why'")
            counts["not_launches"] += 1
        for ph in entry["placeholders"]:
            src = line_ok(ph, "placeholder")
            if src is not None and ph["text"] not in src:
                problems.append(f"{where}:{ph['line']}: placeholder {ph['text']!r} not on that line")
            counts["placeholders"] += 1
        counts["files"] += 1
        counts[f"files/{entry['kind']}"] += 1
        if not entry["launches"]:
            counts["negative files"] += 1
            counts[f"negative files/{entry['kind']}"] += 1
        repo = rel.split("/", 1)[0]
        counts[f"repo:{repo}"] += 1
        if sources and f"`{repo}`" not in sources and f"{repo}" not in sources:
            problems.append(f"{where}: repository directory {repo} not in SOURCES.md")
    for rel in sorted(files - seen):
        problems.append(f"{root.name}/{rel}: file not labelled")
    if not sources:
        problems.append(f"{root.name}/SOURCES.md missing")
    return counts


def main() -> int:
    problems: list[str] = []
    repos: set[str] = set()
    for root in CORPORA:
        counts = check(root, problems)
        kinds = ", ".join(
            f"{k.split('/')[1]} {v}" for k, v in sorted(counts.items()) if k.startswith("files/")
        )
        neg = ", ".join(
            f"{k.split('/')[1]} {v}" for k, v in sorted(counts.items()) if k.startswith("negative files/")
        )
        rs = {k[5:] for k in counts if k.startswith("repo:")}
        repos |= rs
        print(
            f"{root.name}: {counts['files']} files ({kinds}) from {len(rs)} repositories; "
            f"{counts['launches']} launches, {counts['not_launches']} not_launches, "
            f"{counts['placeholders']} placeholders; files with no launch: {counts['negative files']} ({neg})"
        )
    print(f"all: {len(repos)} repositories")
    for p in problems:
        print("PROBLEM", p)
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
