"""The scheduler's batch limits and the kernels they choose; HiSparse."""

from __future__ import annotations

from vllm_lint.effective.derive.values import Put, Release, env_int_bool, int_value
from vllm_lint.effective.settings import Settings


def derive_batch_and_kernels(settings: Settings, release: Release, put: Put) -> None:
    # The token budget a LoRA + speculative launch needs: max_num_seqs * (k + 1)
    # (0.33.0 arg_utils.py:2722); only from explicit values, the defaults hang on the GPU.
    seqs = int_value(settings, "max_num_seqs")
    spec_tokens = settings.get("derived.spec_tokens")
    if seqs is not None and isinstance(spec_tokens, int) and "max_num_seqs" in settings.spans:
        put("spec_batch_tokens", seqs * (spec_tokens + 1), "max_num_seqs", "speculative_config")
    # Which Ray executor --distributed-executor-backend ray gets, and whether it supports async
    # scheduling: RayDistributedExecutor does not; RayExecutorV2 (a MultiprocExecutor) does.
    # VLLM_USE_RAY_V2_EXECUTOR_BACKEND picks V2 in 0.20 (default 0) and 0.21-0.32 (default 1);
    # 0.33 has V2 only (v1/executor/abstract.py get_class).
    if release >= (0, 19, 0):
        if release < (0, 20, 0):
            v2: bool | None = False
        elif release < (0, 33, 0):
            name = "VLLM_USE_RAY_V2_EXECUTOR_BACKEND"
            v2 = env_int_bool(settings, name, default=release >= (0, 21, 0))
        else:
            v2 = True
        if v2 is not None:
            put("ray_executor_async", v2, "env.VLLM_USE_RAY_V2_EXECUTOR_BACKEND")
    # KernelConfig.moe_backend: --moe-backend is lower-cased with '-' as '_'
    # (0.33.0 arg_utils.py:1844) and overrides --kernel-config's key unless it is "auto".
    backend = settings.get("moe_backend")
    if isinstance(backend, str) and "moe_backend" not in settings.opaque:
        backend = backend.lower().replace("-", "_")
    if backend in (None, "auto"):
        backend = settings.get("kernel_config.moe_backend")
    if isinstance(backend, str):
        put("moe_backend", backend, "moe_backend", "kernel_config.moe_backend", "kernel_config")


def derive_hisparse(settings: Settings, put: Put) -> None:
    """HiSparse is on with --attention-config.hisparse_config or the HiSparseConnector
    (0.33.0 vllm.py:1876-1881)."""
    config = settings.get("attention_config.hisparse_config")
    connector = settings.get("kv_transfer_config.kv_connector") == "HiSparseConnector"
    if isinstance(config, dict) or connector:
        put("hisparse", True, "attention_config.hisparse_config", "kv_transfer_config")
