"""Build schemas/models.json: the facts vLLM reads from the config.json of well-known checkpoints.

    python -m tools.model_facts          # write schemas/models.json, tools/model_configs/SOURCES.md
    python -m tools.model_facts --check  # exit 1 if either is stale

The configs are copies of the public config.json of each checkpoint, kept in
tools/model_configs/<org>__<name>/ (config.json, and hf_quant_config.json where the checkpoint
has one: vLLM reads it when config.json has no quantization_config). tools/model_configs/index.json
lists them: the repo ids published with that config, where the copy comes from (repository,
commit, path, licence) and how it was checked; SOURCES.md is rendered from it. The tool needs
nothing else: no network, no vLLM, no transformers.

Each fact is computed from config.json the way vLLM 0.33.0 computes it (file:line of the wheel;
`convertor` is vllm/transformers_utils/model_arch_config_convertor.py). vLLM reads most of them
from `hf_text_config`, the `text_config` of a multimodal config (config.get_text_config()), else
the config itself; where config.json leaves a key out, the transformers config class supplies
its default (_CLASS_DEFAULTS below lists those that change a fact here).

- attention_heads: `num_attention_heads` (convertor :83);
- kv_heads: the first of CONFIG_FIELD_ALIASES["total_num_kv_heads"] the config has, else the
  attention heads (convertor :152, transformers_utils/config.py:57);
- hidden_size, num_layers (`num_hidden_layers`), vocab_size: convertor :80-89;
- head_dim: ModelConfig.get_head_size (convertor :92): kv_lora_rank + qk_rope_head_dim for MLA,
  else `head_dim`, else hidden_size // attention_heads;
- max_model_len: vLLM's default --max-model-len, `_get_and_verify_max_len` (config/model.py:2545)
  on `derive_max_model_len_and_key` (convertor :374): the smallest of the length keys, overridden
  by `model_max_length`; a RoPE `factor` multiplies it except for su/longrope/llama3/yarn/
  deepseek_yarn/deepseek_llama_scaling and for Gemma 3 (0.30+; 0.27-0.29 replace a yarn length by
  original_max_position_embeddings first, which gives the same number for the configs here);
  with longrope the default is `original_max_position_embeddings`. max_model_len_from names the
  key. (tokenizer_config.json's model_max_length counts only for pooling models, :2148.)
- moe: `ModelConfig.is_moe`, num_experts > 0 over CONFIG_FIELD_ALIASES["num_experts"]
  (config/model.py:2294); experts: the routed experts (that count), experts per token
  (CONFIG_FIELD_ALIASES["num_experts_per_token"]) and shared experts (n_shared_experts /
  num_shared_experts, or 1 where the config sizes one shared expert:
  shared_expert_intermediate_size > 0);
- mla: `ModelConfig.use_mla` without VLLM_MLA_DISABLE: the text model type is in is_deepseek_mla's
  list and kv_lora_rank is set (convertor :294, config/model.py:2068);
- hybrid: `ModelConfig.is_hybrid` (config/model.py:2041): the model class implements IsHybrid
  (_HYBRID: the architectures of the 0.33.0 registry whose class does) and layer_types is not
  all attention;
- layers: how many layers of each kind the config declares (layer_types, Nemotron-H's
  hybrid_override_pattern, Kimi-Linear's linear_attn_config): attention, mamba, linear_attention
  (Gated DeltaNet, KDA); MLP-only layers count in num_layers only;
- sliding_window: `ModelConfig.get_sliding_window` (config/model.py:1625): the text config's
  `sliding_window` as the config class leaves it (the Qwen2/Qwen3 classes drop it unless
  use_sliding_window; 0 means none, :815); sliding_window_layers: how many layers use it;
- quantization: the quantization_config vLLM normalises (convertor :240): from config.json, the
  text config, compression_config or hf_quant_config.json (transformers_utils/config.py:955);
  quant_method lower-cased, ModelOpt's quant_algo mapped to modelopt / modelopt_fp4.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "schemas" / "models.json"
CONFIGS = REPO / "tools" / "model_configs"
INDEX = CONFIGS / "index.json"
SOURCES = CONFIGS / "SOURCES.md"

# transformers_utils/config.py:57-80 (0.33.0)
_KV_HEADS = (
    "n_head_kv",
    "num_kv_heads",
    "num_key_value_heads",
    "multi_query_group_num",
    "num_attention_groups",
)
_EXPERTS = ("num_experts", "moe_num_experts", "n_routed_experts", "num_local_experts")
_EXPERTS_PER_TOKEN = (
    "num_experts_per_tok",
    "num_experts_per_token",
    "top_k_experts",
    "moe_topk",
    "moe_top_k",
    "top_k",
)
_SHARED_EXPERTS = ("n_shared_experts", "num_shared_experts", "moe_num_shared_experts")
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
# is_deepseek_mla's model types (convertor :298)
_MLA_TYPES = {
    "axk1", "deepseek_v2", "deepseek_v3", "deepseek_v32", "deepseek_v4", "deepseek_v41",
    "dots3_note", "deepseek_mtp", "k3_dspark", "glm5_next", "glm5_next_text", "glm_moe_dsa",
    "glm4_moe_lite", "glm4_moe_lite_mtp", "kimi_k2", "kimi_linear", "longcat_flash",
    "pangu_ultra_moe", "pangu_ultra_moe_mtp", "bailing_hybrid", "bailing_hybrid_mtp",
    "bailing_hybrid_v3_mtp", "hy_v4", "hy_v4_mtp",
}  # fmt: skip
# The architectures whose vLLM 0.33.0 model class implements IsHybrid (model_executor/models/
# registry.py names the class; interfaces.py:990): Nemotron-H, Qwen3-Next, Qwen3.5, Kimi-Linear,
# Jamba, Falcon-H1, GraniteMoeHybrid, LFM2, Zamba2 and others.
_HYBRID = {
    "AliceAIForCausalLM", "BailingMoeV2_5ForCausalLM", "BailingMoeV3ForCausalLM",
    "BailingMoeV3VLForConditionalGeneration", "FalconH1ForCausalLM", "Glm5NextForCausalLM",
    "Glm5NextForConditionalGeneration", "GraniteMoeHybridForCausalLM", "JambaForCausalLM",
    "JambaForSequenceClassification", "KimiK3ForConditionalGeneration", "KimiLinearForCausalLM",
    "Lfm2ForCausalLM", "Lfm2MoeForCausalLM", "Lfm2VlForConditionalGeneration",
    "NemotronHForCausalLM", "NemotronHPuzzleForCausalLM", "NemotronH_Nano_VL_V2",
    "OlmoHybridForCausalLM", "Qwen3NextForCausalLM", "Qwen3_5ForCausalLM",
    "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForCausalLM",
    "Qwen3_5MoeForConditionalGeneration", "Zamba2ForCausalLM",
}  # fmt: skip
# RoPE types whose factor vLLM does not apply to the length (config/model.py:2613 in 0.33)
_UNSCALED = {"su", "longrope", "llama3", "yarn", "deepseek_yarn", "deepseek_llama_scaling"}
# layer_types spellings (config/model.py:112 _ATTENTION_LAYER_TYPES, plus the per-layer
# attention kinds of Gemma, gpt-oss and Llama 4)
_ATTENTION = {
    "full_attention", "attention", "sliding_attention", "chunked_attention",
    "indexed_attention", "deepseek_sparse_attention", "qwen_sparse_attention",
}  # fmt: skip
# Defaults of the transformers 5.x config classes vLLM 0.33 reads these with, where config.json
# leaves a key out and the default changes a fact: NemotronHConfig has 8 routed experts, 2 per
# token (so vLLM counts every Nemotron-H as MoE: the oracle, 0.34.0, accepts
# --enable-return-routed-experts for Nemotron-Nano-9B-v2); KimiLinearConfig defaults
# max_position_embeddings to 4096 (transformers_utils/configs/kimi_linear.py:55); Gemma 2/3 tie
# the embeddings.
_CLASS_DEFAULTS: dict[str, dict[str, Any]] = {
    "nemotron_h": {"n_routed_experts": 8, "num_experts_per_tok": 2},
    "kimi_linear": {"max_position_embeddings": 4096},
    "gemma2": {"tie_word_embeddings": True},
    "gemma3_text": {"tie_word_embeddings": True},
}
# Config classes that keep sliding_window only with use_sliding_window (transformers Qwen2Config
# and its kin: `self.sliding_window = sliding_window if self.use_sliding_window else None`)
_SLIDING_IF_USED = {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen2_5_vl", "qwen2_5_vl_text"}


def _first(cfg: dict[str, Any], names: tuple[str, ...], default: Any = None) -> Any:
    """getattr_iter (config/utils.py:132): the first of names the config has."""
    for name in names:
        if name in cfg:
            return cfg[name]
    return default


def _rope(cfg: dict[str, Any]) -> list[dict[str, Any]]:
    """iter_rope_parameters (transformers_utils/config.py:690) after patch_legacy_rope_type:
    rope_scaling (transformers 4 name) or rope_parameters, one dict per layer type if nested."""
    rope = cfg.get("rope_scaling") or cfg.get("rope_parameters")
    if not isinstance(rope, dict) or not rope:
        return []
    nested = all(isinstance(v, dict) for v in rope.values())
    params = [p for p in rope.values() if p] if nested else [rope]
    out = []
    for p in params:
        rope_type = str(p.get("rope_type", p.get("type", "default")))
        rope_type = {"su": "longrope", "mrope": "default"}.get(rope_type, rope_type)
        out.append({**p, "rope_type": rope_type})
    return out


def max_model_len(cfg: dict[str, Any]) -> tuple[int, str]:
    """vLLM's default max_model_len of a (text) config, and the key it came from."""
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
    params = _rope(cfg)
    if params and "gemma3" not in cfg.get("model_type", ""):
        factor = 1.0
        for p in params:
            if p["rope_type"] not in _UNSCALED:
                factor = p.get("factor", factor)
        derived *= factor if factor is not None else 1.0
    if any(p["rope_type"] == "longrope" for p in params):
        orig = cfg.get("original_max_position_embeddings", derived)
        return int(orig), "original_max_position_embeddings (longrope)"
    return int(derived), key


