"""Conformance with vLLM itself: record vLLM's verdicts, replay them against vllm-lint.

    PYTHONPATH=hooks python -m tools.conformance regenerate   # the one command
    PYTHONPATH=hooks python -m tools.conformance record --release 0.33.0 [--count N] [--seed S]
        [--family python-api]
    PYTHONPATH=hooks python -m tools.conformance report [--write]
    PYTHONPATH=hooks python -m tools.conformance cases --release 0.33.0   # oracle input

`record` asks the oracle (shared/oracle, one environment per release) only about cases not
recorded yet and merges the answers into tests/data/verdicts/<release>.jsonl. `report` needs
no vLLM: it replays the recorded verdicts through the linter.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import agreement, generate, mined, oracle, python_api, report, sources, verdicts
from .cases import RELEASES, Case, unique

DOC = Path(__file__).resolve().parents[2] / "docs" / "conformance.md"
DEFAULT_COUNT = 1150
DEFAULT_SEED = 2026


def all_cases(release: str, count: int, seed: int) -> list[Case]:
    """Rule examples, fixtures, then generated cases, one per key."""
    return list(
        unique(
            [
                *sources.rule_examples((release,)),
                *sources.fixtures((release,)),
                *python_api.cases((release,)),
                *generate.generate(release, count, seed),
                *mined.cases(release),
            ]
        )
    )


def cmd_cases(args: argparse.Namespace) -> int:
    for case in all_cases(args.release, args.count, args.seed):
        print(json.dumps({**case.oracle_request(), "origin": case.origin, "family": case.family}))
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    for release in args.release:
        path = verdicts.path_for(release)
        old = verdicts.load(path) if path.exists() else []
        cases = all_cases(release, args.count, args.seed)
        if args.prune:  # keep only the verdicts of today's cases, recorded by today's criteria
            wanted = {c.key for c in cases}
            old = [v for v in old if v.case.key in wanted and not oracle.artifact_verdict(v)]
        known = {v.case.key for v in old}
        todo = [c for c in cases if args.refresh or c.key not in known]
        if args.family:  # ask about one family only (the Python API: `--family python-api`)
            todo = [c for c in todo if c.family == args.family]
        print(f"{release}: {len(cases)} cases, {len(todo)} to ask vLLM", file=sys.stderr)
        new: list[verdicts.Verdict] = []
        for n, verdict in enumerate(oracle.ask(todo, release, chunk=args.chunk), 1):
            new.append(verdict)
            if n % 50 == 0:  # keep what vLLM said so far: a long run may be interrupted
                verdicts.save(path, verdicts.merged(old, new))
        total = verdicts.save(path, verdicts.merged(old, new))
        print(f"{release}: {len(new)} new verdicts, {total} in {path}", file=sys.stderr)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    recorded = verdicts.load_all()
    judged = {r: agreement.judge_all(vs) for r, vs in recorded.items()}
    with_proposed = None  # the column shows only while proposed-rules.json holds rules
    if agreement.pending_rules(report.PROPOSED):
        proposed = agreement.with_pack(report.PROPOSED)
        with_proposed = {r: agreement.judge_all(vs, proposed) for r, vs in recorded.items()}
    body = report.render(judged, report.known_reasons(), with_proposed)
    if args.write:
        report.write_into(DOC, body)
        print(f"wrote the report into {DOC}", file=sys.stderr)
    else:
        sys.stdout.write(body)
    return 0


def cmd_regenerate(args: argparse.Namespace) -> int:
    ready = []
    for release in RELEASES:
        try:
            oracle.check_environment(release)
            ready.append(release)
        except oracle.OracleError as exc:
            print(f"skipped: {exc}", file=sys.stderr)
    args.release = ready
    cmd_record(args)
    args.write = True
    return cmd_report(args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.conformance", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("cases", "record", "regenerate"):
        p = sub.add_parser(name)
        if name == "cases":
            p.add_argument("--release", required=True, choices=RELEASES)
        elif name == "record":
            p.add_argument("--release", required=True, choices=RELEASES, nargs="+")
        p.add_argument("--count", type=int, default=DEFAULT_COUNT, help="generated cases")
        p.add_argument("--seed", type=int, default=DEFAULT_SEED)
        p.add_argument("--chunk", type=int, default=200, help="cases per oracle run")
        p.add_argument("--refresh", action="store_true", help="ask again about recorded cases")
        p.add_argument("--family", help="ask only about cases of this family (e.g. python-api)")
        p.add_argument(
            "--prune", action="store_true", help="drop recorded verdicts of cases no longer made"
        )
    p = sub.add_parser("report")
    p.add_argument("--write", action="store_true", help=f"update {DOC.name}")
    args = parser.parse_args(argv)
    handler = {
        "cases": cmd_cases,
        "record": cmd_record,
        "report": cmd_report,
        "regenerate": cmd_regenerate,
    }[args.command]
    try:
        return handler(args)
    except (oracle.OracleError, verdicts.VerdictFileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
