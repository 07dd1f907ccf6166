"""Other places flags live in YAML: Ray engine_kwargs (and YAML inside a YAML string),
operator CRDs, CI and PaaS `run:` blocks, flags in VLLM_ADDITIONAL_ARGS, and pod args
handed to a script as `$@`."""

from __future__ import annotations

from pathlib import Path

from conftest import write
from sources_helpers import launches, lint, rules_at, where, words
from vllm_lint.release import evidence_choice

RAYSERVICE = """\
apiVersion: ray.io/v1
kind: RayService
metadata:
  name: llm
spec:
  serveConfigV2: |
    applications:
    - name: llms
      args:
        llm_configs:
        - model_loading_config:
            model_source: Qwen/Qwen2.5-7B-Instruct
          runtime_env:
            env_vars:
              VLLM_USE_V1: "1"
          engine_kwargs:
            max_model_len: 1024
            enable_prefix_caching: false
            disable_log_stats: false
            speculative_config: {method: ngram, num_speculative_tokens: 3}
            no_such_kwarg: 1
"""


def test_engine_kwargs_inside_serve_config_v2_point_into_the_outer_file(tmp_path: Path) -> None:
    path = write(tmp_path, "rayservice.yaml", RAYSERVICE)
    [inv] = launches(path)
    assert where(inv) == (16, 11)
    assert words(inv) == [
        ("Qwen/Qwen2.5-7B-Instruct", 12, 27),
        ("--max-model-len", 17, 13),
        ("1024", 17, 28),
        ("--no-enable-prefix-caching", 18, 13),  # False: the flag's negation
        # disable_log_stats: false has no --no- form: it is the default, left out
        ("--speculative-config", 20, 13),
        ('{"method": "ngram", "num_speculative_tokens": 3}', 20, 33),
        ("--no-such-kwarg", 21, 13),
        ("1", 21, 28),
    ]
    assert inv.env["VLLM_USE_V1"].text == "1"
    assert ("VL001", 21, 13) in rules_at(lint(path, version="0.34.0"))


def test_kubeai_model_and_llmaz_backend_runtime(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "model.yaml",
        """\
        apiVersion: kubeai.org/v1
        kind: Model
        metadata:
          name: llama
        spec:
          url: hf://meta-llama/Llama-3.1-8B-Instruct
          engine: VLLM
          args:
            - --max-model-len=8192
        ---
        apiVersion: inference.llmaz.io/v1alpha1
        kind: BackendRuntime
        metadata:
          name: vllm
        spec:
          command: [python3, -m, vllm.entrypoints.openai.api_server]
          image: vllm/vllm-openai
          version: v0.9.2
          recommendedConfigs:
            - name: default
              args: [--model, "{{ .ModelPath }}", --port, "8080"]
        """,
    )
    kubeai, llmaz = launches(path)
    assert [t.text for t in kubeai.argv] == [
        "--model=meta-llama/Llama-3.1-8B-Instruct",
        "--served-model-name=llama",
        "--max-model-len=8192",
    ]
    assert words(kubeai)[2] == ("--max-model-len=8192", 9, 7)
    assert evidence_choice(llmaz) is not None and evidence_choice(llmaz).version == "0.9.2"
    assert words(llmaz) == [("--model", 21, 14), ("--port", 21, 43), ("8080", 21, 52)]
    assert [t.text for t in llmaz.argv if t.opaque] == ["{{ .ModelPath }}"]


def test_vllm_runtime_writes_both_negations_by_default(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "runtime.yaml",
        """\
        apiVersion: production-stack.vllm.ai/v1alpha1
        kind: VLLMRuntime
        metadata:
          name: sample
        spec:
          model:
            modelURL: org/m
          vllmConfig:
            tensorParallelSize: 2
            port: 8000
        """,
    )
    [inv] = launches(path)
    texts = [t.text for t in inv.argv]
    assert "--no-enable-chunked-prefill" in texts and "--no-enable-prefix-caching" in texts
    assert words(inv)[0] == ("org/m", 7, 15)


