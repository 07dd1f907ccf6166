"""The model a launch serves: what the flags say of it (a Kimi KDA name), and the facts of
well-known public checkpoints named exactly (schemas/models.json, tools/model_facts.py)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from vllm_lint.effective.derive.values import Derived, Release, env_word_bool
from vllm_lint.effective.settings import Settings

# VllmConfig.validate_mamba_cached_kernel: kda_architectures (config/vllm.py:3461; 0.34 adds
# KimiK31ForConditionalGeneration). vLLM reads the architecture from config.json; the linter
# only has the model name, so it goes by the names these architectures are published under.
_KDA_MODEL = re.compile(r"kimi[-_.]?(linear|k3)", re.IGNORECASE)


def derive_model(settings: Settings, release: Release, out: Derived) -> None:
    model = settings.get("model")
    if isinstance(model, str) and "model" in settings.spans and "model" not in settings.opaque:
        out.put("kda", bool(_KDA_MODEL.search(model)), "model")
        _put_model_facts(settings, model, out.put)


def model_facts(name: str) -> dict[str, Any] | None:
    """The facts of the public checkpoint `name` names exactly (case-insensitive), else None:
    a local path, a revision or any other name is a model the linter does not know."""
    return _facts_by_repo_id().get(name.lower())


@cache
def _facts_by_repo_id() -> dict[str, dict[str, Any]]:
    """schemas/models.json by lower-cased repo id, read on the first launch that names a model."""

    from vllm_lint.resources import shipped_json

    data = shipped_json("models.json")
    return {rid.lower(): m for m in data["models"] for rid in m["repo_ids"]}


def _put_model_facts(settings: Settings, model: str, put: Any) -> None:
    """derived.model_*: what vLLM reads from the named checkpoint's config.json
    (ModelConfig: attention and KV heads, is_moe, use_mla, is_hybrid; config/model.py in 0.33).
    derived.model_max_len is vLLM's default --max-model-len for it (_get_and_verify_max_len,
    config/model.py:2545), a default like the release's own: marked so, it is not trusted where
    unreadable words may have set --max-model-len."""
    facts = model_facts(model)
    if facts is None:
        return
    _put_max_model_len(settings, facts, put)
    # VLLM_ALLOW_LONG_MAX_MODEL_LEN: `.strip().lower() in ("1", "true")` (envs.py:1115 in 0.33)
    allowed = env_word_bool(settings, "VLLM_ALLOW_LONG_MAX_MODEL_LEN")
    if allowed is not None:
        put("long_max_model_len_allowed", allowed, "env.VLLM_ALLOW_LONG_MAX_MODEL_LEN")
    heads = facts["attention_heads"]
    put("model_attention_heads", heads, "model")
    put("model_kv_heads", facts["kv_heads"], "model")
    put("model_max_len", facts["max_model_len"], "model", defaulted=True)
    put("model_moe", facts["moe"], "model")
    put("model_mla", facts["mla"], "model")
    put("model_hybrid", facts["hybrid"], "model")
    put("model_max_len_limit", facts["max_model_len_limit"], "model")
    put("model_hidden_size", facts["hidden_size"], "model")
    put("model_num_layers", facts["num_layers"], "model")
    experts = facts.get("experts") or {}
    if experts:
        put("model_routed_experts", experts["routed"], "model")
    if facts.get("sliding_window"):
        put("model_sliding_window", facts["sliding_window"], "model")
    quantization = facts.get("quantization")
    put("model_quantization", quantization["quant_method"] if quantization else None, "model")
    if facts.get("torch_dtype"):
        put("model_torch_dtype", facts["torch_dtype"], "model")
    put("model_layer_types", sorted(facts["layers"]), "model")
    # The most -dcp ranks a GQA model's KV heads allow (ModelConfig.verify_with_parallel_config,
    # config/model.py:1610 in 0.34); only where -tp exceeds the KV heads (VL400 covers the rest).
    tp = settings.get("tensor_parallel_size")
    if isinstance(tp, int) and not isinstance(tp, bool) and tp > facts["kv_heads"] > 0:
        put("model_max_dcp_size", tp // facts["kv_heads"], "tensor_parallel_size", "model")


def _put_max_model_len(settings: Settings, facts: dict[str, Any], put: Any) -> None:
    """derived.max_model_len: the length vLLM runs with. --max-model-len as written when it is
    a length; the model's own maximum when it is left out, `-1` or `auto` ("If the user didn't
    specify `max_model_len` or specified -1 (auto-fit), then use that derived from the model
    config", _get_and_verify_max_len, config/model.py:2638 in 0.33), marked as a default then."""
    written = settings.get("max_model_len")
    if isinstance(written, int) and not isinstance(written, bool) and written >= 1:
        put("max_model_len", written, "max_model_len")
    elif written is None or written in (-1, "auto"):
        put("max_model_len", facts["max_model_len"], "model", defaulted=True)