def max_model_len_limit(cfg: dict[str, Any]) -> int:
    """The largest --max-model-len vLLM takes for a (text) config without
    VLLM_ALLOW_LONG_MAX_MODEL_LEN: the derived length after RoPE scaling (LongRoPE's shorter
    default aside), or the config's `model_max_length` when that is larger
    (_get_and_verify_max_len, config/model.py:2655-2684 in 0.33)."""
    params = _rope(cfg)
    if any(p["rope_type"] == "longrope" for p in params):
        cfg = {**cfg, "rope_parameters": None, "rope_scaling": None}  # longrope: unscaled
    derived, _key = max_model_len(cfg)
    return max(derived, int(cfg.get("model_max_length") or 0))


def _layer_types(cfg: dict[str, Any]) -> list[str] | None:
    """The per-layer kinds the config declares, or that its class derives from it."""
    n = cfg.get("num_hidden_layers", 0)
    if isinstance(cfg.get("layer_types"), list):
        return list(cfg["layer_types"])
    pattern = cfg.get("hybrid_override_pattern")  # Nemotron-H: M mamba, * attention, - MLP, E MoE
    if isinstance(pattern, str):
        kinds = {"M": "mamba", "*": "attention", "-": "mlp", "E": "moe"}
        return [kinds.get(c, c) for c in pattern]
    linear = cfg.get("linear_attn_config")  # Kimi-Linear: 1-based layer numbers
    if isinstance(linear, dict) and "kda_layers" in linear:
        kda = set(linear["kda_layers"])
        return ["linear_attention" if i + 1 in kda else "attention" for i in range(n)]
    interval = cfg.get("full_attention_interval")  # Qwen3-Next (Qwen3NextConfig)
    if interval and cfg.get("model_type") == "qwen3_next":
        return ["linear_attention" if (i + 1) % interval else "full_attention" for i in range(n)]
    # Gemma 2 alternates sliding and full layers; Gemma 3 has one full layer in
    # sliding_window_pattern (Gemma2Config / Gemma3TextConfig derive layer_types so)
    if cfg.get("model_type") == "gemma2":
        return ["sliding_attention" if (i + 1) % 2 else "full_attention" for i in range(n)]
    if cfg.get("model_type") == "gemma3_text":
        every = cfg.get("sliding_window_pattern", 6)
        return ["sliding_attention" if (i + 1) % every else "full_attention" for i in range(n)]
    return None