WORKFLOW = """\
on: push
env:
  MODEL: facebook/opt-125m
jobs:
  e2e:
    runs-on: ubuntu-latest
    steps:
      - run: pip install vllm
      - name: Start vLLM
        env:
          MAX_LEN: ${{ matrix.max_len }}
        run: |
          CUDA_VISIBLE_DEVICES=0 vllm serve "$MODEL" --port 8001 \\
            --max-model-len "$MAX_LEN" > log 2>&1 &
          docker run -d vllm/vllm-openai:v0.10.1 --model "${{ inputs.model }}" --swap-space 4
"""


def test_github_actions_run_steps(tmp_path: Path) -> None:
    path = write(tmp_path, ".github/workflows/e2e.yml", WORKFLOW)
    first, second = launches(path, tmp_path)
    assert first.origin == "job e2e step 'Start vLLM'"
    assert words(first) == [
        ("facebook/opt-125m", 3, 10),  # from the workflow's env
        ("--port", 13, 54),
        ("8001", 13, 61),
        ("--max-model-len", 14, 13),
    ]
    assert [t.text for t in first.argv if t.opaque] == ["$MAX_LEN"]  # a ${{ }} expression
    assert evidence_choice(second) is not None and evidence_choice(second).version == "0.10.1"
    assert words(second)[-2:] == [("--swap-space", 15, 80), ("4", 15, 93)]


def test_skypilot_dstack_and_rayjob(tmp_path: Path) -> None:
    sky = write(
        tmp_path,
        "sky.yaml",
        """\
        envs:
          MODEL_NAME: org/m
        resources:
          image_id: docker:vllm/vllm-openai:v0.9.2
        run: |
          if [ "$SKYPILOT_NODE_RANK" == "0" ]; then
            vllm serve $MODEL_NAME --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE
          fi
        """,
    )
    [inv] = launches(sky)
    assert evidence_choice(inv) is not None and evidence_choice(inv).version == "0.9.2"
    assert words(inv) == [("org/m", 2, 15), ("--tensor-parallel-size", 7, 28)]
    dstack = write(
        tmp_path,
        "d.dstack.yml",
        """\
        type: service
        env:
          - MODEL=openai/gpt-oss-120b
          - HF_TOKEN
        commands:
          - |
            vllm serve $MODEL \\
              --max-num-seqs 8
        """,
    )
    [inv] = launches(dstack)
    assert words(inv) == [("openai/gpt-oss-120b", 3, 11), ("--max-num-seqs", 8, 7), ("8", 8, 22)]
    rayjob = write(
        tmp_path,
        "rayjob.yaml",
        """\
        apiVersion: ray.io/v1
        kind: RayJob
        spec:
          entrypoint: vllm serve facebook/opt-13b --tensor-parallel-size 2
        """,
    )
    [inv] = launches(rayjob)
    assert words(inv) == [
        ("facebook/opt-13b", 4, 26),
        ("--tensor-parallel-size", 4, 43),
        ("2", 4, 66),
    ]


def test_flags_in_vllm_additional_args_point_into_the_env_value(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "llmisvc.yaml",
        """\
        apiVersion: serving.kserve.io/v1alpha2
        kind: LLMInferenceService
        metadata:
          name: m
        spec:
          parallelism:
            tensor: 8
          template:
            containers:
              - name: main
                env:
                  - name: VLLM_ADDITIONAL_ARGS
                    value: >-
                      --enable-prefix-caching
                      --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
        """,
    )
    [inv] = launches(path)
    assert where(inv) == (12, 19)
    assert words(inv) == [
        ("--tensor-parallel-size", 7, 5),  # the controller writes it from spec.parallelism
        ("8", 7, 13),
        ("--enable-prefix-caching", 14, 15),
        ("--kv-transfer-config", 15, 15),
        ('{"kv_connector":"NixlConnector","kv_role":"kv_both"}', 15, 37),
    ]
    assert inv.partial  # KServe's launch script adds its own flags


def test_pod_args_become_the_scripts_positional_parameters(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "pod.yaml",
        """\
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers:
            - name: vllm
              image: vllm/vllm-openai:v0.9.2
              command:
                - bash
                - -c
                - |
                  exec vllm serve "$@" --node-rank=0
                - --
              args:
                - /mnt/models
                - --tensor-parallel-size=2
        """,
    )
    [inv] = launches(path)
    assert words(inv) == [
        ("/mnt/models", 15, 11),
        ("--tensor-parallel-size=2", 16, 11),
        ("--node-rank=0", 12, 32),
    ]
