"""Values `vllm serve` derives from launch flags and environment variables, under `derived.*`.

The serve command (vllm/entrypoints/cli/serve.py) and EngineArgs.create_engine_config
(vllm/engine/arg_utils.py) turn the data-parallel, API-server and node flags into the values
their validators test. Each value follows vLLM's code for the release and cites it; a value
that hangs on something the file does not show (an opaque word, a missing flag) is left out,
so no rule fires on a guess.
"""

from __future__ import annotations

from collections.abc import Callable

from vllm_lint.effective.settings import Settings

Put = Callable[..., None]
Release = tuple[int, int, int]


def env_int_bool(settings: Settings, name: str, default: bool = False) -> bool | None:
    """`bool(int(os.getenv(NAME, "0")))`, as vllm/envs.py reads most switches.

    None when the variable is opaque or not an integer (vLLM itself would stop with a
    ValueError there; that is not what the rules describe).
    """
    path = f"env.{name}"
    if path in settings.opaque:
        return None
    value = settings.get(path)
    if value is None:
        return default
    try:
        return bool(int(str(value)))
    except ValueError:
        return None


def env_word_bool(settings: Settings, name: str) -> bool | None:
    """`os.environ.get(NAME, "0").strip().lower() in ("1", "true")` (envs.py)."""
    path = f"env.{name}"
    if path in settings.opaque:
        return None
    value = settings.get(path)
    return value is not None and str(value).strip().lower() in ("1", "true")


def _int(settings: Settings, path: str) -> int | None:
    value = settings.get(path)
    if isinstance(value, bool) or not isinstance(value, int) or path in settings.opaque:
        return None
    return value


def _flag(settings: Settings, path: str) -> bool | None:
    """A switch's value (its default when unset); None when unknowable."""
    if path in settings.opaque:
        return None
    value = settings.get(path)
    return bool(value) if isinstance(value, bool) or value is None else None


def derive_launch(settings: Settings, release: Release, put: Put) -> None:
    env_sources = ("env.VLLM_USE_RUST_FRONTEND",)
    # VLLM_USE_RUST_FRONTEND (envs.py, 0.22+): the Rust front end replaces the API servers.
    if release >= (0, 22, 0):
        rust = env_int_bool(settings, "VLLM_USE_RUST_FRONTEND")
        if rust is not None:
            put("rust_frontend", rust, *env_sources, defaulted=not settings.has(env_sources[0]))
    lora = env_word_bool(settings, "VLLM_ALLOW_RUNTIME_LORA_UPDATING")
    if lora is not None:
        put("runtime_lora_updating", lora, "env.VLLM_ALLOW_RUNTIME_LORA_UPDATING")
    _serve_mode(settings, release, put)
    _lb_modes(settings, release, put)
    _dp_launch(settings, release, put)
    _multi_port(settings, release, put)
    _parallel(settings, release, put)
    _batch_and_kernels(settings, release, put)
    _structured_outputs(settings, release, put)
    _hisparse(settings, put)
    _v1_engine(settings, release, put)
    _model_runner_features(settings, release, put)


