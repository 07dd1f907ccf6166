"""Values `vllm serve` derives from launch flags and the environment (derive_launch.py), each
checked against what vLLM's own code does for the release (file:line in the module)."""

from __future__ import annotations

from typing import Any

import pytest

from vllm_lint.files.textpos import FilePositions
from vllm_lint.model import Invocation, Span, Token
from vllm_lint.options import Options
from vllm_lint.pipeline import settings_of
from vllm_lint.read.shell import Lexer


def derived(argv: str, release: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    words = [w for c in Lexer(argv, FilePositions("t", argv)).commands() for w in c.words]
    span = Span("t", 1, 1, 1, 2)
    invocation = Invocation(
        "t", tuple(words), {k: Token(v, span) for k, v in (env or {}).items()}, "t"
    )
    settings, _ = settings_of(invocation, Options(vllm_version=release))
    return dict(settings.document["derived"])


@pytest.mark.parametrize(
    ("argv", "release", "count"),
    [
        ("m -dp 4", "0.14.1", 1),  # the flag defaulted to 1 before 0.15
        ("m -dp 4", "0.33.0", 4),  # 0.15+: one API server per data-parallel rank
        ("m -dp 4 --data-parallel-rank 1", "0.33.0", 1),  # external LB
        ("m -dp 4 -dpl 2 --data-parallel-start-rank 2", "0.33.0", 2),  # hybrid: the local size
        ("m -dp 4 --headless", "0.33.0", 0),
        ("m -dp 4 --enable-elastic-ep", "0.33.0", 1),  # capped, 0.19+
        ("m -dp 4 --enable-elastic-ep", "0.18.1", 4),
    ],
)
def test_api_server_count(argv: str, release: str, count: int) -> None:
    assert derived(argv, release)["api_server_count"] == count


def test_rust_frontend_caps_api_servers_and_parses_like_vllm() -> None:
    assert derived("m -dp 4", "0.33.0", {"VLLM_USE_RUST_FRONTEND": "1"})["api_server_count"] == 1
    assert derived("m", "0.33.0", {"VLLM_USE_RUST_FRONTEND": "0"})["rust_frontend"] is False
    assert "rust_frontend" not in derived("m", "0.33.0", {"VLLM_USE_RUST_FRONTEND": "yes"})
    assert "rust_frontend" not in derived("m", "0.21.0", {"VLLM_USE_RUST_FRONTEND": "1"})


def test_runtime_lora_switch_reads_true_and_one_only() -> None:
    for value, on in (("True", True), (" 1 ", True), ("yes", False), ("0", False)):
        got = derived("m", "0.33.0", {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": value})
        assert got["runtime_lora_updating"] is on, value


def test_load_balancing_modes() -> None:
    assert derived("m -dp 4 --data-parallel-start-rank 2", "0.33.0")["dp_lb_modes"] == ["hybrid"]
    both = derived("m -dp 4 --data-parallel-start-rank 2 --data-parallel-rank 2", "0.21.0")
    assert both["dp_lb_modes"] == ["external", "hybrid"]
    # 0.22+: with --data-parallel-multi-port-external-lb a start rank no longer implies hybrid
    multi = derived(
        "m -dp 4 --data-parallel-multi-port-external-lb --data-parallel-start-rank 0", "0.33.0"
    )
    assert multi["dp_lb_modes"] == ["multi-port external"]


def test_local_size_and_rank_follow_create_engine_config() -> None:
    assert derived("m -dp 4", "0.33.0")["dp_size_local"] == 4
    external = derived("m -dp 4 --data-parallel-rank 3", "0.33.0")
    assert (external["dp_size_local"], external["dp_rank"], external["dp_external_lb"]) == (
        1,
        3,
        True,
    )
    # hybrid with one local rank switches to external LB ("autoswitch")
    assert derived("m -dp 4 -dpl 1 --data-parallel-hybrid-lb", "0.33.0")["dp_external_lb"] is True
    # nnodes: the local size is inferred from the world size (0.11.2+)
    assert derived("m -dp 4 --nnodes 2 --node-rank 1", "0.33.0")["dp_size_local"] == 2
    # 0.31+ infers an external rank from --node-rank only when it is unique (VL222 refuses
    # the rest); 0.30 infers it always
    assert "dp_rank" not in derived("m -dp 4 --data-parallel-external-lb --nnodes 2", "0.33.0")
    assert derived("m -dp 2 --data-parallel-external-lb --nnodes 2", "0.33.0")["dp_rank"] == 0
    assert derived("m -dp 4 --data-parallel-external-lb --nnodes 2", "0.30.0")["dp_rank"] == 0


def test_world_size_counts_pcp_from_0_30() -> None:
    argv = "m -dp 2 -tp 2 -pcp 2 --nnodes 2"
    assert derived(argv, "0.29.0")["dp_world_size"] == 4
    assert derived(argv, "0.30.0")["dp_world_size"] == 8


def test_v1_engine_fallback_and_forcing() -> None:
    assert derived("m --preemption-mode swap", "0.10.2")["engine_v0"] is True  # falls back
    forced = derived("m --preemption-mode swap", "0.10.2", {"VLLM_USE_V1": "1"})
    assert (forced["v1_forced"], forced["v1_unsupported_feature"]) == (True, "--preemption-mode")
    assert "engine_v0" not in derived("m", "0.10.2")
    assert "v1_forced" not in derived("m", "0.11.2", {"VLLM_USE_V1": "1"})  # no V0 left


def test_ray_executor_async_support_by_release() -> None:
    assert derived("m", "0.19.1")["ray_executor_async"] is False
    assert derived("m", "0.20.2")["ray_executor_async"] is False  # V2 executor off by default
    assert derived("m", "0.21.0")["ray_executor_async"] is True
    env = {"VLLM_USE_RAY_V2_EXECUTOR_BACKEND": "0"}
    assert derived("m", "0.32.0", env)["ray_executor_async"] is False
    assert derived("m", "0.33.0", env)["ray_executor_async"] is True  # V2 only


def test_structured_output_backend_default_and_deprecated_flags() -> None:
    assert derived("m --guided-decoding-disable-any-whitespace", "0.9.2")["so_backend"] == "auto"
    v0 = derived("m --guided-decoding-disable-any-whitespace", "0.9.2", {"VLLM_USE_V1": "0"})
    assert v0["so_backend"] == "xgrammar"
    # 0.11+: the deprecated flag is copied in after validation, so it is not judged
    assert "so_disable_any_whitespace" not in derived(
        "m --guided-decoding-disable-any-whitespace", "0.11.2"
    )


def test_opaque_values_are_never_judged() -> None:
    unknown = derived("m -dp $DP", "0.33.0")  # a variable the file does not define
    assert "dp_size_local" not in unknown
    assert "api_server_count" not in unknown


@pytest.mark.parametrize(
    ("argv", "ranges"),
    [
        ("m --numa-bind-cpus 0-3 4,6-7", [[0, 3], [6, 7]]),
        ("m --numa-bind-cpus 7-4,9", [[7, 4]]),
        ("m --numa-bind-cpus 0-3 abc", None),  # another check refuses the syntax first
        ("m --numa-bind-cpus 1-" + "9" * 5000, None),  # past int()'s digit limit: no value
    ],
)
def test_numa_cpu_ranges_split_as_vllm_does(argv: str, ranges: list[list[int]] | None) -> None:
    assert derived(argv, "0.34.0").get("numa_bind_cpus_ranges") == ranges


@pytest.mark.parametrize(
    ("ops", "conflicts"),
    [
        ('["+rms_norm", "-rms_norm", "+silu", "-gelu"]', ["rms_norm"]),
        ('["all", "-b", "+a", "-a", "+b"]', ["a", "b"]),
        ('["+rms_norm"]', []),
        ('["+a", 3]', None),  # not a list of words: another check refuses it
    ],
)
def test_custom_op_conflicts_as_vllm_computes_them(ops: str, conflicts: list[str] | None) -> None:
    found = derived(f"m --compilation-config '{{\"custom_ops\": {ops}}}'", "0.34.0")
    assert found.get("custom_ops_conflicts") == conflicts
