"""vLLM's argv grammar, release by release, through `check_command_line` and `settings_of`."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from vllm_lint.files.textpos import FilePositions
from vllm_lint.model import Invocation, Span, Token
from vllm_lint.options import Options
from vllm_lint.pipeline import check_command_line, settings_of
from vllm_lint.read.shell import Lexer


def effective(argv: str, release: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    words = [w for c in Lexer(argv, FilePositions("t", argv)).commands() for w in c.words]
    span = Span("t", 1, 1, 1, 2)
    invocation = Invocation(
        "t", tuple(words), {k: Token(v, span) for k, v in (env or {}).items()}, "t"
    )
    found, findings = settings_of(invocation, Options(vllm_version=release))
    assert not [f for f in findings if f.severity.label == "error"], findings
    return found.document


def rules_of(argv: str, release: str) -> list[str]:
    return [f.rule for f in check_command_line(argv, release)]


def test_value_forms_and_underscores() -> None:
    doc = effective("m --max_model_len=4096 --tensor-parallel-size 2 -pp 2", "0.33.0")
    assert (doc["model"], doc["max_model_len"], doc["tensor_parallel_size"]) == ("m", 4096, 2)
    assert doc["pipeline_parallel_size"] == 2


def test_human_readable_ints() -> None:
    assert effective("m --max-model-len 32k", "0.33.0")["max_model_len"] == 32000
    assert effective("m --max-model-len 1Ki", "0.33.0")["max_model_len"] == 1024


def test_booleans_and_their_negations_by_release() -> None:
    assert effective("m --enable-prefix-caching", "0.33.0")["enable_prefix_caching"] is True
    assert effective("m --no-enable-prefix-caching", "0.28.0")["enable_prefix_caching"] is False
    assert effective("m --disable-prefix-caching", "0.33.0")["enable_prefix_caching"] is False
    # `--disable-X` pairs exist only from 0.33: before, argparse rejects the flag
    assert rules_of("m --disable-prefix-caching", "0.32.0") == ["VL001"]


def test_json_values_dotted_keys_and_spec_shortcuts_merge() -> None:
    # the dotted keys make one object, which vLLM appends after the argv: it replaces the
    # full JSON (vllm/utils/argparse_utils.py:441-502 in 0.33; tests/test_grammar_json_repeats.py)
    doc = effective(
        'm --speculative-config \'{"method": "ngram"}\' '
        "--speculative-config.num_speculative_tokens 3 --speculative_config.prompt_lookup_max=4",
        "0.33.0",
    )
    assert doc["speculative_config"] == {"num_speculative_tokens": 3, "prompt_lookup_max": 4}
    doc = effective(
        "m --speculative-config.method ngram "
        "--speculative-config.num_speculative_tokens 3 --speculative_config.prompt_lookup_max=4",
        "0.33.0",
    )
    assert doc["speculative_config"] == {
        "method": "ngram",
        "num_speculative_tokens": 3,
        "prompt_lookup_max": 4,
    }
    doc = effective("m --spec-method ngram --spec-tokens 2", "0.33.0")
    assert doc["speculative_config"] == {"method": "ngram", "num_speculative_tokens": 2}
    assert doc["derived"]["spec_tokens"] == 2


def test_optimization_level_shorthand() -> None:
    assert effective("m -O3", "0.33.0")["optimization_level"] in (3, "3")
    assert effective("m -O 2", "0.33.0")["optimization_level"] in (2, "2")


def test_defaults_are_filled_and_marked() -> None:
    doc = effective("m --use-replayssm", "0.33.0")
    assert doc["mamba_backend"] == "triton" and doc["replayssm_buffer_len"] == 16
    assert doc["derived"]["hybrid_prefix_caching"] is True  # on for hybrid models from 0.28
    assert effective("m --use-replayssm", "0.27.0")["derived"]["hybrid_prefix_caching"] is False


def test_model_runner_choice_follows_env_and_release() -> None:
    assert effective("m", "0.33.0")["derived"]["v2_model_runner"] is True
    assert (
        effective("m", "0.33.0", {"VLLM_USE_V2_MODEL_RUNNER": "0"})["derived"]["v2_model_runner"]
        is False
    )
    assert effective("m --enable-dbo", "0.31.0")["derived"]["v2_model_runner"] is False


def test_grammar_problems_become_findings() -> None:
    assert rules_of("m --tensor-parallel-size two", "0.33.0") == ["VL004"]
    assert rules_of("m --enable-prefix-cashing", "0.33.0") == ["VL001"]
    assert rules_of("m --speculative-config '{bad'", "0.33.0") == ["VL007"]
    assert rules_of("m --max-model-len", "0.33.0") == ["VL009"]
    assert rules_of("m --max-num-seq 4", "0.33.0") == ["VL008"]


FLAGISH = st.sampled_from(
    [
        "--use-replayssm",
        "--no-use-replayssm",
        "--speculative-config",
        "-sc",
        "--mamba-backend",
        "--max-model-len",
        "-tp",
        "--enable-prefix-caching",
        "--disable-prefix-caching",
        "--spec-tokens",
        "--speculative-config.num_speculative_tokens",
        "-O",
        "-O3",
        "--",
        "--config",
        "--unknown-flag",
        "--max_model_len=4",
        "--hf-overrides",
        "--lora-modules",
    ]
)
VALUEISH = st.one_of(
    st.sampled_from(["3", "-1", "two", "{}", '{"a": 1}', "[1,2]", "flashinfer", "", "auto", "1e9"]),
    st.text(max_size=12),
)


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.one_of(FLAGISH, VALUEISH), max_size=12),
    release=st.sampled_from(["0.8.5", "0.20.0", "0.28.0", "0.33.0", "0.34.0"]),
)
def test_any_argv_is_parsed_without_an_exception(words: list[str], release: str) -> None:
    span = Span("p", 1, 1, 1, 2)
    invocation = Invocation("p", tuple(Token(w, span) for w in words), {}, "p")
    from vllm_lint.pipeline import check

    for finding in check(invocation, Options(vllm_version=release)):
        assert finding.span.path == "p" and finding.message