def _layers(cfg: dict[str, Any]) -> dict[str, int]:
    types = _layer_types(cfg)
    if types is None:
        return {"attention": cfg.get("num_hidden_layers", 0)}
    counts = {
        "attention": sum(t in _ATTENTION for t in types),
        "mamba": sum(t == "mamba" for t in types),
        "linear_attention": sum(t == "linear_attention" for t in types),
    }
    return {k: v for k, v in counts.items() if v}


def _sliding_window(cfg: dict[str, Any]) -> tuple[int | None, int]:
    window = cfg.get("sliding_window")
    if cfg.get("model_type") in _SLIDING_IF_USED and not cfg.get("use_sliding_window", False):
        window = None
    if not window:
        return None, 0
    types = _layer_types(cfg)
    if types is None or not any(t == "sliding_attention" for t in types):
        return window, cfg.get("num_hidden_layers", 0)
    return window, sum(t == "sliding_attention" for t in types)


def quantization(cfg: dict[str, Any], hf_quant: dict[str, Any] | None) -> dict[str, Any] | None:
    """The checkpoint's quantization, as convertor _normalize_quantization_config (:240) leaves
    it: quant_method and the few keys that size it."""
    text = cfg.get("text_config") or {}
    q = cfg.get("quantization_config") or hf_quant
    if q is None:
        q = cfg.get("compression_config") or text.get("quantization_config")
    if not isinstance(q, dict):
        return None
    q = dict(q)
    producer = (q.get("producer") or {}).get("name")
    modelopt: dict[str, Any] = q["quantization"] if isinstance(q.get("quantization"), dict) else {}
    out: dict[str, Any] = {}
    if producer == "modelopt" or "modelopt_quant_config" in modelopt:
        algo = str(modelopt.get("quant_algo", "")).upper()
        if algo in {"FP8", "FP8_PER_CHANNEL_PER_TOKEN", "FP8_PB_WO"}:
            q["quant_method"] = "modelopt"
        elif algo == "NVFP4":
            q["quant_method"] = "modelopt_fp4"
        elif algo == "MIXED_PRECISION":
            q["quant_method"] = "modelopt_mixed"
        out["quant_algo"] = modelopt.get("quant_algo")
        if modelopt.get("kv_cache_quant_algo"):
            out["kv_cache_quant_algo"] = modelopt["kv_cache_quant_algo"]
    method = (
        str(q.get("quant_method", "")).lower().replace("compressed_tensors", "compressed-tensors")
    )
    out = {"quant_method": method, **out}
    bits = _first(q, ("bits", "w_bit", "weight_bits"))
    group = _first(q, ("group_size", "q_group_size"))
    groups = q.get("config_groups")
    if isinstance(groups, dict) and groups:  # compressed-tensors: the first group's weights
        weights = next(iter(groups.values())).get("weights") or {}
        bits = bits if bits is not None else weights.get("num_bits")
        group = group if group is not None else weights.get("group_size")
        if weights.get("type"):
            out["weights_type"] = weights["type"]
        if weights.get("strategy"):
            out["strategy"] = weights["strategy"]
    for name, value in (("bits", bits), ("group_size", group)):
        if value is not None:
            out[name] = value
    for name in ("fmt", "format", "weight_block_size", "activation_scheme", "version", "sym"):
        if q.get(name) is not None:
            out[name] = q[name]
    return out


