"""Structured outputs (guided decoding): the backend vLLM uses."""

from __future__ import annotations

from vllm_lint.effective.derive.values import Put, Release, env_int_bool
from vllm_lint.effective.settings import Settings


def derive_structured_outputs(settings: Settings, release: Release, put: Put) -> None:
    """The backend and options StructuredOutputsConfig.__post_init__ checks.

    0.9-0.10: DecodingConfig from --guided-decoding-backend and --guided-decoding-disable-*
    (backend "auto", in 0.9 "xgrammar" when VLLM_USE_V1=0; 0.9.2 config.py:3575).
    0.11+: the --structured-outputs-config JSON; the deprecated --guided-decoding-* flags are
    copied in after the config was validated (0.11.2 arg_utils.py:1721), so they are not.
    """
    if release < (0, 9, 0):
        return
    if release < (0, 11, 0):
        prefix, keys = "guided_decoding_", ("backend", "disable_any_whitespace")
        backend = settings.get("guided_decoding_backend")
        if backend is None:
            v0 = release < (0, 10, 1) and env_int_bool(settings, "VLLM_USE_V1") is False
            backend = "xgrammar" if v0 and settings.has("env.VLLM_USE_V1") else "auto"
        sources = {k: f"{prefix}{k}" for k in keys}
        sources["disable_additional_properties"] = f"{prefix}disable_additional_properties"
        values = {
            "backend": backend,
            "disable_any_whitespace": settings.get(sources["disable_any_whitespace"]),
            "disable_additional_properties": settings.get(sources["disable_additional_properties"]),
        }
    else:
        config = settings.get("structured_outputs_config")
        config = config if isinstance(config, dict) else {}
        values = {
            "backend": config.get("backend", "auto"),
            "disable_any_whitespace": config.get("disable_any_whitespace"),
            "disable_additional_properties": config.get("disable_additional_properties"),
        }
        sources = {k: f"structured_outputs_config.{k}" for k in values}
    if any(p in settings.opaque for p in (*sources.values(), "structured_outputs_config")):
        return
    for key, value in values.items():
        if value is not None:
            put(f"so_{key}", value, sources[key], "structured_outputs_config")
