"""Values vLLM computes from the flags before its validators run, added under `derived.*`.

Rules in schemas/ test these instead of re-deriving them in every schema. Each value cites
where vLLM computes it (file:line of the 0.33.0 wheel unless noted); a value that would need
a guess (an unknown model, an opaque word) is left out, so no rule fires on it.
"""

from __future__ import annotations

import re
from typing import Any

from vllm_lint.effective.derive_launch import derive_launch
from vllm_lint.effective.settings import Settings
from vllm_lint.release import key

# VllmConfig.validate_mamba_cached_kernel: kda_architectures (config/vllm.py:3461; 0.34 adds
# KimiK31ForConditionalGeneration). vLLM reads the architecture from config.json; the linter
# only has the model name, so it goes by the names these architectures are published under.
_KDA_MODEL = re.compile(r"kimi[-_.]?(linear|k3)", re.IGNORECASE)
_PINNED_IMAGE = re.compile(r":v?\d+\.\d+\.\d+[^/]*$|@sha256:[0-9a-f]{64}$")
# The spec methods whose drafts Model Runner V2 cannot run, per release
# (VllmConfig._get_v2_model_runner_unsupported_features: 0.30 vllm.py:2815 … 0.33 :3053).
_V1_ONLY_SPEC = {
    (0, 30): {
        "ngram",
        "ngram_gpu",
        "draft_model",
        "suffix",
        "medusa",
        "mlp_speculator",
        "custom_class",
    },
    (0, 31): {"ngram", "ngram_gpu", "suffix", "medusa", "mlp_speculator", "custom_class"},
    (0, 32): {"suffix", "medusa", "mlp_speculator", "custom_class"},
    (0, 33): {"suffix", "custom_class"},
}
# 0.29 ran every other method on V1 (vllm.py:2539).
_V2_SPEC_029 = {"eagle", "eagle3", "mtp", "dflash", "dspark", "extract_hidden_states"}
# Methods SpeculativeConfig.__post_init__ keeps as written (0.28 speculative.py:742-790):
# the others may be re-detected from the draft checkpoint (a draft_model whose name holds
# "eagle-" becomes eagle), which only the model can tell.
_SETTLED_SPEC = {"ngram", "ngram_gpu", "suffix", "custom_class"}
# CompilationMode.STOCK_TORCH_COMPILE (config/compilation.py:44 in 0.30), as -cc accepts it.
_STOCK_COMPILE = {"1", "stock_torch_compile"}