def _model_runner_features(settings: Settings, release: Release, put: Put) -> None:
    """Flag-decided entries of the lists VllmConfig._validate_v2_model_runner (0.20-0.33) and
    _validate_v1_model_runner (0.29-0.33) refuse, in vLLM's order and wording; entries that
    hang on the model (hybrid, diffusion, logits processors, drafts) are not judged."""
    pcp = (_int(settings, "prefill_context_parallel_size") or 1) > 1
    pp = (_int(settings, "pipeline_parallel_size") or 1) > 1
    launcher = settings.get("distributed_executor_backend") == "external_launcher"
    v2: list[tuple[str, str]] = []
    # 0.26-0.28 run PCP on V2 for MLA models (vllm.py:2375 in 0.28): that hangs on the model
    if (0, 20, 0) <= release < (0, 26, 0) and pcp:
        v2.append(("prefill context parallelism", "prefill_context_parallel_size"))
    if (0, 24, 0) <= release < (0, 34, 0) and pp and launcher:
        v2.append(("pipeline parallelism with external_launcher", "pipeline_parallel_size"))
    spec_method = _v2_unsupported_spec(settings.get("derived.spec_method"), release)
    if spec_method:
        v2.append((spec_method, "speculative_config"))
    if (0, 20, 0) <= release < (0, 30, 0) and settings.get("enable_dbo") is True:
        v2.append(("dual batch overlap", "enable_dbo"))
    # 0.30-0.33: with VLLM_USE_V2_MODEL_RUNNER set, microbatching on V2 lists what it cannot
    # combine with (_get_dbo_unsupported_features); unset, vLLM picks V1 for it instead.
    dbo = _dbo_unsupported(settings, release)
    if (0, 30, 0) <= release < (0, 34, 0) and settings.get("env.VLLM_USE_V2_MODEL_RUNNER"):
        v2 += dbo
    if release >= (0, 34, 0) and dbo:
        put("runner_dbo_unsupported", ", ".join(f for f, _ in dbo), *(p for _, p in dbo))
    if (0, 24, 0) <= release < (0, 32, 0) and settings.get("enable_elastic_ep") is True:
        v2.append(("elastic expert parallelism", "enable_elastic_ep"))
    if (0, 20, 0) <= release < (0, 30, 0) and settings.get("kv_sharing_fast_prefill") is True:
        v2.append(("KV sharing fast prefill", "kv_sharing_fast_prefill"))
    if v2:
        put("v2_runner_unsupported", ", ".join(f for f, _ in v2), *(p for _, p in v2))
    v1: list[tuple[str, str]] = []
    if (0, 29, 0) <= release < (0, 34, 0):
        spec = settings.get("speculative_config")
        spec = spec if isinstance(spec, dict) else {}
        if pcp:
            v1.append(("prefill context parallel", "prefill_context_parallel_size"))
        if release >= (0, 31, 0) and pp and settings.get("async_scheduling") is True:
            v1.append(("pipeline parallelism with async scheduling", "async_scheduling"))
        if spec.get("method") == "dspark":
            v1.append(("dspark speculative decoding", "speculative_config"))
        if spec.get("enable_adaptive_verification") is True:
            v1.append(("adaptive draft verification", "speculative_config"))
        if settings.get("enable_batch_sharded_sampling") is True:
            v1.append(("batch-sharded sampling", "enable_batch_sharded_sampling"))
    if v1:
        put("v1_runner_unsupported", ", ".join(f for f, _ in v1), *(p for _, p in v1))


def _v2_unsupported_spec(method: object, release: Release) -> str | None:
    """Model Runner V2's entry for a settled speculative method (derived.spec_method):
    0.20-0.21 run only eagle, eagle3 and mtp (vllm.py:1799 in 0.20); 0.22-0.29 name ngram and
    ngram_gpu together and refuse suffix and custom_class by name (vllm.py:2398-2407 in
    0.28, :2565-2574 in 0.29); 0.30-0.31 refuse ngram, ngram_gpu, suffix and custom_class
    (vllm.py:2839 in 0.30, :3074 in 0.31), 0.32-0.33 only suffix and custom_class (vllm.py:2928
    in 0.32, :3067 in 0.33)."""
    if not isinstance(method, str) or not (0, 20, 0) <= release < (0, 34, 0):
        return None
    by_name = f"speculative method '{method}'"
    if release < (0, 22, 0):
        return by_name
    if release < (0, 30, 0):
        return "ngram/ngram_gpu speculative decoding" if method.startswith("ngram") else by_name
    if release < (0, 32, 0) or method in ("suffix", "custom_class"):
        return by_name
    return None


def _dbo_unsupported(settings: Settings, release: Release) -> list[tuple[str, str]]:
    """The flag-decided entries of VllmConfig._get_dbo_unsupported_features when microbatching
    (--enable-dbo or --ubatch-size > 1), in vLLM's order: 0.30-0.33 (vllm.py:2999 in 0.30,
    :3222 in 0.33) and 0.34, which runs drafts whole and names only prefill context
    parallelism (vllm.py:3378). Hybrid and multimodal models hang on the model; the
    PIECEWISE cudagraph check on what vLLM makes of the compilation config: not judged."""
    if release < (0, 30, 0) or settings.get("derived.ubatching") is not True:
        return []
    pp = (_int(settings, "pipeline_parallel_size") or 1) > 1
    pcp = (_int(settings, "prefill_context_parallel_size") or 1) > 1
    dcp = (_int(settings, "decode_context_parallel_size") or 1) > 1
    found: list[tuple[str, str]] = []
    if settings.get("enable_lora") is True:
        found.append(("dual batch overlap with LoRA", "enable_lora"))
    if release < (0, 34, 0) and settings.get("derived.spec") is True:
        found.append(("dual batch overlap with speculative decoding", "speculative_config"))
    if pp:
        found.append(("dual batch overlap with pipeline parallelism", "pipeline_parallel_size"))
    if release < (0, 34, 0) and (pcp or dcp):
        source = "prefill_context_parallel_size" if pcp else "decode_context_parallel_size"
        found.append(("dual batch overlap with context parallelism", source))
    if release >= (0, 34, 0) and pcp:
        found.append(
            ("dual batch overlap with prefill context parallelism", "prefill_context_parallel_size")
        )
    return found


