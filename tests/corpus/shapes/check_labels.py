#!/usr/bin/env python3
"""Check launches.json against the files of the launch-shapes corpus (stdlib only).

Run from anywhere: ``python3 tests/corpus/shapes/check_labels.py``. Exit status 1 on any problem.

Checks: every labelled path exists; every corpus file is labelled; every line number lies inside
its file; a launch line holds the expected program word (``vllm``, ``python``, ``image``, ``CMD``,
``ENTRYPOINT``, or the label's own ``word``); a not-launch line mentions vLLM (or its ``word``);
shapes and programs come from the known lists. Prints counts per shape.
"""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OWN_FILES = {"README.md", "SOURCES.md", "launches.json", "check_labels.py"}

SHAPES = {
    "make",
    "just",
    "taskfile",
    "slurm",
    "pbs",
    "lsf",
    "srun-options",
    "sbatch-wrap",
    "mpirun",
    "torchrun",
    "accelerate",
    "deepspeed",
    "ray-job",
    "nsys",
    "pm2",
    "numactl",
    "taskset",
    "nohup",
    "exec",
    "env",
    "timeout",
    "stdbuf",
    "uv-run",
    "conda-run",
    "poetry-run",
    "pixi-run",
    "apptainer",
    "docker-run",
    "podman-run",
    "kubectl-run",
    "eval",
    "bash-array",
    "param-default",
    "shell-function",
    "source",
    "no-subcommand",
    "dockerfile-shell-form",
    "dockerfile-exec-form",
    "dockerfile-run",
    "entrypoint-script",
    "from-vllm-image",
    "non-openai-image",
    "template-envsubst",
    "template-jinja",
    "api-server-module",
    "demo-api-server",
    "config-through-container",
    "pin-odd",
    "ci-job",
    "negative",
    "engine-command",
    "configmap-script",
    # issue 27's classes: the GPUs a carrier grants, commands other than serve that build the
    # engine (`engine-command` above), engines that are not vLLM's, vLLM's names imported under
    # another name, launch scripts carried inside other files
    "hardware-grant",
    "foreign-llm",
    "vllm-alias",
    "embedded-script",
}
PROGRAM_WORDS = {
    "vllm serve": ("vllm",),
    "vllm (no subcommand)": ("vllm",),
    "python -m vllm.entrypoints.openai.api_server": ("python",),
    "python -m vllm.entrypoints.api_server": ("python",),
    "image args": ("image", "vllm"),
    # commands other than `serve` that build the engine's parser (schemas/commands/)
    "vllm bench latency": ("vllm",),
    "vllm bench throughput": ("vllm",),
    "vllm run-batch": ("vllm",),
    "vllm launch render": ("vllm",),
    "python -m vllm.entrypoints.openai.run_batch": ("python",),
    # an engine started in-process by Python a ConfigMap carries (its AsyncEngineArgs line)
    "AsyncEngineArgs": ("AsyncEngineArgs",),
}
DOCKERFILE_WORDS = ("CMD", "ENTRYPOINT")


def main() -> int:
    data = json.loads((HERE / "launches.json").read_text(encoding="utf-8"))
    problems: list[str] = []
    labelled: set[str] = set()
    per_shape: collections.Counter[str] = collections.Counter()
    programs: collections.Counter[str] = collections.Counter()
    n_launch = n_not = 0
    repos: set[str] = set()

    for entry in data["files"]:
        rel = entry["path"]
        if rel in labelled:
            problems.append(f"{rel}: labelled twice")
        labelled.add(rel)
        repos.add(rel.split("/", 1)[0])
        path = HERE / rel
        if not path.is_file():
            problems.append(f"{rel}: labelled but missing")
            continue
        lines = path.read_bytes().decode("utf-8", errors="replace").splitlines()
        shapes = entry.get("shapes") or []
        if not shapes:
            problems.append(f"{rel}: no shapes")
        for s in shapes:
            if s not in SHAPES:
                problems.append(f"{rel}: unknown shape {s!r}")
            per_shape[s] += 1
        for launch in entry.get("launches", []):
            n_launch += 1
            ln, prog = launch.get("line"), launch.get("program")
            if prog not in PROGRAM_WORDS:
                problems.append(f"{rel}: unknown program {prog!r}")
                continue
            programs[prog] += 1
            if "model" not in launch or not (
                launch["model"] is None or isinstance(launch["model"], str)
            ):
                problems.append(f"{rel}:{ln}: model must be a string or null")
            if not isinstance(ln, int) or not 1 <= ln <= len(lines):
                problems.append(f"{rel}: launch line {ln} outside 1..{len(lines)}")
                continue
            text = lines[ln - 1]
            words = (
                (launch["word"],) if launch.get("word") else PROGRAM_WORDS[prog] + DOCKERFILE_WORDS
            )
            if not any(w in text or (w.lower() in text.lower() and w.islower()) for w in words):
                problems.append(
                    f"{rel}:{ln}: expected one of {words} for {prog!r}: {text.strip()[:80]!r}"
                )
        for neg in entry.get("not_launches", []):
            n_not += 1
            ln = neg.get("line")
            if not neg.get("why"):
                problems.append(f"{rel}:{ln}: not_launch without why")
            if not isinstance(ln, int) or not 1 <= ln <= len(lines):
                problems.append(f"{rel}: not_launch line {ln} outside 1..{len(lines)}")
                continue
            word = neg.get("word") or "vllm"
            if word.lower() not in lines[ln - 1].lower():
                problems.append(
                    f"{rel}:{ln}: not_launch line lacks {word!r}: {lines[ln - 1].strip()[:80]!r}"
                )

    on_disk = {
        p.relative_to(HERE).as_posix()
        for p in HERE.rglob("*")
        if p.is_file()
        and p.relative_to(HERE).as_posix() not in OWN_FILES
        and "__pycache__" not in p.parts
    }
    for rel in sorted(on_disk - labelled):
        problems.append(f"{rel}: file not labelled")

    print(f"files {len(labelled)}  repos {len(repos)}  launches {n_launch}  not_launches {n_not}")
    negatives = sum(1 for e in data["files"] if "negative" in e.get("shapes", []))
    print(f"files tagged negative {negatives}")
    print("programs: " + ", ".join(f"{p} {n}" for p, n in programs.most_common()))
    print("files per shape:")
    for s, n in sorted(per_shape.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {s:26} {n}")
    missing = sorted(SHAPES - set(per_shape))
    if missing:
        print("shapes with no file: " + ", ".join(missing))
    for p in problems:
        print("PROBLEM " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