def facts(
    entry: dict[str, Any], cfg: dict[str, Any], hf_quant: dict[str, Any] | None
) -> dict[str, Any]:
    text_raw: dict[str, Any] = (
        cfg["text_config"] if isinstance(cfg.get("text_config"), dict) else cfg
    )
    text_type = text_raw.get("model_type", cfg.get("model_type", ""))
    text = {**_CLASS_DEFAULTS.get(text_type, {}), **text_raw, "model_type": text_type}
    heads = text["num_attention_heads"]
    kv = _first(text, _KV_HEADS)
    kv = heads if kv is None else kv
    experts = _first(text, _EXPERTS) or 0
    per_token = _first(text, _EXPERTS_PER_TOKEN) or 0
    shared = _first(text, _SHARED_EXPERTS)
    if shared is None and (text.get("shared_expert_intermediate_size") or 0) > 0:
        shared = 1
    mla = text_type in _MLA_TYPES and text.get("kv_lora_rank") is not None
    if mla:
        head_dim = text["kv_lora_rank"] + text.get("qk_rope_head_dim", 0)
    elif text.get("head_dim"):
        head_dim = text["head_dim"]
    else:
        head_dim = text["hidden_size"] // heads
    length, key = max_model_len(text)
    archs = cfg.get("architectures") or []
    types = _layer_types(text)
    hybrid = any(a in _HYBRID for a in archs) and (
        types is None or not all(t in ("attention", "full_attention") for t in types)
    )
    window, window_layers = _sliding_window(text)
    rope = _rope(text)
    orig = text.get("original_max_position_embeddings")
    if orig is None:
        orig = next(
            (
                p["original_max_position_embeddings"]
                for p in rope
                if "original_max_position_embeddings" in p
            ),
            None,
        )
    dtype = _first(cfg, ("torch_dtype", "dtype")) or _first(text_raw, ("torch_dtype", "dtype"))
    # what config.json says (the top level first: multimodal configs state it there), else the
    # class default where it changes the answer (Gemma); absent when neither says
    tie = (
        cfg["tie_word_embeddings"]
        if "tie_word_embeddings" in cfg
        else text.get("tie_word_embeddings")
    )
    out: dict[str, Any] = {
        "repo_ids": entry["repo_ids"],
        "source": f"tools/model_configs/{entry['dir']}/config.json "
        f"({_source_text(entry['source'])})",
        "architecture": archs[0],
        "architectures": archs,
        "model_type": cfg["model_type"],
        **({"text_model_type": text_type} if text_type != cfg["model_type"] else {}),
        "attention_heads": heads,
        "kv_heads": kv,
        "hidden_size": text["hidden_size"],
        "num_layers": text["num_hidden_layers"],
        "head_dim": head_dim,
        "vocab_size": text["vocab_size"],
        "max_model_len": length,
        "max_model_len_from": key,
        "max_model_len_limit": max_model_len_limit(text),
        "max_position_embeddings": text.get("max_position_embeddings"),
    }
    if orig is not None:
        out["original_max_position_embeddings"] = orig
    scaled = [p for p in rope if p["rope_type"] != "default"]
    if scaled:
        out["rope_type"] = scaled[0]["rope_type"]
        if scaled[0].get("factor") is not None:
            out["rope_factor"] = scaled[0]["factor"]
    out["layers"] = _layers(text)
    out["moe"] = bool(experts)
    if experts:
        out["experts"] = {"routed": experts, "per_token": per_token}
        if shared:
            out["experts"]["shared"] = shared
    out["mla"] = mla
    out["hybrid"] = hybrid
    if window:
        out["sliding_window"] = window
        out["sliding_window_layers"] = window_layers
    if text.get("attention_chunk_size"):
        out["attention_chunk_size"] = text["attention_chunk_size"]
    quant = quantization(cfg, hf_quant)
    if quant:
        out["quantization"] = quant
    if dtype is not None:
        out["torch_dtype"] = dtype
    if tie is not None:
        out["tie_word_embeddings"] = tie
    if out["max_position_embeddings"] is None:
        del out["max_position_embeddings"]
    return out


