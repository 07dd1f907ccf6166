"""What the one way out (hooks/vllm_lint/report/gate.py, issue 25) costs per finding.

Every format in `REPORTERS` is handed findings the gate made safe for its medium. This times
each reporter on N findings called directly (no gate) and through the registry (the gate),
in one process, best of R runs; the difference is the gate's cost.

    python benchmarks/report_gate.py [--findings 20000] [--runs 5] [--hostile]

`--hostile` gives every finding text the gate must escape (control, bidi, `##[`, `::`), the
slow path; by default the findings are plain ASCII, as nearly all real ones are.
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable
from functools import partial
from importlib import import_module

from vllm_lint.model import Finding, Related, Severity, Span
from vllm_lint.report import REPORTERS, ReportContext, _Reporters


def _findings(count: int, hostile: bool) -> list[Finding]:
    odd = " \x1b[31m ##[error] \u202e\n::warning::x" if hostile else ""
    return [
        Finding(
            rule="VL101",
            slug="replayssm-no-spec-decode",
            severity=Severity.ERROR,
            message=f"--use-replayssm cannot run with speculative decoding in vLLM 0.28.0{odd}",
            span=Span(f"deploy/service-{i}{odd}.yaml", 3, 5, 3, 20),
            fix="Drop the speculative config, or move to vLLM 0.32+",
            related=(Related(Span(f"deploy/service-{i}.yaml", 2, 1, 2, 3), "set here"),),
        )
        for i in range(count)
    ]


def _best(run: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--findings", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hostile", action="store_true")
    ns = parser.parse_args()
    findings = _findings(ns.findings, ns.hostile)
    context = ReportContext(1, 1, workspace=".")
    print(f"{ns.findings} {'hostile' if ns.hostile else 'plain'} findings, best of {ns.runs}")
    for name in REPORTERS:
        direct = import_module(f"vllm_lint.report.{_Reporters._MODULES[name]}").report
        alone = _best(partial(direct, findings, io.StringIO(), context), ns.runs)
        gated = _best(partial(REPORTERS[name], findings, io.StringIO(), context), ns.runs)
        per = (gated - alone) / ns.findings * 1e6
        print(
            f"  {name:9s} {alone * 1e3:7.0f} ms alone  {gated * 1e3:7.0f} ms gated  "
            f"{per:5.1f} µs/finding"
        )


if __name__ == "__main__":
    main()