def _v1_unsupported(settings: Settings, release: Release) -> tuple[str, str] | None:
    """The first flag-decided feature EngineArgs._is_v1_supported_oracle (0.8.5-0.11.0)
    refuses, as (vLLM's feature name, the flag's path); features that hang on the model or the
    GPU (dtype, task, architecture, KV-cache dtype, compute capability) are not judged."""

    def get(path: str, default: object = None) -> object:
        value = settings.get(path)
        return default if value is None else value

    checks: list[tuple[bool, str, str]] = []
    load_format = get("load_format")
    refused = ("tensorizer", "sharded_state") if release < (0, 9, 0) else ("sharded_state",)
    if release < (0, 11, 0):
        checks.append((load_format in refused, f"--load_format {load_format}", "load_format"))
    pattern = get("logits_processor_pattern")
    checks.append((pattern is not None, "--logits-processor-pattern", "logits_processor_pattern"))
    if release < (0, 11, 0):
        checks += [
            (get("preemption_mode") is not None, "--preemption-mode", "preemption_mode"),
            (
                get("disable_async_output_proc") is True,
                "--disable-async-output-proc",
                "disable_async_output_proc",
            ),
        ]
    if release < (0, 9, 2):
        policy = get("scheduling_policy", "fcfs")
        checks.append((policy != "fcfs", "--scheduling-policy", "scheduling_policy"))
    if release < (0, 10, 1):
        steps = get("num_scheduler_steps", 1)
        checks.append((steps != 1, "--num-scheduler-steps", "num_scheduler_steps"))
    if release < (0, 11, 0):
        delay = get("scheduler_delay_factor", 0.0)
        checks.append((delay != 0.0, "--scheduler-delay-factor", "scheduler_delay_factor"))
    if release < (0, 10, 0):
        adapter = get("enable_prompt_adapter") is True
        checks.append((adapter, "--enable-prompt-adapter", "enable_prompt_adapter"))
    if (0, 9, 0) <= release < (0, 11, 0):
        embeds = get("enable_prompt_embeds") is True
        checks.append((embeds, "--enable-prompt-embeds", "enable_prompt_embeds"))
    partial = get("max_num_partial_prefills", 1) != 1 or get("max_long_partial_prefills", 1) != 1
    checks.append((partial, "Concurrent Partial Prefill", "max_num_partial_prefills"))
    if release < (0, 10, 2):
        traces = bool(get("otlp_traces_endpoint") or get("collect_detailed_traces"))
        checks.append((traces, "--otlp-traces-endpoint", "otlp_traces_endpoint"))
    if release < (0, 10, 0):
        method = get("speculative_config.method")
        allowed = {"ngram", "[ngram]", "eagle", "eagle3"}
        if release >= (0, 9, 0):
            allowed |= {"medusa", "deepseek_mtp"}
        spec = isinstance(method, str) and method not in allowed
        checks.append((spec, "Speculative Decoding", "speculative_config"))
    pp = _int(settings, "pipeline_parallel_size") or 1
    backend = get("distributed_executor_backend")
    if release < (0, 9, 0):
        pp_ok: tuple[object, ...] = ("ray",)
        name = "Pipeline Parallelism without Ray distributed executor"
    else:
        pp_ok = ("ray", "mp", "external_launcher", *((None,) if release >= (0, 9, 1) else ()))
        name = (
            "Pipeline Parallelism without Ray distributed executor or multiprocessing"
            " executor or external launcher"
        )
    checks.append((pp > 1 and backend not in pp_ok, name, "pipeline_parallel_size"))
    for refused_here, feature, path in checks:
        if path in settings.opaque:
            return None
        if refused_here:
            return feature, path
    return None