def _source_text(source: dict[str, Any]) -> str:
    """Where a shipped fact comes from, as a user can follow it: a public file at a commit, or
    a file of this repository (never the folder the copy was first made in)."""
    if source.get("repo"):
        where = f"https://github.com/{source['repo']}/blob/{source['commit']}/{source['path']}"
        part = f" {source['part']}" if source.get("part") else ""
        return f"{where}{part}, {source['license']}"
    if not source["file"].startswith(("tools/", "tests/", "schemas/")):  # made outside the repo
        return "a copy of the checkpoint's config.json, checked against public copies: " + (
            "tools/model_configs/SOURCES.md"
        )
    part = f" ({source['part']})" if source.get("part") else ""
    return f"{source['file']}{part}"


def load_index(index: Path = INDEX) -> list[dict[str, Any]]:
    return json.loads(index.read_text(encoding="utf-8"))["checkpoints"]


def build(configs: Path = CONFIGS) -> dict[str, Any]:
    models = []
    for entry in load_index(configs / "index.json"):
        folder = configs / entry["dir"]
        cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        quant_file = folder / "hf_quant_config.json"
        hf_quant = (
            json.loads(quant_file.read_text(encoding="utf-8")) if quant_file.is_file() else None
        )
        models.append(facts(entry, cfg, hf_quant))
    return {
        "$schema": "./models.schema.json",
        "description": (
            "Facts vLLM reads from the config.json of well-known public checkpoints (written by "
            "tools/model_facts.py from tools/model_configs/; do not edit). derive.py exposes them "
            "as derived.model_* when a launch names one of repo_ids exactly (case-insensitive)."
        ),
        "models": models,
    }


