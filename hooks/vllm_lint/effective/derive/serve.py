"""The serve command: headless and API-server modes, data-parallel launches over nodes, ports,
load balancing, the Rust front end, runtime LoRA updates."""

from __future__ import annotations

import json
from typing import Any

from vllm_lint.effective.derive.values import (
    Put,
    Release,
    env_int_bool,
    env_word_bool,
    flag_value,
    int_value,
)
from vllm_lint.effective.settings import Settings


def derive_frontend(settings: Settings, release: Release, put: Put) -> None:
    env_sources = ("env.VLLM_USE_RUST_FRONTEND",)
    # VLLM_USE_RUST_FRONTEND (envs.py, 0.22+): the Rust front end replaces the API servers.
    if release >= (0, 22, 0):
        rust = env_int_bool(settings, "VLLM_USE_RUST_FRONTEND")
        if rust is not None:
            put("rust_frontend", rust, *env_sources, defaulted=not settings.has(env_sources[0]))
    lora = env_word_bool(settings, "VLLM_ALLOW_RUNTIME_LORA_UPDATING")
    if lora is not None:
        put("runtime_lora_updating", lora, "env.VLLM_ALLOW_RUNTIME_LORA_UPDATING")


def derive_serve_mode(settings: Settings, release: Release, put: Put) -> None:
    """ServeSubcommand.cmd: headless mode and the number of API server processes."""
    if release < (0, 9, 0):
        return
    headless = flag_value(settings, "headless")
    explicit = int_value(settings, "api_server_count")
    if headless is None or ("api_server_count" in settings.opaque):
        return
    sources = ("api_server_count", "headless", "data_parallel_size")
    if release < (0, 15, 0):
        # 0.9.1-0.14 (serve.py:47 in 0.11.2): `if args.headless or args.api_server_count < 1:
        # run_headless` - the flag defaults to 1; 0.9.0 had --headless only.
        count = explicit if explicit is not None else 1
        if release < (0, 9, 1):
            put("headless_mode", headless, "headless")
            return
        put("headless_mode", headless or count < 1, "headless", "api_server_count")
        put("api_server_count", 0 if headless or count < 1 else count, *sources)
        return
    # 0.15+ (serve.py:53 in 0.33.0): the count defaults from the load-balancing mode.
    if headless:
        put("headless_mode", True, "headless")
        put("api_server_count", 0, "headless")
        return
    servers = _default_api_server_count(settings, release, explicit)
    if servers is None:
        return
    put("headless_mode", servers < 1, "api_server_count")
    put("api_server_count", servers, *sources)


def derive_lb_modes(settings: Settings, release: Release, put: Put) -> None:
    """The data-parallel load-balancing modes ServeSubcommand.cmd sees (0.15+): external
    (--data-parallel-external-lb or --data-parallel-rank), hybrid (--data-parallel-hybrid-lb,
    or --data-parallel-start-rank) and, from 0.22, multi-port (0.33.0 serve.py:83-101)."""
    if release < (0, 15, 0):
        return
    external = flag_value(settings, "data_parallel_external_lb")
    hybrid = flag_value(settings, "data_parallel_hybrid_lb")
    multi_port = flag_value(settings, "data_parallel_multi_port_external_lb") or False
    if external is None or hybrid is None:
        return
    rank = settings.get("data_parallel_rank") is not None
    start_rank = settings.get("data_parallel_start_rank") is not None
    modes: list[str] = []
    if release >= (0, 22, 0) and multi_port:
        modes.append("multi-port external")
    if external or rank:
        modes.append("external")
    # 0.22+: --data-parallel-start-rank implies hybrid only when neither explicit mode is set
    implied = start_rank and not (release >= (0, 22, 0) and multi_port and not hybrid)
    if hybrid or implied:
        modes.append("hybrid")
    sources = (
        "data_parallel_hybrid_lb",
        "data_parallel_start_rank",
        "data_parallel_multi_port_external_lb",
        "data_parallel_external_lb",
        "data_parallel_rank",
    )
    put("dp_lb_modes", modes, *sources)
    put("dp_lb_modes_text", " and ".join(modes) or "none", *sources)


_DP_FLAGS = (
    "data_parallel_size",
    "data_parallel_size_local",
    "data_parallel_rank",
    "data_parallel_start_rank",
    "data_parallel_external_lb",
    "data_parallel_hybrid_lb",
    "data_parallel_backend",
    "nnodes",
    "node_rank",
    "tensor_parallel_size",
    "pipeline_parallel_size",
    "prefill_context_parallel_size",
)


