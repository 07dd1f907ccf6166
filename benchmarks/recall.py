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
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPORA = ("tests/corpus/shapes", "tests/corpus/docs", "tests/corpus/python")


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


def reported_launches(corpus: Path) -> dict[str, list[tuple[int, int]]]:
    """(start line, end line) of each launch reported, per file relative to the corpus."""
    from vllm_lint.files.collect import expand
    from vllm_lint.options import Options
    from vllm_lint.pipeline import lint_paths

    found: dict[str, list[tuple[int, int]]] = collections.defaultdict(list)
    for repo in sorted(p for p in corpus.iterdir() if p.is_dir() and "__" in p.name):
        options = Options(root=repo)
        results = lint_paths(expand([str(repo)], repo), options)
        for result in results:
            rel = Path(result.path).resolve().relative_to(corpus.resolve()).as_posix()
            for inv in result.invocations:
                anchor = inv.anchor or (inv.argv[0].span if inv.argv else None)
                lines = (anchor.line, anchor.end_line) if anchor is not None else (1, 1)
                found[rel].append(lines)
    return found


def score(corpus: Path) -> tuple[list[FileOutcome], dict[str, Tally]]:
    labels = json.loads((corpus / "launches.json").read_text(encoding="utf-8"))["files"]
    reported = reported_launches(corpus)
    outcomes = []
    per_shape: dict[str, Tally] = collections.defaultdict(Tally)
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
        for shape in entry.get("shapes") or [entry.get("kind", "?")]:
            per_shape[shape].add(outcome.tally)
    return outcomes, per_shape


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
        for shape in entry.get("shapes") or [entry.get("kind", "?")]:
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpora", nargs="*", default=list(DEFAULT_CORPORA))
    parser.add_argument("--misses", action="store_true", help="list misses and false launches")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO / "hooks"))
    for name in args.corpora:
        corpus = Path(name)
        if not (corpus / "launches.json").is_file():
            print(f"{name}: no launches.json", file=sys.stderr)
            return 2
        outcomes, per_shape = score(corpus)
        report(name, outcomes, per_shape, args.misses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
