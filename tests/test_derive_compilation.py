"""The CUDA graph capture sizes a launch writes (effective/derive/compilation.py), as vLLM reads
them before VllmConfig._set_cudagraph_sizes and _split_cudagraph_capture_sizes compare them."""

from __future__ import annotations

from typing import Any

from vllm_lint.files.textpos import FilePositions
from vllm_lint.model import Invocation
from vllm_lint.options import Options
from vllm_lint.pipeline import settings_of
from vllm_lint.read.shell import Lexer


def derived(argv: str, release: str = "0.34.0") -> dict[str, Any]:
    words = [w for c in Lexer(argv, FilePositions("t", argv)).commands() for w in c.words]
    invocation = Invocation("t", tuple(words), {}, "t")
    settings, _ = settings_of(invocation, Options(vllm_version=release))
    return dict(settings.document["derived"])


def test_sizes_and_maximum_from_the_flags_or_the_json() -> None:
    got = derived("m --cudagraph-capture-sizes 1 2 4 8 --max-cudagraph-capture-size 16")
    assert got["cudagraph_capture_sizes"] == [1, 2, 4, 8]
    assert got["cudagraph_capture_sizes_max"] == 8
    assert got["max_cudagraph_capture_size"] == 16
    assert got["max_cudagraph_capture_size_listed"] is False
    cc = derived("""m -cc '{"cudagraph_capture_sizes": [8, 4], "max_cudagraph_capture_size": 4}'""")
    assert cc["max_cudagraph_capture_size_listed"] is True
    assert cc["cudagraph_capture_sizes_max"] == 8


def test_deprecated_cuda_graph_sizes_up_to_0_12() -> None:
    assert derived("m --cuda-graph-sizes 1 2", "0.11.2")["cudagraph_capture_sizes"] == [1, 2]


def test_an_empty_list_has_no_maximum_and_nothing_is_guessed() -> None:
    got = derived("""m -cc '{"cudagraph_capture_sizes": []}'""")
    assert got["cudagraph_capture_sizes"] == []
    assert "cudagraph_capture_sizes_max" not in got
    assert "max_cudagraph_capture_size" not in derived("m")


def test_split_sizes_above_their_cap() -> None:
    cc = (
        """m -cc '{"prefill_cudagraph_capture_token_sizes": [8, 128, 64],"""
        """ "max_prefill_cudagraph_capture_tokens": 32}'"""
    )
    assert derived(cc)["prefill_cudagraph_size_above_cap"] == 64
    assert "prefill_cudagraph_size_above_cap" not in derived(cc, "0.33.0")
    within = (
        """m -cc '{"decode_cudagraph_capture_request_sizes": [1, 2],"""
        """ "max_decode_cudagraph_capture_requests": 2}'"""
    )
    assert "decode_cudagraph_size_above_cap" not in derived(within)


def test_split_maxima_beside_the_deprecated_sizes() -> None:
    both = (
        """m --cudagraph-capture-sizes 1 2 4 8 -cc '{"prefill_cudagraph_capture_token_sizes":"""
        """ [16], "decode_cudagraph_capture_request_sizes": [1]}'"""
    )
    got = derived(both)
    assert (got["decode_cudagraph_sizes_max"], got["split_cudagraph_sizes_max"]) == (1, 16)
    # no prefill sizes written: vLLM takes the deprecated sizes for prefill
    decode_only = """m -cc '{"cudagraph_capture_sizes": [1, 8], "decode_cudagraph_capture_request_sizes": [2]}'"""
    assert derived(decode_only)["split_cudagraph_sizes_max"] == 8
    # a size below 1 is dropped by vLLM: nothing is derived from such a list
    assert "decode_cudagraph_sizes_max" not in derived(
        """m -cc '{"decode_cudagraph_capture_request_sizes": [0, 2]}'"""
    )
