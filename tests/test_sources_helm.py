"""Helm values rendered to flags as each chart's template does, and raw chart templates read
on a best-effort basis (literal flags checked, the file reported as partially checked)."""

from __future__ import annotations

from pathlib import Path

from conftest import CORPUS, run_cli, write
from sources_helpers import launches, lint, rules_at, where, words
from vllm_lint.options import Options
from vllm_lint.pipeline import settings_of
from vllm_lint.release import evidence_choice

STACK = """\
servingEngineSpec:
  enableEngine: true
  modelSpec:
  - name: "llama"
    repository: "vllm/vllm-openai"
    tag: "v0.17.1"
    modelURL: "meta-llama/Llama-3.1-8B-Instruct"
    enableLoRA: true
    toolCallParser: hermes
    vllmConfig:
      enableChunkedPrefill: false
      maxModelLen: 1048576
      gpuMemoryUtilization: 0.9
      extraArgs: ["--swap-space", 0]
    modelRevision: main
    lmcacheConfig:
      enabled: true
      kvRole: kv_producer
    env:
      - name: VLLM_LOGGING_LEVEL
        value: DEBUG
  - name: "off"
    enabled: false
    modelURL: "not/deployed"
  - name: "ray"
    repository: "lmcache/vllm-openai"
    tag: "latest"
    modelURL: "org/ray-model"
    raySpec:
      enabled: true
    vllmConfig:
      enablePrefixCaching: true
      pipelineParallelSize: 2
"""


def test_production_stack_renders_like_its_template(tmp_path: Path) -> None:
    path = write(tmp_path, "values.yaml", STACK)
    llama, ray = launches(path)  # `enabled: false` is skipped, as the template does
    assert where(llama) == (7, 5)
    assert evidence_choice(llama) is not None and evidence_choice(llama).version == "0.17.1"
    assert words(llama) == [
        ("meta-llama/Llama-3.1-8B-Instruct", 7, 16),
        ("--host", 7, 5),
        ("0.0.0.0", 7, 5),
        ("--port", 7, 5),
        ("--enable-lora", 8, 5),
        ("--tool-call-parser", 9, 5),
        ("hermes", 9, 21),
        ("--no-enable-chunked-prefill", 11, 7),
        ("--no-enable-prefix-caching", 10, 5),  # the chart's default, decided by vllmConfig
        ("--max-model-len", 12, 7),
        ("1.048576e+06", 12, 20),  # Helm's `quote` of a float64
        ("--gpu_memory_utilization", 13, 7),
        ("0.9", 13, 29),
        ("--swap-space", 14, 20),
        ("0", 14, 35),
        ("--revision", 15, 5),
        ("main", 15, 20),
        ("--kv-transfer-config", 17, 7),
        ('{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_producer"}', 17, 7),
    ]
    assert [t.text for t in llama.argv if t.opaque] == ["<container port>"]
    assert llama.env["VLLM_LOGGING_LEVEL"].text == "DEBUG"
    assert words(ray)[4:] == [
        ("--distributed-executor-backend", 29, 5),
        ("ray", 29, 5),
        ("--enable-prefix-caching", 32, 7),
        ("--pipeline-parallel-size", 33, 7),
        ("2", 33, 29),
    ]


def test_what_vllm_refuses_from_a_values_file_points_at_the_value(tmp_path: Path) -> None:
    path = write(tmp_path, "values.yaml", STACK)
    found = rules_at(lint(path))
    assert ("VL004", 12, 20) in found  # int("1.048576e+06") fails (arg_utils.py:2250, 0.17.1)
    assert ("VL002", 14, 20) not in found  # --swap-space still exists in 0.17
    assert ("VL002", 14, 20) in rules_at(lint(path, version="0.18.1"))


def test_llm_d_modelservice_values_agree_with_the_rendered_output() -> None:
    """A golden pair from the chart's own examples: values-pd.yaml renders to output-pd.yaml.
    Every setting the values file makes literally is the rendered file's setting too."""
    options = Options(root=CORPUS)
    values = launches(CORPUS / "llm-d-modelservice" / "values-pd.yaml", CORPUS)
    rendered = launches(CORPUS / "llm-d-modelservice" / "output-pd.yaml", CORPUS)
    assert len(values) == len(rendered) == 2
    for ours, theirs in zip(values, rendered, strict=True):
        mine, _ = settings_of(ours, options)
        expected, _ = settings_of(theirs, options)
        literal = [p for p in mine.spans if p not in mine.opaque and not p.startswith("env.")]
        assert {"enforce_eager", "kv_transfer_config", "served_model_name"} <= set(literal)
        assert {p: mine.get(p) for p in literal} == {p: expected.get(p) for p in literal}
        assert "port" in mine.opaque and isinstance(expected.get("port"), int)  # a helper's


def test_opea_puts_extra_args_before_the_model(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "values.yaml",
        """\
        vllm:
          LLM_MODEL_ID: org/m
          port: 2080
          extraCmdArgs: ["--tensor-parallel-size", "4"]
        """,
    )
    [inv] = launches(path)
    assert [t.text for t in inv.argv] == [
        "--tensor-parallel-size",
        "4",
        "--model",
        "org/m",
        "--host",
        "0.0.0.0",
        "--port",
        "2080",
        "--download-dir",
        "/data",
    ]


def test_vllm_chart_image_command(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "values.yaml",
        """\
        image:
          repository: "vllm/vllm-openai"
          tag: "v0.9.2"
          command: ["vllm", "serve", "/data/", "--dtype", "bfloat16"]
        """,
    )
    [inv] = launches(path)
    assert evidence_choice(inv) is not None and evidence_choice(inv).version == "0.9.2"
    assert words(inv) == [("/data/", 4, 31), ("--dtype", 4, 41), ("bfloat16", 4, 52)]


TEMPLATE = """\
{{- range $spec := .Values.modelSpec }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: "{{ $spec.name }}"
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: "{{ $spec.repository }}:{{ $spec.tag }}"
          command:
          {{- if eq $spec.repository "lmcache/vllm-openai" }}
          - "/opt/venv/bin/vllm"
          {{- else }}
          - "vllm"
          {{- end }}
          - "serve"
          - {{ $spec.modelURL | quote }}
          - "--swap-space"
          - "4"
          - "--max-model-len"
          - {{ .maxModelLen | quote }}
          {{- toYaml .Values.extra | nindent 10 }}
{{- end }}
"""


def test_raw_templates_are_read_with_literal_flags_checked(tmp_path: Path) -> None:
    path = write(tmp_path, "templates/deployment.yaml", TEMPLATE)
    result = lint(path, version="0.18.1")
    [inv] = result.invocations
    assert inv.partial
    assert words(inv) == [("--swap-space", 20, 14), ("4", 21, 14), ("--max-model-len", 22, 14)]
    assert [t.text for t in inv.argv if t.opaque] == ["{{…}}", "{{…}}"]
    assert ("VL002", 20, 14) in rules_at(result)  # a literal flag, checked
    assert ("VL905", 1, 1) in rules_at(result)  # reported as partially checked (info)


def test_a_template_that_stays_unreadable_is_reported_not_crashed(tmp_path: Path) -> None:
    write(tmp_path, "t.yaml", "{{ if .x }}\nvllm: [\n{{ end }}\n  - a: b: c\n")
    run = run_cli("--format", "json", "t.yaml", cwd=tmp_path)
    assert run.code == 0, run.err
    assert [(f["rule"], f["severity"]) for f in run.findings()] == [("VL903", "info")]