def render(data: dict[str, Any]) -> str:
    """One model a line: compact to load, and a diff shows which checkpoint changed."""
    head = {k: v for k, v in data.items() if k != "models"}
    lines = [json.dumps(m, separators=(",", ":")) for m in data["models"]]
    text = json.dumps(head, indent=1)[:-2]  # drop the closing "\n}"
    return text + ',\n "models": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"


def render_sources(configs: Path = CONFIGS) -> str:
    out = [
        "# Where the config.json copies come from",
        "",
        "Written by `python -m tools.model_facts` from `index.json` (edit that, not this file).",
        "Each folder holds the public `config.json` of a Hugging Face checkpoint, copied from a",
        "public GitHub repository (Hugging Face is not reachable from the build machines), and",
        "`hf_quant_config.json` where the checkpoint has one. `form` says whether the file is the",
        "copy byte for byte or a Python dict of the same config written out as JSON.",
        "",
    ]
    for entry in load_index(configs / "index.json"):
        src = entry["source"]
        out.append(f"## {entry['dir']}")
        out.append("")
        out.append(f"- repo ids: {', '.join('`' + r + '`' for r in entry['repo_ids'])}")
        if src.get("repo"):
            url = f"https://github.com/{src['repo']}/blob/{src['commit']}/{src['path']}"
            out.append(f"- copied from: <{url}>" + (f" ({src['part']})" if src.get("part") else ""))
            out.append(f"- commit: `{src['commit']}`; licence: {src['license']}")
        else:
            out.append(
                f"- copied from: `{src['file']}`" + (f" ({src['part']})" if src.get("part") else "")
            )
            out.append(f"- licence: {src['license']}")
        out.append(f"- form: {src['form']}")
        if entry.get("oracle_kind"):
            out.append(
                f"- the vLLM oracle's model kind `{entry['oracle_kind']}`"
                " (shared/oracle/make_models.py)"
            )
        out.append(f"- checked: {entry['verified']}")
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the outputs are stale")
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    args = ap.parse_args(argv)
    outputs = {args.output: render(build()), SOURCES: render_sources()}
    if args.check:
        stale = [
            str(p)
            for p, text in outputs.items()
            if not p.is_file() or p.read_text(encoding="utf-8") != text
        ]
        if stale:
            print(f"stale: {', '.join(stale)}: run python -m tools.model_facts", file=sys.stderr)
            return 1
        return 0
    for path, text in outputs.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
