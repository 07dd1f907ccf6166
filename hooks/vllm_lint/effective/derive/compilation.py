"""Compilation: the CUDA graph capture sizes a launch asks for, as vLLM reads them before it
resolves them, and the custom-op directives CompilationConfig reads from `custom_ops`."""

from __future__ import annotations

from typing import Any

from vllm_lint.effective.derive.values import Put, Release
from vllm_lint.effective.settings import Settings

# Where each value can be written. EngineArgs.create_engine_config copies the top-level flags
# into CompilationConfig (0.34.0 arg_utils.py:2871-2885; --cuda-graph-sizes too up to 0.12,
# 0.11.2 arg_utils.py:1743) and refuses two of them at once (VL315-VL317), so at most one holds.
_SIZES = (
    "compilation_config.cudagraph_capture_sizes",
    "cudagraph_capture_sizes",
    "cuda_graph_sizes",
)
_MAX = ("compilation_config.max_cudagraph_capture_size", "max_cudagraph_capture_size")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _first(settings: Settings, paths: tuple[str, ...]) -> tuple[Any, str] | None:
    for path in paths:
        value = settings.get(path)
        if value is not None:
            return value, path
    return None


def derive_cudagraph_sizes(settings: Settings, release: Release, put: Put) -> None:
    """`cudagraph_capture_sizes` and `max_cudagraph_capture_size` as written (a list of
    integers, an integer), the largest size written, and whether the written maximum is one
    of the sizes. VllmConfig._set_cudagraph_sizes (0.34.0 vllm.py:2453-2518) compares them
    before it drops the sizes above max_num_batched_tokens."""
    sizes = _first(settings, _SIZES)
    if sizes is not None and isinstance(sizes[0], list) and all(map(_is_int, sizes[0])):
        put("cudagraph_capture_sizes", list(sizes[0]), sizes[1])
        if sizes[0]:
            put("cudagraph_capture_sizes_max", max(sizes[0]), sizes[1])
    written_max = _first(settings, _MAX)
    if written_max is not None and _is_int(written_max[0]):
        put("max_cudagraph_capture_size", written_max[0], written_max[1])
        if sizes is not None and isinstance(sizes[0], list) and all(map(_is_int, sizes[0])):
            put(
                "max_cudagraph_capture_size_listed",
                written_max[0] in sizes[0],
                written_max[1],
                sizes[1],
            )


# The split capture sizes (0.34): each list beside the cap vLLM holds it to
# (VllmConfig._split_cudagraph_capture_sizes.explicit, 0.34.0 vllm.py:2613-2626).
_SPLIT = (
    ("prefill", "prefill_cudagraph_capture_token_sizes", "max_prefill_cudagraph_capture_tokens"),
    ("decode", "decode_cudagraph_capture_request_sizes", "max_decode_cudagraph_capture_requests"),
)


def derive_split_cudagraph_sizes(settings: Settings, release: Release, put: Put) -> None:
    """The smallest prefill (token) or decode (request) capture size written above its cap.
    vLLM first drops the sizes outside [1, max_num_batched_tokens] (prefill) or
    [1, max_num_seqs] (decode), then refuses a kept size above the cap (0.34.0 vllm.py:2613-2625):
    the rules compare this size with those limits."""
    if release < (0, 34, 0):
        return
    for kind, sizes_key, cap_key in _SPLIT:
        sizes_path, cap_path = f"compilation_config.{sizes_key}", f"compilation_config.{cap_key}"
        sizes, cap = settings.get(sizes_path), settings.get(cap_path)
        if not isinstance(sizes, list) or not all(map(_is_int, sizes)) or not _is_int(cap):
            continue
        above = [s for s in sizes if s > cap]
        if above:
            put(f"{kind}_cudagraph_size_above_cap", min(above), sizes_path, cap_path)


def _sizes_at_least_one(value: Any) -> list[int] | None:
    if isinstance(value, list) and value and all(_is_int(s) and s >= 1 for s in value):
        return value
    return None


def derive_split_sizes_max(settings: Settings, release: Release, put: Put) -> None:
    """With both the deprecated capture sizes and the split ones written, vLLM requires the
    deprecated list to equal the token sizes it resolves from the split ones, all of them or the
    decode ones (0.34.0 vllm.py:2714-2724). The largest written decode request size, and the
    largest of those and the prefill sizes (the deprecated sizes when no prefill sizes are
    written: vllm.py:2645); only from written sizes of 1 or more (vLLM drops the others)."""
    if release < (0, 34, 0):
        return
    path = "compilation_config.decode_cudagraph_capture_request_sizes"
    decode = _sizes_at_least_one(settings.get(path))
    if decode is None:
        return
    put("decode_cudagraph_sizes_max", max(decode), path)
    prefill_path = "compilation_config.prefill_cudagraph_capture_token_sizes"
    prefill = settings.get(prefill_path)
    if prefill is None:
        legacy = _first(settings, _SIZES)
        if legacy is not None and isinstance(legacy[0], list) and all(map(_is_int, legacy[0])):
            prefill, prefill_path = legacy[0] or None, legacy[1]
    else:
        prefill = _sizes_at_least_one(prefill)
    if prefill:
        put("split_cudagraph_sizes_max", max(decode + prefill), path, prefill_path)


def derive_custom_ops(settings: Settings, put: Put) -> None:
    """`custom_ops_conflicts`: the op names both turned on (`+op`) and off (`-op`), sorted, as
    CompilationConfig.__post_init__ computes `conflicting_ops` (0.34.0 config/compilation.py:
    1176-1178, from 0.27); only for a list of strings (another check refuses anything else)."""
    ops = settings.get("compilation_config.custom_ops")
    if not isinstance(ops, list) or not all(isinstance(op, str) for op in ops):
        return
    enabled = {op[1:] for op in ops if op.startswith("+")}
    disabled = {op[1:] for op in ops if op.startswith("-")}
    sources = ("compilation_config.custom_ops", "compilation_config")
    put("custom_ops_conflicts", sorted(enabled & disabled), *sources)
