"""Hybrid (Mamba) models: prefix caching as vLLM decides it, the Mamba cache mode and backend."""

from __future__ import annotations

from typing import Any

from vllm_lint.effective.derive.values import Derived, Release
from vllm_lint.effective.settings import Settings


def derive_mamba(settings: Settings, release: Release, out: Derived) -> None:
    # Prefix caching left unset: EngineArgs._set_default_chunked_prefill_and_prefix_caching_args
    # (arg_utils.py:3075) takes the model's default; for hybrid models (every model that can
    # run ReplaySSM) that is off up to 0.27 (`and not is_hybrid`, 0.27 :2604) and on from 0.28.
    explicit_pc = settings.get("enable_prefix_caching")
    if isinstance(explicit_pc, bool):
        prefix_caching = explicit_pc
        out.put("hybrid_prefix_caching", prefix_caching, "enable_prefix_caching")
    else:
        prefix_caching = release >= (0, 28, 0)
        out.put("hybrid_prefix_caching", prefix_caching, defaulted=True)
    out.put(
        "mamba_cache_mode",
        _mamba_cache_mode(settings, release, prefix_caching, out.values),
        "mamba_cache_mode",
        "enable_prefix_caching",
    )

    backend = settings.get("mamba_backend")
    if isinstance(backend, str):  # MambaBackendEnum[value.upper()]: case-insensitive
        out.put(
            "mamba_backend",
            backend.lower(),
            "mamba_backend",
            defaulted="mamba_backend" in settings.defaulted,
        )


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
