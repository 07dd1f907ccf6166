"""Parallelism: world size and the parallel sizes vLLM derives."""

from __future__ import annotations

import re

from vllm_lint.effective.derive.values import Put, Release, int_value
from vllm_lint.effective.settings import Settings

# numactl's CPU list syntax, as ParallelConfig checks it (0.34.0 config/parallel.py:35)
_CPUSET = re.compile(r"\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*")


def derive_numa_ranges(settings: Settings, put: Put) -> None:
    """`numa_bind_cpus_ranges`: each `start-end` of --numa-bind-cpus as [start, end], in order,
    as ParallelConfig._validate_numa_bind_cpus splits them before it compares the two ends
    (0.34.0 config/parallel.py:548-553, from 0.20); only when every entry has the syntax
    (another check refuses the rest)."""
    cpusets = settings.get("numa_bind_cpus")
    if not isinstance(cpusets, list) or not all(
        isinstance(c, str) and _CPUSET.fullmatch(c) for c in cpusets
    ):
        return
    try:
        ranges = [
            [int(start), int(end)]
            for cpuset in cpusets
            for start, _, end in (part.partition("-") for part in cpuset.split(","))
            if end
        ]
    except ValueError:  # past Python's digit limit for int(): vLLM stops there otherwise
        return
    put("numa_bind_cpus_ranges", ranges, "numa_bind_cpus")


def derive_parallel(settings: Settings, release: Release, put: Put) -> None:
    """Products and defaults ParallelConfig's validators compare (0.33.0 config/parallel.py)."""
    sizes = {
        name: int_value(settings, f"{name}_parallel_size")
        for name in ("tensor", "pipeline", "data", "prefill_context", "decode_context")
    }
    tp, dp, pcp = sizes["tensor"] or 1, sizes["data"] or 1, sizes["prefill_context"] or 1
    if not any(f"{n}_parallel_size" in settings.opaque for n in sizes):
        # the EP group spans TP x DP, and from 0.26 TP x PCP x DP (parallel.py:573-579)
        put("tp_dp", tp * dp, "tensor_parallel_size", "data_parallel_size")
        put("tp_pcp_dp", tp * pcp * dp, "tensor_parallel_size", "data_parallel_size")
        put("tp_pcp", tp * pcp, "tensor_parallel_size", "prefill_context_parallel_size")
        # the NIXL transfer parallel size VllmConfig.__post_init__ compares the DCP size with
        # (0.30.0 config/vllm.py:1333, 0.34.0 :1525)
        put("tp_or_pcp", max(tp, pcp), "tensor_parallel_size", "prefill_context_parallel_size")
    if release >= (0, 24, 0):
        _derive_device_ids(settings, put)
    if release >= (0, 11, 2):
        _derive_dp_from_env(settings, put)
    # --num-redundant-experts (0.9.2-0.11) overrides --eplb-config.num_redundant_experts
    # (0.10.2 arg_utils.py:1303)
    redundant = settings.get("num_redundant_experts")
    if not isinstance(redundant, int) or isinstance(redundant, bool):
        redundant = settings.get("eplb_config.num_redundant_experts")
    if isinstance(redundant, int) and not isinstance(redundant, bool):
        sources = ("num_redundant_experts", "eplb_config.num_redundant_experts", "eplb_config")
        put("num_redundant_experts", redundant, *sources)
    # ParallelConfig.use_ubatching / num_ubatches (parallel.py:645-650)
    dbo = settings.get("enable_dbo") is True
    ubatch = int_value(settings, "ubatch_size") or 0
    put("num_ubatches", 2 if dbo else ubatch, "enable_dbo", "ubatch_size")
    thresholds = [
        int_value(settings, "dbo_decode_token_threshold"),
        int_value(settings, "dbo_prefill_token_threshold"),
    ]
    if all(t is not None for t in thresholds):
        put(
            "dbo_min_token_threshold",
            min(t for t in thresholds if t is not None),
            "dbo_decode_token_threshold",
            "dbo_prefill_token_threshold",
        )


def _derive_device_ids(settings: Settings, put: Put) -> None:
    """--device-ids as its argparse type reads it (0.24.0 engine/arg_utils.py:986, 0.34.0
    :1211): comma-separated words, stripped; one of digits only is an int, any other a
    UUID-like string."""
    text = settings.get("device_ids")
    if not isinstance(text, str) or "device_ids" in settings.opaque:
        return
    ids: list[int | str] = []
    for part in (p.strip() for p in text.split(",")):
        if part.isdigit():
            try:
                ids.append(int(part))
            except ValueError:  # a digit int() does not read ('²'): argparse refuses it
                return
        else:
            ids.append(part)
    put("device_ids", ids, "device_ids")
    put("device_ids_count", len(ids), "device_ids")


def _derive_dp_from_env(settings: Settings, put: Put) -> None:
    """ParallelConfig.__post_init__'s offline fallback (0.11.2 config/parallel.py:539, 0.34.0
    :1116-1120): with data_parallel_size 1 and a local size other than 0, the data-parallel
    size and rank come from VLLM_DP_SIZE (default 1) and VLLM_DP_RANK (default 0), and
    data_parallel_rank_local from VLLM_DP_RANK_LOCAL (default VLLM_DP_RANK), which makes
    launch_core_engines run in its offline mode (v1/engine/utils.py:1221 in 0.34.0)."""
    names = ("data_parallel_size", "derived.dp_size_local", "env.VLLM_DP_SIZE", "env.VLLM_DP_RANK")
    if any(settings.is_opaque(n) for n in names):
        return
    dp = int_value(settings, "data_parallel_size")
    local = settings.get("derived.dp_size_local")
    if (dp is not None and dp > 1) or local == 0 or not isinstance(local, int):
        return
    try:  # int(os.getenv(...)) in vllm/envs.py; vLLM itself stops on a word
        size = int(str(settings.get("env.VLLM_DP_SIZE") or "1"))
        rank = int(str(settings.get("env.VLLM_DP_RANK") or "0"))
    except ValueError:
        return
    put("dp_env_size", size, "env.VLLM_DP_SIZE", "data_parallel_size")
    put("dp_env_rank", rank, "env.VLLM_DP_RANK", "data_parallel_size")
