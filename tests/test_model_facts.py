"""schemas/models.json: the facts of well-known checkpoints, and derived.model_* from them."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from conftest import REPO
from vllm_lint.effective.derive import models
from vllm_lint.options import Options
from vllm_lint.pipeline import check_command_line, command_line_invocation, settings_of

MODELS = REPO / "schemas" / "models.json"
SCHEMA = REPO / "schemas" / "models.schema.json"


def _derived(argv: str, release: str = "0.33.0") -> dict[str, object]:
    settings, _ = settings_of(command_line_invocation(argv), Options(vllm_version=release))
    derived = settings.document["derived"]
    return {k: v for k, v in derived.items() if k.startswith("model_")}


def test_models_json_is_valid() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = list(Draft202012Validator(schema).iter_errors(json.loads(MODELS.read_text())))
    assert not errors, [e.message for e in errors]


def test_repo_ids_are_unique() -> None:
    ids = [r.lower() for m in json.loads(MODELS.read_text())["models"] for r in m["repo_ids"]]
    assert len(ids) == len(set(ids))


def test_models_json_is_current() -> None:
    """Built from the copies in tools/model_configs/ alone (nothing beside the checkout, no
    network)."""
    from tools import model_facts

    assert MODELS.read_text(encoding="utf-8") == model_facts.render(model_facts.build()), (
        "schemas/models.json is stale: run `python -m tools.model_facts`"
    )


# vLLM's own numbers: max_model_len as vLLM's messages print it (recorded verdicts 3ddd6cfa4495,
# 721544826844, eedce4adbcd8; oracle 0.34.0 for Phi-4-mini and Kimi-Linear), heads as
# "Total number of attention heads (32)" and "total number of KV heads (4)" print them.
@pytest.mark.parametrize(
    ("name", "heads", "kv", "max_len", "moe", "mla", "hybrid"),
    [
        ("Qwen/Qwen3-30B-A3B", 32, 4, 40960, True, False, False),
        ("Qwen/Qwen3-8B", 32, 8, 40960, False, False, False),
        ("deepseek-ai/DeepSeek-V3", 128, 128, 163840, True, True, False),
        ("meta-llama/Llama-3.1-8B-Instruct", 32, 8, 131072, False, False, False),
        ("microsoft/Phi-4-mini-instruct", 24, 8, 4096, False, False, False),
        ("moonshotai/Kimi-Linear-48B-A3B-Instruct", 32, 32, 1048576, True, True, True),
        ("nvidia/NVIDIA-Nemotron-Nano-9B-v2", 40, 8, 131072, True, False, True),
    ],
)
def test_facts_vllm_printed(
    name: str, heads: int, kv: int, max_len: int, moe: bool, mla: bool, hybrid: bool
) -> None:
    derived = _derived(name)
    shown = ("attention_heads", "kv_heads", "max_len", "moe", "mla", "hybrid")
    assert {k: v for k, v in derived.items() if k.removeprefix("model_") in shown} == {
        "model_attention_heads": heads,
        "model_kv_heads": kv,
        "model_max_len": max_len,
        "model_moe": moe,
        "model_mla": mla,
        "model_hybrid": hybrid,
    }


def test_repo_id_matches_case_insensitively_and_exactly() -> None:
    assert _derived("qwen/qwen3-30b-a3b")["model_kv_heads"] == 4
    assert _derived("--model Qwen/Qwen3-30B-A3B")["model_kv_heads"] == 4
    for other in (
        "Qwen/Qwen3-30B-A3B-Instruct-2507",
        "/models/Qwen/Qwen3-30B-A3B",
        "./Qwen3-30B-A3B",
        "Qwen3-30B-A3B",
        "m",
    ):
        assert _derived(other) == {}, other


def test_facts_are_loaded_once() -> None:
    models.model_facts("Qwen/Qwen3-8B")
    models.model_facts("meta-llama/Llama-3.1-8B-Instruct")
    assert models._facts_by_repo_id.cache_info().misses == 1


def test_unknown_words_keep_the_default_length_untrusted() -> None:
    """`$EXTRA` may hold --max-model-len: the model's default length is not judged then."""
    line = "Qwen/Qwen3-8B --no-enable-chunked-prefill --max-num-batched-tokens 16384"
    assert "VL402" in {f.rule for f in check_command_line(line, "0.34.0")}
    assert "VL402" not in {f.rule for f in check_command_line(line + " $EXTRA", "0.34.0")}
