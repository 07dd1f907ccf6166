"""Build schemas/models.json: the facts vLLM reads from the config.json of well-known checkpoints.

    python -m tools.model_facts            # rewrite schemas/models.json
    python -m tools.model_facts --check    # exit 1 if schemas/models.json is stale

The configs are the ones the vLLM oracle judges with: ../shared/oracle/make_models.py writes
config.json-only copies "following the public HF configs of the named checkpoints" (run here
into a temporary folder, no network), and tools/conformance/models/ adds Kimi-Linear. Each
fact is computed from config.json the way vLLM computes it (file:line of the 0.33.0 wheel):

- attention_heads: `num_attention_heads` (model_arch_config_convertor.py:83);
- kv_heads: the first of CONFIG_FIELD_ALIASES["total_num_kv_heads"], else the attention heads
  (convertor :152, transformers_utils/config.py:57);
- max_model_len: vLLM's default --max-model-len, `_get_and_verify_max_len` (config/model.py:2545)
  on `derive_max_model_len_and_key` (convertor :374): the smallest of the length keys, overridden
  by `model_max_length`; a RoPE `factor` multiplies it except for su/longrope/llama3/yarn
  (0.30+; 0.27-0.29 replace a yarn length by original_max_position_embeddings first, which gives
  the same number for the configs here); with longrope the default is
  `original_max_position_embeddings`;
- moe: `ModelConfig.is_moe` = num_experts > 0 over CONFIG_FIELD_ALIASES["num_experts"]
  (config/model.py:2294);
- mla: `use_mla` = model_type in is_deepseek_mla's list (convertor :294; config/model.py:2068);
- hybrid: `ModelConfig.is_hybrid`, the model class implements IsHybrid (config/model.py:2041):
  the architectures of _HYBRID.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "schemas" / "models.json"
MAKE_MODELS = REPO.parent / "shared" / "oracle" / "make_models.py"
EXTRA_MODELS = REPO / "tools" / "conformance" / "models"

# oracle model kind -> the public checkpoints whose HF config.json it copies (the comments of
# make_models.py; the base Llama 3.1 8B and DeepSeek-R1 publish the same dimensions as the
# checkpoint copied, and the oracle judges them with that copy)
KINDS: dict[str, list[str]] = {
    "llama": ["meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B"],
    "llama-70b": ["meta-llama/Llama-3.3-70B-Instruct"],
    "nemotron-h": ["nvidia/NVIDIA-Nemotron-Nano-9B-v2"],
    "qwen-moe": ["Qwen/Qwen3-30B-A3B"],
    "qwen3": ["Qwen/Qwen3-8B"],
    "qwen3-32b": ["Qwen/Qwen3-32B"],
    "qwen2": ["Qwen/Qwen2.5-7B-Instruct"],
    "qwen2-14b": ["Qwen/Qwen2.5-14B-Instruct"],
    "qwen2-awq": ["Qwen/Qwen2.5-32B-Instruct-AWQ"],
    "mistral": ["mistralai/Mistral-7B-Instruct-v0.3"],
    "deepseek-v3": ["deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-R1"],
    "phi3": ["microsoft/Phi-4-mini-instruct"],
    "kimi-linear": ["moonshotai/Kimi-Linear-48B-A3B-Instruct"],
}
# transformers_utils/config.py:57-68 (0.33.0)
_KV_HEADS = ("n_head_kv", "num_kv_heads", "num_key_value_heads", "multi_query_group_num")
_EXPERTS = ("num_experts", "moe_num_experts", "n_routed_experts", "num_local_experts")
# convertor derive_max_model_len_and_key (:376)
_LEN_KEYS = (
    "max_position_embeddings",
    "n_positions",
    "max_seq_len",
    "seq_length",
    "model_max_length",
    "max_target_positions",
    "max_sequence_length",
    "max_seq_length",
    "seq_len",
)
# is_deepseek_mla's model types (convertor :294), those of the configs here
_MLA_TYPES = {"deepseek_v2", "deepseek_v3", "kimi_k2", "kimi_linear"}
# models implementing IsHybrid (vllm/model_executor/models/nemotron_h.py, kimi_linear.py)
_HYBRID = {"NemotronHForCausalLM", "KimiLinearForCausalLM"}
# RoPE types whose factor vLLM does not apply to the length (config/model.py:2608 in 0.33)
_UNSCALED = {"su", "longrope", "llama3", "yarn", "deepseek_yarn", "deepseek_llama_scaling"}
# Defaults of the config classes vLLM reads these with, where config.json leaves a key out
# and the class default changes a fact: transformers' NemotronHConfig defaults n_routed_experts
# to 8 (num_local_experts aliases it), so vLLM counts Nemotron-Nano-9B-v2 as MoE (the oracle,
# 0.34.0, accepts --enable-return-routed-experts for it); KimiLinearConfig defaults
# max_position_embeddings to 4096 (transformers_utils/configs/kimi_linear.py:55).
_CLASS_DEFAULTS: dict[str, dict[str, Any]] = {
    "nemotron_h": {"n_routed_experts": 8},
    "kimi_linear": {"max_position_embeddings": 4096},
}


def max_model_len(cfg: dict[str, Any]) -> tuple[int, str]:
    """vLLM's default max_model_len of a config, and the key it came from."""
    derived: float = float("inf")
    key = ""
    for name in _LEN_KEYS:
        value = cfg.get(name)
        if value is not None:
            if value < derived:
                key = name
            derived = min(derived, value)
    if cfg.get("model_max_length"):
        derived, key = cfg["model_max_length"], "model_max_length"
    if derived == float("inf"):
        derived, key = 2048, "(none: vLLM's 2048)"
    rope = cfg.get("rope_scaling") or cfg.get("rope_parameters")
    if isinstance(rope, dict):
        rope_type = rope.get("rope_type", rope.get("type", "default"))
        if rope_type == "longrope":
            orig = cfg.get("original_max_position_embeddings", derived)
            return int(orig), "original_max_position_embeddings (longrope)"
        if rope_type not in _UNSCALED and rope.get("factor"):
            derived *= rope["factor"]
    return int(derived), key


