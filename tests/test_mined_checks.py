"""The generic checks that read what was mined from each release (issue 18): pydantic's
constraints (schemas/validation/), the environment (schemas/envs/), the model facts
(schemas/models.json), and what vLLM accepts without acting on it. Each expectation is what
vLLM itself answered (oracle verdicts in tests/data/verdicts/, cited by key) or a line of its
source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli, write
from vllm_lint.pipeline import check_command_line


def _rules(line: str, release: str, env: dict[str, str] | None = None) -> list[str]:
    return sorted(f.rule for f in check_command_line(line, release, env))


# -- pydantic constraints, read from schemas/validation/ -----------------------------------


@pytest.mark.parametrize(
    ("line", "release", "expected"),
    [
        # CacheConfig.gpu_memory_utilization: Field(gt=0, le=1)
        ("m --gpu-memory-utilization 0", "0.33.0", ["VL014"]),
        ("m --gpu-memory-utilization 1", "0.33.0", []),
        ("m --gpu-memory-utilization 1.01", "0.34.0", ["VL014"]),
        # before 0.11 no bound was declared: pydantic had nothing to refuse
        ("m --gpu-memory-utilization 0", "0.10.2", []),
        # a key of a JSON flag, in each way of writing it
        ("m --speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 0}'",
         "0.33.0", ["VL014"]),
        ("m --speculative-config.method ngram --speculative-config.num_speculative_tokens 0",
         "0.33.0", ["VL014"]),
        # dashes in --speculative-config's keys are converted from 0.26 (arg_utils.py:2126)
        ("m --speculative-config '{\"method\": \"ngram\", \"num-speculative-tokens\": 3}'",
         "0.33.0", []),
        ("m --speculative-config '{\"method\": \"ngram\", \"num-speculative-tokens\": 0}'",
         "0.33.0", ["VL014"]),
        # (and without the dashed key, ngram has no token count: VL396)
        ("m --speculative-config '{\"method\": \"ngram\", \"num-speculative-tokens\": 3}'",
         "0.25.1", ["VL006", "VL396"]),
        # nested classes: CompilationConfig.pass_config is a PassConfig (extra forbid)
        ("m --compilation-config '{\"pass_config\": {\"bogus\": true}}'", "0.33.0", ["VL006"]),
        ("m --compilation-config '{\"mode\": 7}'", "0.33.0", ["VL005"]),
        ("m --compilation-config '{\"mode\": \"vllm_compile\"}'", "0.33.0", []),
        # a wrong type inside a JSON flag
        ("m --compilation-config '{\"max_cudagraph_capture_size\": \"x\"}'", "0.33.0", ["VL014"]),
        # LoRAConfig is built only with --enable-lora
        ("m --max-loras 0", "0.33.0", ["VL021"]),
        ("m --enable-lora --max-loras 0", "0.33.0", ["VL014"]),
        # a KV connector the release does not register (factory.py:128 in 0.33), unless a
        # module path names its class
        ("m --kv-transfer-config '{\"kv_connector\": \"NixlConector\", \"kv_role\": "
         "\"kv_both\"}'", "0.33.0", ["VL024"]),
        ("m --kv-transfer-config '{\"kv_connector\": \"NixlConnector\", \"kv_role\": "
         "\"kv_both\"}'", "0.33.0", []),
        ("m --kv-transfer-config '{\"kv_connector\": \"MyConnector\", \"kv_role\": "
         "\"kv_both\", \"kv_connector_module_path\": \"my.module\"}'", "0.33.0", []),
        # parsers the release registers (validate_api_server_args, cli_args.py:620 in 0.33)
        ("m --enable-auto-tool-choice --tool-call-parser hermes", "0.33.0", []),
        ("m --enable-auto-tool-choice --tool-call-parser hermez", "0.33.0", ["VL005"]),
        ("m --tool-call-parser hermez", "0.33.0", []),  # looked up only for auto tool choice
        ("m --enable-auto-tool-choice --tool-call-parser mine --tool-parser-plugin p.py",
         "0.33.0", []),
        ("m --reasoning-parser deepseek_r1", "0.33.0", []),
        ("m --reasoning-parser deepseek-r1", "0.33.0", ["VL005"]),
        # --max-model-len -1 is the model's maximum (ge=-1; config/model.py:2642)
        ("Qwen/Qwen3-8B --max-model-len -1", "0.33.0", []),
        ("m --max-model-len -2", "0.33.0", ["VL014"]),
    ],
)  # fmt: skip
def test_mined_constraints(line: str, release: str, expected: list[str]) -> None:
    assert _rules(line, release) == expected


def test_the_finding_speaks_pydantic() -> None:
    (finding,) = check_command_line(
        "m --eplb-config '{\"log_balancedness_interval\": 0}'", "0.33.0"
    )
    # vLLM 0.33.0 (verdict b7e243082e99): "log_balancedness_interval: Input should be
    # greater than 0"
    assert "log_balancedness_interval: Input should be greater than 0" in finding.message
    assert "vLLM 0.33.0" in finding.message


def test_a_nested_mapping_of_a_config_file_is_checked_like_the_flag(tmp_path: Path) -> None:
    write(
        tmp_path,
        "serve.yaml",
        """
        speculative_config:
          method: ngram
          num_speculative_tokens: 0
        """,
    )
    write(tmp_path, "run.sh", "vllm serve Qwen/Qwen3-8B --config serve.yaml\n")
    run = run_cli("--vllm-version", "0.33.0", "--format", "json", "run.sh", cwd=tmp_path)
    found = [(f["rule"], Path(f["path"]).name, f["line"]) for f in run.findings()]
    assert ("VL014", "serve.yaml", 3) in found, found  # at the nested key (issue 26)
    assert run.code == 1


# -- what vLLM accepts but does not act on -------------------------------------------------


def test_config_with_equals_is_not_read(tmp_path: Path) -> None:
    write(tmp_path, "serve.yaml", "max-model-len: 999999999\n")
    write(tmp_path, "run.sh", "vllm serve Qwen/Qwen3-8B --config=serve.yaml\n")
    run = run_cli("--vllm-version", "0.33.0", "--format", "json", "run.sh", cwd=tmp_path)
    rules = [f["rule"] for f in run.findings()]
    # the file is not loaded by vLLM, so its value (above the model's limit) is never judged
    # for this launch; the file, not named by a launch vLLM reads, is linted on its own
    assert "VL018" in rules and "VL409" not in rules, run.out


def test_a_config_key_the_command_line_overrides(tmp_path: Path) -> None:
    write(tmp_path, "serve.yaml", "max-model-len: 4096\ngpu-memory-utilization: 0.8\n")
    write(tmp_path, "run.sh", "vllm serve m --config serve.yaml --max-model-len 8192\n")
    run = run_cli("--vllm-version", "0.33.0", "--format", "json", "run.sh", cwd=tmp_path)
    found = [(f["rule"], Path(f["path"]).name, f["line"]) for f in run.findings()]
    assert found == [("VL906", "serve.yaml", 1)], found


def test_a_flag_given_twice() -> None:
    assert _rules("m --max-model-len 4096 --max-model-len 8192", "0.33.0") == ["VL022"]
    assert _rules("m --max-model-len 4096 --max-model-len 4096", "0.33.0") == []


# -- environment variables, read from schemas/envs/ ----------------------------------------


def test_environment_variables() -> None:
    typo = {"VLLM_LOGGING_LEVL": "INFO"}
    assert _rules("m", "0.33.0", typo) == ["VL015"]
    (finding,) = check_command_line("m", "0.33.0", typo)
    assert "did you mean VLLM_LOGGING_LEVEL?" in finding.message
    assert _rules("m --fail-on-environ-validation", "0.33.0", typo) == ["VL017"]
    known = {"VLLM_LOGGING_LEVEL": "INFO"}
    assert _rules("m --fail-on-environ-validation", "0.33.0", known) == []
    # VLLM_USE_V1 was removed after 0.10: "last in"
    (finding,) = check_command_line("m", "0.33.0", {"VLLM_USE_V1": "1"})
    assert "last in vLLM 0.11.0" in finding.message  # every patch is catalogued
    # 0.34 refuses a removed variable with its migration hint, whatever the flag says
    assert _rules("m", "0.34.0", {"VLLM_MARLIN_INPUT_DTYPE": "int8"}) == ["VL017"]
    # env_with_choices, case-insensitive for this one
    assert _rules("m", "0.33.0", {"VLLM_FLOAT32_MATMUL_PRECISION": "HIGH"}) == []
    assert _rules("m", "0.33.0", {"VLLM_FLOAT32_MATMUL_PRECISION": "low"}) == ["VL016"]
    # variables that are not vLLM's are not judged
    assert _rules("m", "0.33.0", {"HF_TOKEN": "x", "CUDA_VISIBLE_DEVICES": "0,1"}) == []


# -- model facts, read from schemas/models.json --------------------------------------------


@pytest.mark.parametrize(
    ("line", "env", "expected"),
    [
        ("Qwen/Qwen3-8B --max-model-len 40960", {}, []),
        ("Qwen/Qwen3-8B --max-model-len 40961", {}, ["VL409"]),
        ("Qwen/Qwen3-8B --max-model-len 40961", {"VLLM_ALLOW_LONG_MAX_MODEL_LEN": "1"}, []),
        # LongRoPE: the default is the original 4096, the limit the scaled 131072
        ("microsoft/Phi-4-mini-instruct --max-model-len 131072", {}, []),
        # a name the linter does not know exactly: never guessed
        ("./models/qwen3 --max-model-len 999999", {}, []),
        # the threshold against the model's maximum when --max-model-len is left out
        ("Qwen/Qwen3-30B-A3B --long-prefill-token-threshold 40960", {}, []),
        ("Qwen/Qwen3-30B-A3B --long-prefill-token-threshold 40961", {}, ["VL273"]),
        ("Qwen/Qwen3-30B-A3B --max-model-len -1 --long-prefill-token-threshold 40961", {},
         ["VL273"]),
        # hybrid: prefix caching on by default from 0.28 needs chunked prefill
        ("nvidia/NVIDIA-Nemotron-Nano-9B-v2 --no-enable-chunked-prefill", {}, ["VL134"]),
        ("nvidia/NVIDIA-Nemotron-Nano-9B-v2 --no-enable-chunked-prefill "
         "--no-enable-prefix-caching", {}, []),
        ("Qwen/Qwen2.5-7B-Instruct -tp 8", {}, ["VL401"]),
    ],
)  # fmt: skip
def test_model_facts_are_errors(line: str, env: dict[str, str], expected: list[str]) -> None:
    findings = check_command_line(line, "0.33.0", env)
    assert sorted(f.rule for f in findings) == expected
    assert all(f.severity.label == "error" for f in findings)


def test_a_finding_on_a_model_default_says_so() -> None:
    (finding,) = check_command_line(
        "Qwen/Qwen3-30B-A3B --long-prefill-token-threshold 50000", "0.33.0"
    )
    assert "40960 (default)" in finding.message
    assert "--max-model-len" in finding.message


def test_validation_data_is_loaded_only_when_needed() -> None:
    from vllm_lint.argv import mined

    mined.validation_for.cache_clear()
    check_command_line("m --enforce-eager", "0.33.0")
    assert mined.validation_for.cache_info().currsize == 1  # read once, then cached
    data = mined.validation_for("0.33.0")
    assert data is not None and json.dumps(data)  # plain JSON data
