"""A repo with twenty different violations spread over the file forms vllm-lint reads
(Kubernetes args, a `sh -c` block string, compose list / folded / `bash -lc` commands with
environment, a vLLM --config file named by a Pod, a standalone vLLM config file, a shell
script) yields exactly those twenty findings, each on the line that sets the flag; the same
repo with the fixes applied yields none."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import REPO, run_cli

FIXTURES = REPO / "tests" / "fixtures" / "twenty"

# (file, line, rule, text that line holds): the release each file deploys is in its image tag
# (v0.33.0, v0.10.2, v0.34.0) or, without one, the newest known release.
EXPECTED = {
    ("compose/docker-compose.yaml", 6, "VL201", "--enable-log-outputs"),
    ("compose/docker-compose.yaml", 7, "VL310", "--collect-detailed-traces"),
    ("compose/docker-compose.yaml", 13, "VL281", "--async-scheduling"),
    ("compose/docker-compose.yaml", 15, "VL230", "--data-parallel-rank 0"),
    ("compose/docker-compose.yaml", 19, "VL292", "expandable_segments:True"),
    ("compose/docker-compose.yaml", 25, "VL212", "--api-server-count 1"),
    ("configs/multinode.yaml", 6, "VL226", "node-rank: 2"),
    ("k8s/deployment.yaml", 19, "VL218", '"True"'),
    ("k8s/deployment.yaml", 23, "VL200", "--enable-auto-tool-choice"),
    ("k8s/deployment.yaml", 24, "VL240", "--enable-eplb"),
    ("k8s/deployment.yaml", 26, "VL271", "--max-num-batched-tokens=256"),
    ("k8s/deployment.yaml", 29, "VL284", "--max-cpu-loras=2"),
    ("k8s/llama-serve.yaml", 2, "VL241", "enable-eplb: true"),
    ("k8s/llama-serve.yaml", 5, "VL270", "max-num-batched-tokens: 4096"),
    ("k8s/llama-serve.yaml", 11, "VL300", "rejection_sample_method: fly"),
    ("k8s/statefulset.yaml", 23, "VL247", "--decode-context-parallel-size 3"),
    ("k8s/statefulset.yaml", 26, "VL217", "--data-parallel-start-rank 2"),
    ("k8s/statefulset.yaml", 28, "VL290", "NixlConnector"),
    ("k8s/statefulset.yaml", 29, "VL207", "--grpc-port 50051"),
    ("scripts/serve.sh", 7, "VL258", "--ubatch-size 64"),
}


def _lint(tree: str, tmp_path: Path) -> tuple[int, list[dict[str, object]]]:
    """Lint a copy outside any git work tree and project config, from its root."""
    root = tmp_path / tree
    shutil.copytree(FIXTURES / tree, root)
    run = run_cli("--format", "json", ".", cwd=root)
    assert run.err == "", run.err
    return run.code, run.findings()


def test_broken_repo_yields_exactly_the_twenty_findings(tmp_path: Path) -> None:
    code, findings = _lint("broken", tmp_path)
    got = {(f["path"], f["line"], f["rule"]) for f in findings}
    assert got == {(path, line, rule) for path, line, rule, _ in EXPECTED}
    assert len(findings) == 20 == len({f["rule"] for f in findings})
    assert code == 1


def test_each_finding_points_at_the_line_that_sets_it() -> None:
    for path, line, rule, text in EXPECTED:
        lines = (FIXTURES / "broken" / path).read_text(encoding="utf-8").splitlines()
        assert text in lines[line - 1], (path, line, rule)


def test_fixed_repo_is_clean(tmp_path: Path) -> None:
    code, findings = _lint("fixed", tmp_path)
    assert findings == []
    assert code == 0


def test_fixed_repo_has_the_same_files() -> None:
    broken = sorted(p.relative_to(FIXTURES / "broken") for p in (FIXTURES / "broken").rglob("*"))
    fixed = sorted(p.relative_to(FIXTURES / "fixed") for p in (FIXTURES / "fixed").rglob("*"))
    assert broken == fixed