def facts(kind: str, cfg: dict[str, Any], source: str) -> dict[str, Any]:
    seen = {**_CLASS_DEFAULTS.get(cfg.get("model_type", ""), {}), **cfg}
    heads = seen["num_attention_heads"]
    kv = next((seen[k] for k in _KV_HEADS if seen.get(k) is not None), heads)
    length, key = max_model_len(seen)
    experts = next((seen[k] for k in _EXPERTS if seen.get(k)), 0)
    archs = cfg.get("architectures") or []
    return {
        "repo_ids": KINDS[kind],
        "oracle_kind": kind,
        "source": source,
        "architecture": archs[0],
        "model_type": cfg["model_type"],
        "attention_heads": heads,
        "kv_heads": kv,
        "max_model_len": length,
        "max_model_len_from": key,
        "moe": bool(experts),
        "mla": cfg["model_type"] in _MLA_TYPES,
        "hybrid": any(a in _HYBRID for a in archs),
    }


def build(make_models: Path = MAKE_MODELS, extra: Path = EXTRA_MODELS) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, str(make_models), tmp], check=True, capture_output=True, text=True
        )
        folders = {p.name: p for p in Path(tmp).iterdir() if p.is_dir()}
        folders.update({p.name: p for p in extra.iterdir() if p.is_dir()})
        missing = sorted(set(KINDS) - set(folders))
        if missing:
            raise SystemExit(f"no config.json for model kinds {missing}")
        models = []
        for kind in KINDS:  # the order of KINDS
            cfg = json.loads((folders[kind] / "config.json").read_text())
            where = (
                f"tools/conformance/models/{kind}/config.json"
                if (extra / kind).is_dir()
                else f"../shared/oracle/make_models.py (model kind {kind})"
            )
            source = f"public HF config.json of {KINDS[kind][0]}, as {where}"
            models.append(facts(kind, cfg, source))
    return {
        "$schema": "./models.schema.json",
        "description": (
            "Facts vLLM reads from the config.json of well-known public checkpoints (written by "
            "tools/model_facts.py; do not edit). derive.py exposes them as derived.model_* when a "
            "launch names one of repo_ids exactly (case-insensitive)."
        ),
        "models": models,
    }


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if schemas/models.json is stale")
    ap.add_argument("--make-models", type=Path, default=MAKE_MODELS)
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    args = ap.parse_args(argv)
    text = render(build(args.make_models))
    if args.check:
        if args.output.read_text() != text:
            print(f"{args.output} is stale: run python -m tools.model_facts", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
