"""Values `vllm serve` derives from launch flags and environment variables, under `derived.*`.

The serve command (vllm/entrypoints/cli/serve.py) and EngineArgs.create_engine_config
(vllm/engine/arg_utils.py) turn the data-parallel, API-server and node flags into the values
their validators test. Each value follows vLLM's code for the release and cites it; a value
that hangs on something the file does not show (an opaque word, a missing flag) is left out,
so no rule fires on a guess.
"""

from __future__ import annotations

from collections.abc import Callable

from .settings import Settings

Put = Callable[..., None]
Release = tuple[int, int, int]


def env_int_bool(settings: Settings, name: str) -> bool | None:
    """`bool(int(os.getenv(NAME, "0")))`, as vllm/envs.py reads most switches.

    None when the variable is opaque or not an integer (vLLM itself would stop with a
    ValueError there; that is not what the rules describe).
    """
    path = f"env.{name}"
    if path in settings.opaque:
        return None
    value = settings.get(path)
    if value is None:
        return False
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
    put("api_server_count", servers, *sources, defaulted=explicit is None)


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