def _v1_engine(settings: Settings, release: Release, put: Put) -> None:
    """V1 or V0 (0.8.5-0.11.0 create_engine_config): VLLM_USE_V1=1 forces V1 and refuses
    unsupported features; unset, vLLM falls back to V0 on the first one; =0 forces V0."""
    if release >= (0, 11, 1) or "env.VLLM_USE_V1" in settings.opaque:
        return
    env = settings.get("env.VLLM_USE_V1")
    forced = env_int_bool(settings, "VLLM_USE_V1") if env is not None else None
    if env is not None and forced is None:
        return  # not an integer: vLLM stops on the variable itself
    found = _v1_unsupported(settings, release)
    if found is not None:
        put("v1_unsupported_feature", found[0], found[1])
    if forced is not None:
        put("v1_forced", forced, "env.VLLM_USE_V1")
    engine_v0 = forced is False or (forced is None and found is not None)
    if engine_v0:
        sources = ("env.VLLM_USE_V1", found[1]) if found else ("env.VLLM_USE_V1",)
        put("engine_v0", True, *sources)


def _structured_outputs(settings: Settings, release: Release, put: Put) -> None:
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


def _hisparse(settings: Settings, put: Put) -> None:
    """HiSparse is on with --attention-config.hisparse_config or the HiSparseConnector
    (0.33.0 vllm.py:1876-1881)."""
    config = settings.get("attention_config.hisparse_config")
    connector = settings.get("kv_transfer_config.kv_connector") == "HiSparseConnector"
    if isinstance(config, dict) or connector:
        put("hisparse", True, "attention_config.hisparse_config", "kv_transfer_config")


def _batch_and_kernels(settings: Settings, release: Release, put: Put) -> None:
    # The token budget a LoRA + speculative launch needs: max_num_seqs * (k + 1)
    # (0.33.0 arg_utils.py:2722); only from explicit values, the defaults hang on the GPU.
    seqs = _int(settings, "max_num_seqs")
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


def _parallel(settings: Settings, release: Release, put: Put) -> None:
    """Products and defaults ParallelConfig's validators compare (0.33.0 config/parallel.py)."""
    sizes = {
        name: _int(settings, f"{name}_parallel_size")
        for name in ("tensor", "pipeline", "data", "prefill_context", "decode_context")
    }
    tp, dp, pcp = sizes["tensor"] or 1, sizes["data"] or 1, sizes["prefill_context"] or 1
    if not any(f"{n}_parallel_size" in settings.opaque for n in sizes):
        # the EP group spans TP x DP, and from 0.26 TP x PCP x DP (parallel.py:573-579)
        put("tp_dp", tp * dp, "tensor_parallel_size", "data_parallel_size")
        put("tp_pcp_dp", tp * pcp * dp, "tensor_parallel_size", "data_parallel_size")
        put("tp_pcp", tp * pcp, "tensor_parallel_size", "prefill_context_parallel_size")
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
    ubatch = _int(settings, "ubatch_size") or 0
    put("num_ubatches", 2 if dbo else ubatch, "enable_dbo", "ubatch_size")
    thresholds = [
        _int(settings, "dbo_decode_token_threshold"),
        _int(settings, "dbo_prefill_token_threshold"),
    ]
    if all(t is not None for t in thresholds):
        put(
            "dbo_min_token_threshold",
            min(t for t in thresholds if t is not None),
            "dbo_decode_token_threshold",
            "dbo_prefill_token_threshold",
        )


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


