"""Kubernetes objects, compose services and vLLM config files, read from realistic files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import run_cli, write

SPEC = '{"method":"ngram","num_speculative_tokens":3}'


def lint(repo: Path, *paths: str, version: str | None = None) -> list[dict[str, Any]]:
    args = ["--format", "json", *(["--vllm-version", version] if version else []), *paths]
    run = run_cli(*args, cwd=repo)
    assert run.code in (0, 1), run.err
    return run.findings()


def where(findings: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    return [(f["rule"], f["line"], f["col"]) for f in findings]


def invocations(repo: Path, *paths: str) -> str:
    return run_cli("--show-invocations", *paths, cwd=repo).out


def test_any_kind_with_a_pod_spec_is_found_structurally(repo: Path) -> None:
    write(
        repo,
        "all.yaml",
        f"""
        apiVersion: batch/v1
        kind: CronJob
        metadata: {{name: nightly}}
        spec:
          jobTemplate:
            spec:
              template:
                spec:
                  containers:
                    - name: vllm
                      image: vllm/vllm-openai:v0.28.0
                      command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
                      args: ["--model", "m", "--use-replayssm", "-sc", '{SPEC}']
        ---
        apiVersion: leaderworkerset.x-k8s.io/v1
        kind: LeaderWorkerSet
        metadata: {{name: lws}}
        spec:
          leaderWorkerTemplate:
            leaderTemplate:
              spec:
                containers:
                  - name: leader
                    image: vllm/vllm-openai:v0.28.0
                    args: [m, --use-replayssm, --spec-method, ngram, --spec-tokens, "2"]
            workerTemplate:
              spec:
                containers:
                  - name: worker
                    image: vllm/vllm-openai:v0.28.0
                    command: [sleep, infinity]
        ---
        apiVersion: serving.kserve.io/v1alpha1
        kind: ServingRuntime
        metadata: {{name: rt}}
        spec:
          containers:
            - name: kserve-container
              image: vllm/vllm-openai:v0.28.0
              command: [vllm, serve]
              args: [m, --use_replayssm, --speculative-config.num_speculative_tokens, "3",
                     --speculative-config.method, ngram]
        """,
    )
    assert where(lint(repo, "all.yaml")) == [
        ("VL101", 13, 58),
        ("VL101", 25, 40),
        ("VL101", 41, 34),
    ]
    shown = invocations(repo, "all.yaml")
    assert "CronJob/nightly container vllm" in shown
    assert "LeaderWorkerSet/lws container leader" in shown
    assert "container worker" not in shown


def test_sh_c_literal_and_folded_blocks_point_inside_the_block(repo: Path) -> None:
    write(
        repo,
        "pod.yaml",
        f"""
        apiVersion: v1
        kind: Pod
        metadata: {{name: p}}
        spec:
          containers:
            - name: literal
              image: vllm/vllm-openai:v0.28.0
              command: ["/bin/sh", "-c"]
              args:
                - |
                  pip list | grep vllm
                  exec vllm serve m \\
                    --use-replayssm \\
                    --speculative-config '{SPEC}'
            - name: folded
              image: vllm/vllm-openai:v0.28.0
              command:
                - bash
                - -lc
                - >
                  vllm serve m
                  --use-replayssm
                  --mamba-backend flashinfer
        """,
    )
    assert where(lint(repo, "pod.yaml")) == [
        ("VL101", 14, 13),
        ("VL102", 23, 11),
    ]


def test_kubelet_env_substitution_and_opaque_values(repo: Path) -> None:
    write(
        repo,
        "d.yaml",
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          template:
            spec:
              containers:
                - name: vllm
                  image: vllm/vllm-openai:v0.33.0
                  env:
                    - {name: BACKEND, value: cpu}
                    - name: SECRET_LEN
                      valueFrom: {secretKeyRef: {name: s, key: k}}
                    - {name: VLLM_USE_V2_MODEL_RUNNER, value: "0"}
                  args: [m, --use-replayssm, --mamba-backend, $(BACKEND),
                         --replayssm-buffer-len, $(SECRET_LEN)]
        """,
    )
    findings = lint(repo, "d.yaml")
    assert where(findings) == [("VL111", 15, 38)]
    assert "got cpu" in findings[0]["message"]


