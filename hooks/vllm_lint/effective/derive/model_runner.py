"""Model Runner V2: whether vLLM picks it, what forces it, and what it cannot run."""

from __future__ import annotations

from typing import Any

from vllm_lint.effective.derive import feature_lists
from vllm_lint.effective.derive.values import (
    Derived,
    Put,
    Release,
)
from vllm_lint.effective.settings import Settings

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


# CompilationMode.STOCK_TORCH_COMPILE (config/compilation.py:44 in 0.30), as -cc accepts it.
_STOCK_COMPILE = {"1", "stock_torch_compile"}


def derive_model_runner(settings: Settings, release: Release, out: Derived) -> None:
    # ParallelConfig.use_ubatching = enable_dbo or ubatch_size > 1 (config/parallel.py:720).
    ubatch = settings.get("ubatch_size")
    ubatching = settings.get("enable_dbo") is True or (isinstance(ubatch, int) and ubatch > 1)
    out.put("ubatching", ubatching, "enable_dbo", "ubatch_size")

    runner = _v2_model_runner(settings, release, out.values, ubatching)
    if runner is not None:
        out.put(
            "v2_model_runner",
            runner,
            "env.VLLM_USE_V2_MODEL_RUNNER",
            defaulted="env.VLLM_USE_V2_MODEL_RUNNER" not in settings.spans,
        )
        forced = _v2_forced(settings, release) if runner else None
        if forced is not None:
            out.put("v2_forced_by", forced[0], forced[1])


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


def derive_model_runner_features(settings: Settings, release: Release, put: Put) -> None:
    """The flag-decided lists VllmConfig._validate_v2_model_runner (0.20-0.33),
    _validate_v1_model_runner (0.29-0.33) and, from 0.34, _get_dbo_unsupported_features refuse,
    in vLLM's order and wording (schemas/feature-lists.json)."""
    for name in ("v2_runner_unsupported", "runner_dbo_unsupported", "v1_runner_unsupported"):
        feature_lists.put_list(name, settings, release, put)
