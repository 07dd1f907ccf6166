"""schemas/models.json as data: valid, fresh from tools/model_configs/, and right for a handful of
checkpoints checked by hand (offline: nothing beside the checkout, no vLLM)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from tools import model_facts

from conftest import REPO

pytestmark = pytest.mark.tools  # tools/model_facts

MODELS = REPO / "schemas" / "models.json"
SCHEMA = REPO / "schemas" / "models.schema.json"


def _models() -> dict[str, dict[str, Any]]:
    data = json.loads(MODELS.read_text(encoding="utf-8"))
    return {rid: m for m in data["models"] for rid in m["repo_ids"]}


def test_models_json_validates_against_its_schema() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = list(Draft202012Validator(schema).iter_errors(json.loads(MODELS.read_text())))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def test_models_json_and_sources_are_fresh() -> None:
    """What `python -m tools.model_facts --check` checks, from the copies in the repository."""
    assert MODELS.read_text(encoding="utf-8") == model_facts.render(model_facts.build()), (
        "schemas/models.json is stale: run `python -m tools.model_facts`"
    )
    assert model_facts.SOURCES.read_text(encoding="utf-8") == model_facts.render_sources()
    assert model_facts.main(["--check"]) == 0


def test_every_checkpoint_has_its_config_and_a_cited_source() -> None:
    index = model_facts.load_index()
    assert len(index) >= 40
    assert len({e["dir"] for e in index}) == len(index)
    for entry in index:
        folder = model_facts.CONFIGS / entry["dir"]
        assert (folder / "config.json").is_file(), entry["dir"]
        assert entry["dir"] == entry["repo_ids"][0].replace("/", "__"), entry["dir"]
        src = entry["source"]
        assert src["license"] and src["form"] and entry["verified"], entry["dir"]
        if src.get("repo"):
            assert len(src["commit"]) == 40 and src["path"], entry["dir"]
        else:
            assert src["file"], entry["dir"]
    folders = {p.name for p in model_facts.CONFIGS.iterdir() if p.is_dir()}
    assert folders == {e["dir"] for e in index}


# Facts checked by hand against the copies (and by tools/check_model_facts_vllm.py against
# vLLM 0.33.0's own ModelConfig).
def test_llama_3_1_8b() -> None:
    m = _models()["meta-llama/Llama-3.1-8B-Instruct"]
    assert (m["attention_heads"], m["kv_heads"], m["max_model_len"]) == (32, 8, 131072)
    assert (m["hidden_size"], m["num_layers"], m["head_dim"], m["vocab_size"]) == (
        4096,
        32,
        128,
        128256,
    )
    assert (m["rope_type"], m["rope_factor"], m["original_max_position_embeddings"]) == (
        "llama3",
        8.0,
        8192,
    )
    assert _models()["meta-llama/Meta-Llama-3.1-8B-Instruct"] == m


def test_qwen3_30b_a3b() -> None:
    m = _models()["Qwen/Qwen3-30B-A3B"]
    assert m["max_model_len"] == 40960 and m["moe"]
    assert m["experts"] == {"routed": 128, "per_token": 8}
    assert (m["attention_heads"], m["kv_heads"]) == (32, 4)


def test_deepseek_v3_is_mla_and_fp8() -> None:
    m = _models()["deepseek-ai/DeepSeek-V3"]
    assert m["mla"] and m["moe"] and not m["hybrid"]
    assert m["head_dim"] == 512 + 64  # kv_lora_rank + qk_rope_head_dim
    assert m["experts"] == {"routed": 256, "per_token": 8, "shared": 1}
    assert m["max_model_len"] == 163840 and m["rope_type"] == "yarn"
    assert m["quantization"]["quant_method"] == "fp8"
    assert m["quantization"]["weight_block_size"] == [128, 128]


def test_gpt_oss_sliding_window_is_interleaved() -> None:
    m = _models()["openai/gpt-oss-20b"]
    assert m["sliding_window"] == 128
    assert m["sliding_window_layers"] == 12 and m["num_layers"] == 24
    assert m["quantization"] == {"quant_method": "mxfp4"}
    assert _models()["openai/gpt-oss-120b"]["experts"] == {"routed": 128, "per_token": 4}


def test_quantized_checkpoints() -> None:
    awq = _models()["Qwen/Qwen2.5-32B-Instruct-AWQ"]["quantization"]
    assert (awq["quant_method"], awq["bits"], awq["group_size"]) == ("awq", 4, 128)
    fp8 = _models()["nvidia/Llama-3.1-70B-Instruct-FP8"][
        "quantization"
    ]  # from hf_quant_config.json
    assert (fp8["quant_method"], fp8["quant_algo"]) == ("modelopt", "FP8")
    ct = _models()["RedHatAI/Llama-4-Scout-17B-16E-Instruct-FP8-dynamic"]["quantization"]
    assert (ct["quant_method"], ct["bits"]) == ("compressed-tensors", 8)


def test_hybrid_layer_counts() -> None:
    nano = _models()["nvidia/NVIDIA-Nemotron-Nano-9B-v2"]
    assert nano["hybrid"] and nano["layers"] == {"attention": 4, "mamba": 27}
    nxt = _models()["Qwen/Qwen3-Next-80B-A3B-Instruct"]
    assert nxt["hybrid"] and nxt["layers"] == {"attention": 12, "linear_attention": 36}
    kimi = _models()["moonshotai/Kimi-Linear-48B-A3B-Instruct"]
    assert kimi["layers"] == {"attention": 7, "linear_attention": 20}
    assert (kimi["max_model_len"], kimi["max_model_len_from"]) == (1048576, "model_max_length")
    assert _models()["Qwen/Qwen3-32B"]["layers"] == {"attention": 64}


def test_lengths_vllm_derives() -> None:
    assert _models()["microsoft/Phi-3.5-mini-instruct"]["max_model_len"] == 4096  # longrope
    assert _models()["Qwen/Qwen2.5-7B-Instruct"]["max_model_len"] == 32768
    assert "sliding_window" not in _models()["Qwen/Qwen2.5-7B-Instruct"]  # use_sliding_window false
    gemma = _models()["google/gemma-3-1b-it"]
    assert (gemma["sliding_window"], gemma["sliding_window_layers"], gemma["num_layers"]) == (
        512,
        22,
        26,
    )
    assert _models()["meta-llama/Llama-4-Scout-17B-16E-Instruct"]["max_model_len"] == 10485760


@pytest.mark.parametrize(
    ("cfg", "expected"),
    [
        (
            {"max_position_embeddings": 4096, "rope_scaling": {"type": "linear", "factor": 2.0}},
            8192,
        ),
        (
            {"max_position_embeddings": 4096, "rope_scaling": {"rope_type": "yarn", "factor": 4.0}},
            4096,
        ),
        (
            {
                "model_type": "gemma3_text",
                "max_position_embeddings": 131072,
                "rope_scaling": {"rope_type": "linear", "factor": 8.0},
            },
            131072,
        ),
        (
            {
                "max_position_embeddings": 131072,
                "original_max_position_embeddings": 4096,
                "rope_scaling": {"type": "su", "long_factor": [1.0], "short_factor": [1.0]},
            },
            4096,
        ),
        ({"max_position_embeddings": 8192, "model_max_length": 65536}, 65536),
        ({}, 2048),
    ],
)
def test_max_model_len_rules(cfg: dict[str, Any], expected: int) -> None:
    assert model_facts.max_model_len(cfg)[0] == expected