def test_compose_string_and_list_commands_and_both_env_forms(repo: Path) -> None:
    write(
        repo,
        "compose.yaml",
        f"""
        services:
          a:
            image: vllm/vllm-openai:v0.28.0
            command: m --use-replayssm --speculative-config '{SPEC}'
          b:
            image: vllm/vllm-openai:v0.33.0
            entrypoint: ["vllm", "serve"]
            command:
              - m
              - --use-replayssm
            environment:
              - VLLM_USE_V2_MODEL_RUNNER=1
          c:
            image: vllm/vllm-openai:v0.33.0
            command: ["m", "--use-replayssm"]
            environment:
              VLLM_USE_V2_MODEL_RUNNER: "0"
          d:
            image: redis:7
            command: redis-server --appendonly yes
        """,
    )
    assert where(lint(repo, "compose.yaml")) == [
        ("VL101", 4, 32),
        ("VL112", 12, 9),
    ]


def test_config_file_is_followed_and_merged_under_the_command_line(repo: Path) -> None:
    write(
        repo,
        "deploy/cfg/vllm.yaml",
        """
        model: m
        use-replayssm: true
        mamba-backend: cpu
        enable-prefix-caching: false
        """,
    )
    write(
        repo,
        "deploy/d.yaml",
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          template:
            spec:
              containers:
                - name: vllm
                  image: vllm/vllm-openai:v0.31.0
                  command: [vllm, serve, --config, cfg/vllm.yaml]
                  args: [--mamba-backend, flashinfer]
        """,
    )
    # the command line's --mamba-backend wins over the file's (the file's own is then
    # without effect: VL906, a warning on its line); the file's other flags count
    assert where(lint(repo, ".")) == [("VL906", 3, 1)]
    write(
        repo,
        "deploy/d.yaml",
        (repo / "deploy/d.yaml")
        .read_text()
        .replace("args: [--mamba-backend, flashinfer]", "args: []"),
    )
    findings = lint(repo, ".")
    assert [(f["path"], f["rule"], f["line"]) for f in findings] == [
        ("deploy/cfg/vllm.yaml", "VL111", 3)
    ]
    # the config file alone (as pre-commit passes it) is checked for the newest release
    alone = lint(repo, "deploy/cfg/vllm.yaml")
    assert [f["rule"] for f in alone] == ["VL111"]
    assert alone[0]["release"]["version"] == "0.34.0"


def test_config_file_outside_the_repo_is_not_read(repo: Path) -> None:
    write(
        repo,
        "d.yaml",
        """
        services:
          s:
            image: vllm/vllm-openai:v0.33.0
            command: [--config, /etc/passwd, m]
        """,
    )
    findings = lint(repo, "d.yaml")
    assert [(f["rule"], f["severity"]) for f in findings] == [("VL904", "info")]


def test_anchors_and_merge_keys(repo: Path) -> None:
    write(
        repo,
        "anchors.yaml",
        """
        x-vllm: &vllm
          image: vllm/vllm-openai:v0.28.0
          entrypoint: [vllm, serve]
        services:
          one:
            <<: *vllm
            command: [m, --use-replayssm, --mamba-backend, flashinfer]
        """,
    )
    assert where(lint(repo, "anchors.yaml")) == [("VL102", 7, 35)]


def test_unrelated_yaml_and_json_are_silent(repo: Path) -> None:
    write(repo, "values.json", '{"replicaCount": 2, "image": {"repository": "nginx"}}')
    write(repo, "chart.yaml", "apiVersion: v2\nname: web\nversion: 1.0.0\n")
    run = run_cli(".", cwd=repo)
    assert run.code == 0 and "0 vLLM invocation(s)" in run.out
