"""The engine vLLM runs: V0 or V1 (VLLM_USE_V1, and what V1 lacks)."""

from __future__ import annotations

from vllm_lint.effective.derive.values import Put, Release, env_int_bool, int_value
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
    found = _v1_unsupported(settings, release)
    if found is not None:
        put("v1_unsupported_feature", found[0], found[1])
    if forced is not None:
        put("v1_forced", forced, "env.VLLM_USE_V1")
    engine_v0 = forced is False or (forced is None and found is not None)
    if engine_v0:
        sources = ("env.VLLM_USE_V1", found[1]) if found else ("env.VLLM_USE_V1",)
        put("engine_v0", True, *sources)


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
    pp = int_value(settings, "pipeline_parallel_size") or 1
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
