"""Invocation recall and precision of vllm-lint on the labelled real-world corpora.

    python benchmarks/recall.py                      # tests/corpus/shapes, docs and python
    python benchmarks/recall.py tests/corpus/shapes  # one corpus
    python benchmarks/recall.py --misses             # also list each miss and false launch

Each corpus folder holds `<owner>__<repo>/…` files and `launches.json` (labels: the line of every
launch, lines that are not launches; label format in the corpus' README.md). Each repository
folder is linted as a user would lint their repo (`vllm-lint --show-invocations <repo>`: the
folder is the root, so `COPY`, `source`, mounts and pins resolve inside it). A labelled launch is
found when a launch is reported in its file whose anchor (`path:line` of `--show-invocations`)
starts or ends on the labelled line; a launch written once and run twice (an array run on two
lines) counts once. Every other reported launch is a false one; those on a
labelled not-launch line are counted apart (hard negatives).

Per shape (the `shapes` of the shapes corpus, the `kind` of the others): recall = labelled launches
found / labelled launches in files of that shape; precision = launches reported that are labelled /
launches reported in those files.

Per class of issue 27 (`CLASSES`: the shapes that name each class, in any corpus's `shapes`), the
same counts over every corpus, each file once, and for class 1 the VL503 findings (world size
against the GPUs the carrier grants) on its files: as each file is judged (its own release), and
as if it ran 0.11.1, the one release whose ParallelConfig refuses a world size above the node's
device count (vllm/config/parallel.py:567, schemas/rules/parallelism/VL503-*.json).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPORA = ("tests/corpus/shapes", "tests/corpus/docs", "tests/corpus/python")
# issue 27's classes: shape -> class
CLASSES = {
    "hardware-grant": "1 hardware grants (VL503)",
    "engine-command": "2 engine commands (bench, run-batch, launch render)",
    "foreign-llm": "3 only vLLM's (other engines, aliases)",
    "vllm-alias": "3 only vLLM's (other engines, aliases)",
    "embedded-script": "4 scripts inside other files",
    "configmap-script": "4 scripts inside other files",
}
HARDWARE = CLASSES["hardware-grant"]
VL503 = "VL503"
VL503_RELEASE = "0.11.1"  # the release range of VL503 (`since` 0.11.1, `before` 0.12.0)


@dataclass
class Tally:
    labelled: int = 0
    found: int = 0
    reported: int = 0
    true: int = 0
    hard_negatives: int = 0  # reported launches on a labelled not-launch line

    def add(self, other: Tally) -> None:
        self.labelled += other.labelled
        self.found += other.found
        self.reported += other.reported
        self.true += other.true
        self.hard_negatives += other.hard_negatives


@dataclass
class FileOutcome:
    path: str
    tally: Tally
    misses: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)


def lint_corpus(
    corpus: Path, repos: set[str] | None = None, vllm_version: str | None = None
) -> Iterator[tuple[str, Any]]:
    """(file relative to the corpus, its FileResult) for each file of each repository folder."""
    from vllm_lint.files.collect import expand
    from vllm_lint.options import Options
    from vllm_lint.pipeline import lint_paths

    for repo in sorted(p for p in corpus.iterdir() if p.is_dir() and "__" in p.name):
        if repos is not None and repo.name not in repos:
            continue
        options = Options(root=repo, vllm_version=vllm_version)
        for result in lint_paths(expand([str(repo)], repo), options):
            yield Path(result.path).resolve().relative_to(corpus.resolve()).as_posix(), result


def reported_launches(corpus: Path) -> dict[str, list[tuple[int, int]]]:
    """(start line, end line) of each launch reported, per file relative to the corpus."""
    found: dict[str, list[tuple[int, int]]] = collections.defaultdict(list)
    for rel, result in lint_corpus(corpus):
        for inv in result.invocations:
            anchor = inv.anchor or (inv.argv[0].span if inv.argv else None)
            lines = (anchor.line, anchor.end_line) if anchor is not None else (1, 1)
            found[rel].append(lines)
    return found


def vl503_findings(corpus: Path, files: set[str], vllm_version: str | None) -> list[str]:
    """`path:line: message` of each VL503 finding on `files` (as judged, or at one release)."""
    repos = {f.split("/", 1)[0] for f in files}
    out = []
    for rel, result in lint_corpus(corpus, repos, vllm_version):
        if rel in files:
            out += [
                f"{rel}:{f.span.line}: {f.message}" for f in result.findings if f.rule == "VL503"
            ]
    return out


def _shapes(entry: dict) -> list[str]:
    """The per-shape key: the shapes corpus' `shapes`, the other corpora's `kind`."""
    return [entry["kind"]] if "kind" in entry else (entry.get("shapes") or ["?"])


def score(corpus: Path) -> tuple[list[FileOutcome], dict[str, Tally], dict[str, list[Tally]]]:
    labels = json.loads((corpus / "launches.json").read_text(encoding="utf-8"))["files"]
    reported = reported_launches(corpus)
    outcomes = []
    per_shape: dict[str, Tally] = collections.defaultdict(Tally)
    per_class: dict[str, list[Tally]] = collections.defaultdict(list)  # a tally per file
    for entry in labels:
        rel = entry["path"]
        launches = entry.get("launches", [])
        negatives = {n["line"] for n in entry.get("not_launches", [])}
        spans = reported.get(rel, [])
        used = [False] * len(spans)
        outcome = FileOutcome(rel, Tally(labelled=len(launches), reported=len(spans)))
        for launch in launches:
            hit = next(
                (k for k, (a, b) in enumerate(spans) if not used[k] and launch["line"] in (a, b)),
                None,
            )
            if hit is None:
                note = launch.get("note", "")
                outcome.misses.append(f"{rel}:{launch['line']} {launch['program']}  {note[:100]}")
                continue
            used[hit] = True
            outcome.tally.found += 1
            outcome.tally.true += 1
        labelled = {launch["line"] for launch in launches}
        for k, (a, b) in enumerate(spans):
            if used[k]:
                continue
            if a in labelled or b in labelled:  # the same written launch, run again
                outcome.tally.reported -= 1
                continue
            hard = a in negatives or b in negatives
            outcome.tally.hard_negatives += hard
            outcome.false.append(f"{rel}:{a}" + ("  (labelled not a launch)" if hard else ""))
        outcomes.append(outcome)
        for shape in _shapes(entry):
            per_shape[shape].add(outcome.tally)
        for cls in sorted({CLASSES[s] for s in entry.get("shapes", []) if s in CLASSES}):
            per_class[cls].append(outcome.tally)
    return outcomes, per_shape, per_class


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f} %" if whole else "    – "


def report(
    name: str, outcomes: list[FileOutcome], per_shape: dict[str, Tally], misses: bool
) -> None:
    total = Tally()
    for outcome in outcomes:
        total.add(outcome.tally)
    print(f"## {name}: {len(outcomes)} files")
    print()
    print(
        f"recall {total.found}/{total.labelled} = {_pct(total.found, total.labelled).strip()}; "
        f"precision {total.true}/{total.reported} = {_pct(total.true, total.reported).strip()}; "
        f"launches reported on labelled not-launch lines: {total.hard_negatives}"
    )
    print()
    print("| shape | files | launches | found | recall | reported | precision |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    files: collections.Counter[str] = collections.Counter()
    labels = json.loads((Path(name) / "launches.json").read_text(encoding="utf-8"))["files"]
    for entry in labels:
        for shape in _shapes(entry):
            files[shape] += 1
    for shape, t in sorted(per_shape.items(), key=lambda kv: (-kv[1].labelled, kv[0])):
        print(
            f"| {shape} | {files[shape]} | {t.labelled} | {t.found} | "
            f"{_pct(t.found, t.labelled)} | {t.reported} | {_pct(t.true, t.reported)} |"
        )
    print()
    if misses:
        for outcome in outcomes:
            for line in outcome.misses:
                print(f"MISS  {line}")
            for line in outcome.false:
                print(f"FALSE {line}")
        print()


def report_classes(
    per_class: dict[str, list[Tally]], vl503: list[str], vl503_at: list[str], files: int
) -> None:
    """Issue 27's table: recall, precision and false launches per class and overall."""
    print("## issue 27's classes, every corpus")
    print()
    print(
        "| class | files | launches | found | recall | reported | precision | false launches "
        "| on not-launch lines |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = sorted(per_class.items())
    everything: list[Tally] = []
    seen: set[int] = set()
    for _, tallies in rows:
        everything += [t for t in tallies if id(t) not in seen]
        seen |= {id(t) for t in tallies}
    for cls, tallies in [*rows, ("overall (each file once)", everything)]:
        t = Tally()
        for one in tallies:
            t.add(one)
        print(
            f"| {cls} | {len(tallies)} | {t.labelled} | {t.found} | {_pct(t.found, t.labelled)} | "
            f"{t.reported} | {_pct(t.true, t.reported)} | {t.reported - t.true} | "
            f"{t.hard_negatives} |"
        )
    print()
    print(f"Class 1, VL503 on its {files} files as each is judged: {len(vl503)} finding(s)")
    for line in vl503:
        print(f"- {line}")
    print(f"Class 1, VL503 on the same files run as vLLM {VL503_RELEASE}: {len(vl503_at)}")
    for line in vl503_at:
        print(f"- {line}")
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpora", nargs="*", default=list(DEFAULT_CORPORA))
    parser.add_argument("--misses", action="store_true", help="list misses and false launches")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO / "hooks"))
    all_classes: dict[str, list[Tally]] = collections.defaultdict(list)
    vl503: list[str] = []
    vl503_at: list[str] = []
    n_hardware = 0
    for name in args.corpora:
        corpus = Path(name)
        if not (corpus / "launches.json").is_file():
            print(f"{name}: no launches.json", file=sys.stderr)
            return 2
        outcomes, per_shape, per_class = score(corpus)
        report(name, outcomes, per_shape, args.misses)
        for cls, tallies in per_class.items():
            all_classes[cls] += tallies
        hardware = {
            e["path"]
            for e in json.loads((corpus / "launches.json").read_text(encoding="utf-8"))["files"]
            if "hardware-grant" in e.get("shapes", [])
        }
        n_hardware += len(hardware)
        if hardware:
            vl503 += vl503_findings(corpus, hardware, None)
            vl503_at += vl503_findings(corpus, hardware, VL503_RELEASE)
    if all_classes:
        report_classes(all_classes, vl503, vl503_at, n_hardware)
    return 0


if __name__ == "__main__":
    sys.exit(main())
