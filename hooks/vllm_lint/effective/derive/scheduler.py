"""The scheduler's batch limits and the kernels they choose; HiSparse."""

from __future__ import annotations

from typing import Any

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
    """HiSparse is on with --attention-config.hisparse_config or the HiSparseConnector,
    given directly or as a child of MultiConnector (KVTransferConfig.has_connector,
    0.33.0 vllm.py:1876-1881, kv_transfer.py:141-148)."""
    config = settings.get("attention_config.hisparse_config")
    connector = settings.get("kv_transfer_config.kv_connector")
    children = settings.get("kv_transfer_config.kv_connector_extra_config.connectors")
    nested = [
        child
        for child in (
            children if connector == "MultiConnector" and isinstance(children, list) else []
        )
        if isinstance(child, dict) and child.get("kv_connector") == "HiSparseConnector"
    ]
    if not (isinstance(config, dict) or connector == "HiSparseConnector" or nested):
        return
    put("hisparse", True, "attention_config.hisparse_config", "kv_transfer_config")
    # The HiSparseConnector entries hisparse_host_pool_gib reads (0.34.0 kv_transfer.py:16-47),
    # from the connector as VllmConfig.__post_init__ leaves it: --kv-offloading-size replaces
    # kv_connector with the offloading connector first (_post_init_kv_transfer_config,
    # 0.34.0 vllm.py:1079-1106, called at vllm.py:2132).
    entries: list[Any] = []
    if settings.get("kv_offloading_size") is None:
        if nested:
            entries = [child.get("kv_connector_extra_config", {}) for child in nested]
        elif connector == "HiSparseConnector":
            entries = [settings.get("kv_transfer_config.kv_connector_extra_config") or {}]
    sources = ("kv_transfer_config", "kv_offloading_size", "attention_config.hisparse_config")
    put("hisparse_connectors", len(entries), *sources)
    pool = entries[0].get("host_pool_gib") if entries and isinstance(entries[0], dict) else None
    if pool is not None:  # absent or null: vLLM's "HiSparseConnector requires host_pool_gib"
        put("hisparse_host_pool_gib", pool, *sources)