def derive(settings: Settings) -> None:
    release = key(settings.release.version)
    derived: dict[str, Any] = {}
    settings.document["derived"] = derived  # readable while it is filled
    spans = settings.spans
    labels: dict[str, str] = {}

    def put(name: str, value: Any, *sources: str, defaulted: bool = False) -> None:
        path = f"derived.{name}"
        if any(settings.is_opaque(source) for source in sources):
            settings.opaque.add(path)  # computed from a value nobody can read: no rule uses it
            return
        derived[name] = value
        for source in sources:
            if source in spans and source not in settings.defaulted:
                spans[path] = spans[source]
                labels[path] = settings.label(source)
                break
        if defaulted:
            settings.defaulted.add(path)

    # k: VllmConfig.num_speculative_tokens (vllm.py:612): the speculative config's count,
    # else a diffusion config's canvas_length. A speculative config without a count is
    # rejected by SpeculativeConfig itself, so any speculative config means k > 0.
    spec = settings.get("speculative_config")
    diffusion = settings.get("diffusion_config")
    spec_sources = [p for p in spans if p.startswith("speculative_config")] or ["diffusion_config"]
    count: Any = None
    if isinstance(spec, dict) and spec:
        count = spec.get("num_speculative_tokens")
        put("spec", True, *spec_sources)
    elif isinstance(diffusion, dict) and isinstance(diffusion.get("canvas_length"), int):
        count = diffusion["canvas_length"]
        put("spec", count > 0, "diffusion_config")
    elif settings.is_opaque("speculative_config") or settings.is_opaque("diffusion_config"):
        settings.opaque.add("derived.spec")
    else:
        derived["spec"] = False
    if isinstance(count, int) and not isinstance(count, bool):
        put("spec_tokens", count, *spec_sources)
        put("query_len", 1 + count, *spec_sources)

    method = _spec_method(settings)
    if method is not None:
        put("spec_method", method, *spec_sources)

    model = settings.get("model")
    if isinstance(model, str) and "model" in spans and "model" not in settings.opaque:
        put("kda", bool(_KDA_MODEL.search(model)), "model")
        _put_model_facts(settings, model, put)

    # Prefix caching left unset: EngineArgs._set_default_chunked_prefill_and_prefix_caching_args
    # (arg_utils.py:3075) takes the model's default; for hybrid models (every model that can
    # run ReplaySSM) that is off up to 0.27 (`and not is_hybrid`, 0.27 :2604) and on from 0.28.
    explicit_pc = settings.get("enable_prefix_caching")
    if isinstance(explicit_pc, bool):
        prefix_caching = explicit_pc
        put("hybrid_prefix_caching", prefix_caching, "enable_prefix_caching")
    else:
        prefix_caching = release >= (0, 28, 0)
        put("hybrid_prefix_caching", prefix_caching, defaulted=True)
    put(
        "mamba_cache_mode",
        _mamba_cache_mode(settings, release, prefix_caching, derived),
        "mamba_cache_mode",
        "enable_prefix_caching",
    )

    backend = settings.get("mamba_backend")
    if isinstance(backend, str):  # MambaBackendEnum[value.upper()]: case-insensitive
        put(
            "mamba_backend",
            backend.lower(),
            "mamba_backend",
            defaulted="mamba_backend" in settings.defaulted,
        )

    # KVTransferConfig.is_kv_transfer_instance; --kv-offloading-size builds an offloading
    # connector with kv_role kv_both in every release 0.27–0.34 (_post_init_kv_transfer_config).
    kv = settings.get("kv_transfer_config")
    if isinstance(kv, dict) and kv.get("kv_connector"):
        put("kv_connector", True, "kv_transfer_config")
    elif settings.has("kv_offloading_size") and settings.get("kv_offloading_size") is not None:
        put("kv_connector", True, "kv_offloading_size")
    else:
        derived["kv_connector"] = False

    # ParallelConfig.use_ubatching = enable_dbo or ubatch_size > 1 (config/parallel.py:720).
    ubatch = settings.get("ubatch_size")
    ubatching = settings.get("enable_dbo") is True or (isinstance(ubatch, int) and ubatch > 1)
    put("ubatching", ubatching, "enable_dbo", "ubatch_size")

    runner = _v2_model_runner(settings, release, derived, ubatching)
    if runner is not None:
        put(
            "v2_model_runner",
            runner,
            "env.VLLM_USE_V2_MODEL_RUNNER",
            defaulted="env.VLLM_USE_V2_MODEL_RUNNER" not in spans,
        )
        forced = _v2_forced(settings, release) if runner else None
        if forced is not None:
            put("v2_forced_by", forced[0], forced[1])

    # The image a container or service runs, and whether its tag names a release
    # (for organisation policies in rule packs: "pin the vLLM image").
    image = settings.get("image")
    if isinstance(image, str):
        put("image_pinned", bool(_PINNED_IMAGE.search(image)), "image")

    derive_launch(settings, release, put)

    settings.document["derived"] = derived
    settings.labels.update(labels)


# schemas/models.json (tools/model_facts.py): the config facts of well-known checkpoints, by
# lower-cased repo id; read on the first launch that names a model, once.
_MODEL_FACTS: dict[str, dict[str, Any]] | None = None