def derive_dp_launch(settings: Settings, release: Release, put: Put) -> None:
    """EngineArgs.create_engine_config's data-parallel block (0.9.2 arg_utils.py:1130,
    0.10.2 :1225, 0.11.2 :1456, 0.27.0 :2015, 0.33.0 :2380): which launch mode the flags
    select and the data_parallel_size_local / data_parallel_external_lb handed to
    ParallelConfig. Stops where vLLM would already have raised (the rules say so)."""
    if release < (0, 9, 0) or any(p in settings.opaque for p in _DP_FLAGS):
        return
    dp = int_value(settings, "data_parallel_size") or 1
    local = int_value(settings, "data_parallel_size_local")
    if release < (0, 9, 2):  # 0.9.0-0.9.1: the local size, else the global one (arg_utils:1047)
        put("dp_size_local", dp if local is None else local, "data_parallel_size_local")
        return
    rank = int_value(settings, "data_parallel_rank")
    start = int_value(settings, "data_parallel_start_rank")
    external_flag = (
        bool(settings.get("data_parallel_external_lb")) if release >= (0, 11, 2) else False
    )
    hybrid = bool(settings.get("data_parallel_hybrid_lb")) if release >= (0, 10, 0) else False
    headless = bool(settings.get("derived.headless_mode"))
    nnodes = int_value(settings, "nnodes") or 1
    node_rank = int_value(settings, "node_rank") or 0
    tp = int_value(settings, "tensor_parallel_size") or 1
    pp = int_value(settings, "pipeline_parallel_size") or 1
    pcp = int_value(settings, "prefill_context_parallel_size") or 1
    inferred = 0
    if release >= (0, 11, 2) and nnodes > 1:
        within_dp = pp * tp * (pcp if release >= (0, 30, 0) else 1)  # pcp counts from 0.30
        world = dp * within_dp
        put("dp_world_size", world, "data_parallel_size", "tensor_parallel_size", "nnodes")
        put("last_node_rank", nnodes - 1, "nnodes")
        if world % nnodes or not 0 <= node_rank < nnodes:
            return
        inferred = node_rank * (world // nnodes) // within_dp
        if dp > 1 and external_flag:
            if release >= (0, 31, 0):  # 0.31 infers a missing rank only, and only when unique
                if rank is None:
                    if nnodes % dp:  # vLLM refuses (VL222, a schema `compare`)
                        return
                    rank = inferred
            else:
                rank = inferred
        elif local is None:
            local = max(world // nnodes // within_dp, 1)
    external = external_flag or rank is not None
    lb_sources = ("data_parallel_external_lb", "data_parallel_rank", "data_parallel_hybrid_lb")
    put("dp_external_requested", external, *lb_sources)
    # The rank and the local size as given or inferred (before any default): VL221 and VL223
    # say in their schemas what vLLM refuses when one is missing.
    if rank is not None:
        put("dp_rank_known", rank, "data_parallel_rank", "nnodes", "node_rank")
    if local is not None:
        put("dp_size_local_known", local, "data_parallel_size_local", "nnodes")
    if external:
        if rank is None or local not in (1, None):
            return
        local_eff, rank_eff, hybrid = 1, rank, False
    elif local is not None:
        local_eff = local
        if release < (0, 10, 0):
            rank_eff = 0
        elif release < (0, 28, 0):
            rank_eff = start or inferred
        else:
            rank_eff = start if start is not None else inferred
        # a start rank infers hybrid LB (0.10+; a rank of 0 counts from 0.28)
        given = start is not None if release >= (0, 28, 0) else bool(start)
        if given and not headless and release >= (0, 10, 0):
            hybrid = True
        if hybrid and local_eff == 1:  # "autoswitch to data_parallel_external_lb"
            external, hybrid = True, False
        if local_eff == dp:  # "Disable hybrid LB mode if set for a single node"
            hybrid = False
    else:
        if hybrid:  # vLLM refuses: VL223
            return
        span_pack = (
            release >= (0, 11, 2)
            and settings.get("data_parallel_backend") == "ray"
            and settings.get("env.VLLM_RAY_DP_PACK_STRATEGY") == "span"
            and "env.VLLM_RAY_DP_PACK_STRATEGY" not in settings.opaque
        )
        local_eff = 1 if span_pack else dp
        rank_eff = 0
    put("dp_size_local", local_eff, "data_parallel_size_local", "nnodes", "data_parallel_size")
    if local_eff > 0:
        # ParallelConfig.nnodes_within_dp's node groups: data_parallel_size //
        # data_parallel_size_local (0.31.0 config/parallel.py:772, 0.34.0 :914)
        put("dp_node_groups", dp // local_eff, "data_parallel_size", "data_parallel_size_local")
    put("dp_external_lb", external, *lb_sources, "data_parallel_size_local")
    put("dp_rank", rank_eff, "data_parallel_rank", "data_parallel_start_rank", "node_rank")
    put("dp_hybrid_lb", hybrid, "data_parallel_hybrid_lb", "data_parallel_start_rank")


def derive_multi_port(settings: Settings, release: Release, put: Put) -> None:
    """The ranks and ports --data-parallel-multi-port-external-lb hands its children
    (0.22+ dp_supervisor.py: infer_multi_port_external_lb_start_rank and the port check)."""
    if release < (0, 22, 0) or settings.get("data_parallel_multi_port_external_lb") is not True:
        return
    local = int_value(settings, "data_parallel_size_local")
    if local is None or any(
        p in settings.opaque for p in ("data_parallel_start_rank", "node_rank", "port")
    ):
        return
    start = int_value(settings, "data_parallel_start_rank")
    if start is None:
        start = (int_value(settings, "node_rank") or 0) * local
    sources = ("data_parallel_start_rank", "node_rank", "data_parallel_size_local")
    put("multi_port_start_rank", start, *sources)
    put("multi_port_rank_end", start + local, *sources)
    port = int_value(settings, "port")
    if port is not None:
        put("multi_port_last_port", port + local - 1, "port", "data_parallel_size_local")
    # _build_device_ids (0.24.0 openai/dp_supervisor.py:139, 0.34.0 launchers/dp_supervisor.py:
    # 145): each child takes tensor_parallel_size * pipeline_parallel_size of --device-ids
    tp = int_value(settings, "tensor_parallel_size") or 1
    pp = int_value(settings, "pipeline_parallel_size") or 1
    sizes = ("tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size_local")
    put("multi_port_devices_per_rank", tp * pp, *sizes)
    put("multi_port_devices_needed", local * tp * pp, *sizes)


def derive_lora_modules(settings: Settings, release: Release, put: Put) -> None:
    """The --lora-modules entries LoRAParserAction reads as JSON (0.34.0
    entrypoints/common/cli_args.py:52-66, the same test in every release from 0.8.5): an entry
    that is neither empty nor `name=path` without a comma goes to json.loads, then to
    LoRAModulePath(**value). Each: its text, whether json.loads reads it, and what it read."""
    entries = settings.get("lora_modules")
    if not isinstance(entries, list) or "lora_modules" in settings.opaque:
        return
    read: list[dict[str, Any]] = []
    for item in entries:
        if item in (None, ""):
            continue
        if not isinstance(item, str):
            return  # not a word of the command line: nothing vLLM's action would see
        if "=" in item and "," not in item:
            continue  # the old name=path form
        try:
            read.append({"text": item, "json": True, "value": json.loads(item)})
        except ValueError:  # json.JSONDecodeError
            read.append({"text": item, "json": False})
    put("lora_modules_json", read, "lora_modules")


def _default_api_server_count(
    settings: Settings, release: Release, explicit: int | None
) -> int | None:
    external = flag_value(settings, "data_parallel_external_lb")
    hybrid_flag = flag_value(settings, "data_parallel_hybrid_lb")
    multi_port = flag_value(settings, "data_parallel_multi_port_external_lb") or False
    if external is None or hybrid_flag is None:
        return None
    external = external or settings.get("data_parallel_rank") is not None
    start_rank = settings.get("data_parallel_start_rank") is not None
    if release >= (0, 22, 0) and (hybrid_flag or multi_port):
        hybrid = hybrid_flag
    else:
        hybrid = hybrid_flag or start_rank
    rust = bool(settings.get("derived.rust_frontend")) if release >= (0, 22, 0) else False
    count: int | None = explicit
    if explicit is None:
        if (release >= (0, 22, 0) and multi_port) or external or rust:
            count = 1
        elif hybrid:
            local = int_value(settings, "data_parallel_size_local")
            count = local or 1
        else:
            count = int_value(settings, "data_parallel_size")
    elif rust and explicit > 1:
        count = 1  # "Ignoring --api-server-count ... when using rust front-end process"
    if count is None:
        return None
    # 0.19+: "Elastic EP only supports running with at most one API server" (a cap, no error)
    if release >= (0, 19, 0) and settings.get("enable_elastic_ep") is True and count > 1:
        count = 1
    return count