def _dp_launch(settings: Settings, release: Release, put: Put) -> None:
    """EngineArgs.create_engine_config's data-parallel block (0.9.2 arg_utils.py:1130,
    0.10.2 :1225, 0.11.2 :1456, 0.27.0 :2015, 0.33.0 :2380): which launch mode the flags
    select and the data_parallel_size_local / data_parallel_external_lb handed to
    ParallelConfig. Stops where vLLM would already have raised (the rules say so)."""
    if release < (0, 9, 0) or any(p in settings.opaque for p in _DP_FLAGS):
        return
    dp = _int(settings, "data_parallel_size") or 1
    local = _int(settings, "data_parallel_size_local")
    if release < (0, 9, 2):  # 0.9.0-0.9.1: the local size, else the global one (arg_utils:1047)
        put("dp_size_local", dp if local is None else local, "data_parallel_size_local")
        return
    rank = _int(settings, "data_parallel_rank")
    start = _int(settings, "data_parallel_start_rank")
    external_flag = (
        bool(settings.get("data_parallel_external_lb")) if release >= (0, 11, 2) else False
    )
    hybrid = bool(settings.get("data_parallel_hybrid_lb")) if release >= (0, 10, 0) else False
    headless = bool(settings.get("derived.headless_mode"))
    nnodes = _int(settings, "nnodes") or 1
    node_rank = _int(settings, "node_rank") or 0
    tp = _int(settings, "tensor_parallel_size") or 1
    pp = _int(settings, "pipeline_parallel_size") or 1
    pcp = _int(settings, "prefill_context_parallel_size") or 1
    node_sources = ("nnodes", "node_rank", "data_parallel_size")
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
                    ambiguous = nnodes % dp != 0
                    put("dp_rank_ambiguous", ambiguous, *node_sources)
                    if ambiguous:
                        return
                    rank = inferred
            else:
                rank = inferred
        elif local is None:
            local = max(world // nnodes // within_dp, 1)
    external = external_flag or rank is not None
    lb_sources = ("data_parallel_external_lb", "data_parallel_rank", "data_parallel_hybrid_lb")
    put("dp_external_requested", external, *lb_sources)
    if external:
        put("dp_rank_missing", rank is None, "data_parallel_external_lb")
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
        put("dp_hybrid_without_local", hybrid, "data_parallel_hybrid_lb")
        if hybrid:
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
    put("dp_external_lb", external, *lb_sources, "data_parallel_size_local")
    put("dp_rank", rank_eff, "data_parallel_rank", "data_parallel_start_rank", "node_rank")
    put("dp_hybrid_lb", hybrid, "data_parallel_hybrid_lb", "data_parallel_start_rank")


def _multi_port(settings: Settings, release: Release, put: Put) -> None:
    """The ranks and ports --data-parallel-multi-port-external-lb hands its children
    (0.22+ dp_supervisor.py: infer_multi_port_external_lb_start_rank and the port check)."""
    if release < (0, 22, 0) or settings.get("data_parallel_multi_port_external_lb") is not True:
        return
    local = _int(settings, "data_parallel_size_local")
    if local is None or any(
        p in settings.opaque for p in ("data_parallel_start_rank", "node_rank", "port")
    ):
        return
    start = _int(settings, "data_parallel_start_rank")
    if start is None:
        start = (_int(settings, "node_rank") or 0) * local
    sources = ("data_parallel_start_rank", "node_rank", "data_parallel_size_local")
    put("multi_port_start_rank", start, *sources)
    put("multi_port_rank_end", start + local, *sources)
    port = _int(settings, "port")
    if port is not None:
        put("multi_port_last_port", port + local - 1, "port", "data_parallel_size_local")


def _lb_modes(settings: Settings, release: Release, put: Put) -> None:
    """The data-parallel load-balancing modes ServeSubcommand.cmd sees (0.15+): external
    (--data-parallel-external-lb or --data-parallel-rank), hybrid (--data-parallel-hybrid-lb,
    or --data-parallel-start-rank) and, from 0.22, multi-port (0.33.0 serve.py:83-101)."""
    if release < (0, 15, 0):
        return
    external = _flag(settings, "data_parallel_external_lb")
    hybrid = _flag(settings, "data_parallel_hybrid_lb")
    multi_port = _flag(settings, "data_parallel_multi_port_external_lb") or False
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


def _serve_mode(settings: Settings, release: Release, put: Put) -> None:
    """ServeSubcommand.cmd: headless mode and the number of API server processes."""
    if release < (0, 9, 0):
        return
    headless = _flag(settings, "headless")
    explicit = _int(settings, "api_server_count")
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


def _default_api_server_count(
    settings: Settings, release: Release, explicit: int | None
) -> int | None:
    external = _flag(settings, "data_parallel_external_lb")
    hybrid_flag = _flag(settings, "data_parallel_hybrid_lb")
    multi_port = _flag(settings, "data_parallel_multi_port_external_lb") or False
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
            local = _int(settings, "data_parallel_size_local")
            count = local or 1
        else:
            count = _int(settings, "data_parallel_size")
    elif rust and explicit > 1:
        count = 1  # "Ignoring --api-server-count ... when using rust front-end process"
    if count is None:
        return None
    # 0.19+: "Elastic EP only supports running with at most one API server" (a cap, no error)
    if release >= (0, 19, 0) and settings.get("enable_elastic_ep") is True and count > 1:
        count = 1
    return count