def model_facts(name: str) -> dict[str, Any] | None:
    """The facts of the public checkpoint `name` names exactly (case-insensitive), else None:
    a local path, a revision or any other name is a model the linter does not know."""
    global _MODEL_FACTS
    if _MODEL_FACTS is None:
        import json

        from vllm_lint.resources import schemas_dir

        data = json.loads((schemas_dir() / "models.json").read_text(encoding="utf-8"))
        _MODEL_FACTS = {rid.lower(): m for m in data["models"] for rid in m["repo_ids"]}
    return _MODEL_FACTS.get(name.lower())


def _put_model_facts(settings: Settings, model: str, put: Any) -> None:
    """derived.model_*: what vLLM reads from the named checkpoint's config.json
    (ModelConfig: attention and KV heads, is_moe, use_mla, is_hybrid; config/model.py in 0.33).
    derived.model_max_len is vLLM's default --max-model-len for it (_get_and_verify_max_len,
    config/model.py:2545), a default like the release's own: marked so, it is not trusted where
    unreadable words may have set --max-model-len."""
    facts = model_facts(model)
    if facts is None:
        return
    heads = facts["attention_heads"]
    put("model_attention_heads", heads, "model")
    put("model_kv_heads", facts["kv_heads"], "model")
    put("model_max_len", facts["max_model_len"], "model", defaulted=True)
    put("model_moe", facts["moe"], "model")
    put("model_mla", facts["mla"], "model")
    put("model_hybrid", facts["hybrid"], "model")
    # The most -dcp ranks a GQA model's KV heads allow (ModelConfig.verify_with_parallel_config,
    # config/model.py:1610 in 0.34); only where -tp exceeds the KV heads (VL400 covers the rest).
    tp = settings.get("tensor_parallel_size")
    if isinstance(tp, int) and not isinstance(tp, bool) and tp > facts["kv_heads"] > 0:
        put("model_max_dcp_size", tp // facts["kv_heads"], "tensor_parallel_size", "model")


def _mamba_cache_mode(
    settings: Settings, release: tuple[int, int, int], prefix_caching: bool, derived: dict[str, Any]
) -> str:
    """MambaModelConfig.verify_and_update_config (models/config.py) for a hybrid model."""
    if not prefix_caching:
        return "none"
    mode = settings.get("mamba_cache_mode") if release < (0, 33, 0) else None
    if release < (0, 28, 0):  # 0.27: none → "all" when the model supports it (models/config.py:614)
        return "align" if mode == "align" or derived.get("kda") else "all"
    if release < (0, 32, 0) and mode == "all" and derived.get("kda") is False:
        return "all"
    return "align"


def _v2_model_runner(
    settings: Settings, release: tuple[int, int, int], derived: dict[str, Any], ubatching: bool
) -> bool | None:
    """VllmConfig.use_v2_model_runner (vllm.py:731): the env var, else vLLM's automatic choice.

    None where the choice hangs on something the flags do not show.
    """
    env = settings.get("env.VLLM_USE_V2_MODEL_RUNNER")
    if "env.VLLM_USE_V2_MODEL_RUNNER" in settings.opaque:
        return None
    if isinstance(env, str) and env.strip():
        try:
            return bool(int(env))  # envs.maybe_convert_bool
        except ValueError:
            return None
    if release >= (0, 34, 0):
        return True  # Model Runner V1 is gone
    kda = derived.get("kda")
    if release < (0, 29, 0):
        forced = _v2_forced(settings, release)
        if forced is not None:
            return True
        # 0.27–0.28: V2 by default only for DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES (vllm.py:69),
        # which lists KimiK3 but no Nemotron-H; other hybrid models get V1.
        return None if kda is None else bool(kda)
    if ubatching:
        return False  # "dual batch overlap" is unsupported by V2 (0.30 vllm.py:3009)
    if (
        _compilation_may_need_v1(settings, release)
        or settings.get("distributed_executor_backend") == "external_launcher"
        or settings.get("speculative_config.parallel_drafting")
    ):
        return None  # other features that may send vLLM back to V1: not guessed
    method = settings.get("speculative_config.method") or derived.get("spec_method")
    if isinstance(method, str):
        minor = release[:2]
        if minor == (0, 29):
            if method not in _V2_SPEC_029:
                return False
        elif method in (_V1_ONLY_SPEC.get(minor) or set()):
            return False
    mode = derived.get("mamba_cache_mode")
    # 0.30-0.31 ran the `all` Mamba cache mode on V1 only
    return not (release[:2] in ((0, 30), (0, 31)) and mode == "all")


def _spec_method(settings: Settings) -> str | None:
    """The speculative method vLLM settles on, where the flags alone decide it
    (SpeculativeConfig.__post_init__: `model` "ngram" or "[ngram]" without a method is ngram,
    0.28 speculative.py:747, 0.34 :1368); None where the draft checkpoint may decide."""
    if settings.is_opaque("speculative_config"):
        return None
    method = settings.get("speculative_config.method")
    if method is None and settings.get("speculative_config.model") in ("ngram", "[ngram]"):
        return "ngram"
    return method if method in _SETTLED_SPEC else None


def _compilation_may_need_v1(settings: Settings, release: tuple[int, int, int]) -> bool:
    """Whether -cc / --compilation-config may put a feature on Model Runner V2's unsupported
    list (VllmConfig._get_v2_model_runner_unsupported_features): 0.29-0.31 list stock
    torch.compile (`mode`, or the older `level`, = STOCK_TORCH_COMPILE) and sequence
    parallelism (pass_config.enable_sp, or fuse_gemm_comms which turns it on, with TP > 1,
    unless the model's hidden size is too small: 0.30 vllm.py:2821-2828, :1678-1706);
    0.32-0.33 list nothing of the compilation config (vllm.py:2914 in 0.32, :3053 in 0.33).
    The cudagraph mode and the other keys do not take part in vLLM's choice."""
    if not settings.has("compilation_config"):
        return False
    if settings.is_opaque("compilation_config"):
        return True
    if release >= (0, 32, 0):
        return False
    for name in ("mode", "level"):
        value = settings.get(f"compilation_config.{name}")
        if value is not None and str(value).strip().lower() in _STOCK_COMPILE:
            return True
    tp = settings.get("tensor_parallel_size")
    if isinstance(tp, int) and not isinstance(tp, bool) and tp <= 1:
        return False  # "Sequence Parallelism requires TP>1, disabling" (0.30 vllm.py:1683)
    return any(
        settings.get(f"compilation_config.pass_config.{key}") not in (None, False)
        for key in ("enable_sp", "fuse_gemm_comms")
    )


def _v2_forced(settings: Settings, release: tuple[int, int, int]) -> tuple[str, str] | None:
    """Why vLLM runs Model Runner V2 whatever it lacks (then _validate_v2_model_runner refuses
    what V2 cannot run instead of falling back to V1), as (reason, the flag's path):
    VLLM_USE_V2_MODEL_RUNNER=1, or before 0.29 a feature only V2 implements:
    -pcp > 1 (0.27-0.28, vllm.py:621 in 0.28) and the dspark method (0.25-0.28, :630)."""
    env = settings.get("env.VLLM_USE_V2_MODEL_RUNNER")
    if isinstance(env, str) and env.strip():
        return ("VLLM_USE_V2_MODEL_RUNNER=1", "env.VLLM_USE_V2_MODEL_RUNNER")
    if release >= (0, 29, 0):
        return None
    pcp = settings.get("prefill_context_parallel_size")
    if release >= (0, 27, 0) and isinstance(pcp, int) and not isinstance(pcp, bool) and pcp > 1:
        return ("--prefill-context-parallel-size > 1", "prefill_context_parallel_size")
    if release >= (0, 25, 0) and settings.get("speculative_config.method") == "dspark":
        return ("the dspark speculative method", "speculative_config")
    return None
