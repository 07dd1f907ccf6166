"""The engine vLLM runs: V0 or V1 (VLLM_USE_V1, and what V1 lacks)."""

from __future__ import annotations

from vllm_lint.effective.derive import feature_lists
from vllm_lint.effective.derive.values import Put, Release, env_int_bool
from vllm_lint.effective.settings import Settings


def derive_engine(settings: Settings, release: Release, put: Put) -> None:
    """V1 or V0 (0.8.5-0.11.0 create_engine_config): VLLM_USE_V1=1 forces V1 and refuses
    unsupported features; unset, vLLM falls back to V0 on the first one; =0 forces V0."""
    if release >= (0, 11, 1) or "env.VLLM_USE_V1" in settings.opaque:
        return
    env = settings.get("env.VLLM_USE_V1")
    forced = env_int_bool(settings, "VLLM_USE_V1") if env is not None else None
    if env is not None and forced is None:
        return  # not an integer: vLLM stops on the variable itself
    # the first flag-decided feature EngineArgs._is_v1_supported_oracle refuses (a list of one)
    listed = feature_lists.features("v1_unsupported_feature", settings, release)
    found = listed[0] if listed else None
    if found is not None:
        put("v1_unsupported_feature", found[0], found[1])
    if forced is not None:
        put("v1_forced", forced, "env.VLLM_USE_V1")
    engine_v0 = forced is False or (forced is None and found is not None)
    if engine_v0:
        sources = ("env.VLLM_USE_V1", found[1]) if found else ("env.VLLM_USE_V1",)
        put("engine_v0", True, *sources)
