"""Argv checks that vLLM's own verdicts asked for (docs/conformance.md, "Missing checks outside
rule data"): each test uses an argv vLLM was asked about (tests/data/verdicts/) and cites the
vLLM line that decides it."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli
from vllm_lint import release as versions
from vllm_lint.argv import catalog
from vllm_lint.argv import history as flag_history
from vllm_lint.pipeline import check_command_line


def rules_of(argv: str, release: str) -> list[str]:
    return [f.rule for f in check_command_line(argv, release)]


# -- a removed or renamed flag before it existed -----------------------------------------------


@pytest.mark.parametrize(
    ("argv", "release", "expected"),
    [
        # 0.30 added it (vllm/config/cache.py, 0.30.0), 0.31 removed it. vLLM 0.28.0:
        # "unrecognized arguments: --enable-mamba-fine-grained-prefix-cache"
        # (vllm/utils/argparse_utils.py:429; verdicts 07a998557733, 291d5be2894a)
        ("Qwen/Qwen3-8B --enable-mamba-fine-grained-prefix-cache", "0.28.0", ["VL001"]),
        ("Qwen/Qwen3-30B-A3B --tensor-parallel-size=4 --enable-mamba-fine-grained-prefix-cache",
         "0.28.0", ["VL001"]),
        ("Qwen/Qwen3-8B --no-enable-mamba-fine-grained-prefix-cache", "0.29.0", ["VL001"]),
        ("Qwen/Qwen3-8B --enable-mamba-fine-grained-prefix-cache", "0.30.0", []),
        ("Qwen/Qwen3-8B --enable-mamba-fine-grained-prefix-cache", "0.31.0", ["VL002"]),
        ("Qwen/Qwen3-8B --enable-mamba-fine-grained-prefix-cache", "0.34.0", ["VL002"]),
    ],
)  # fmt: skip
def test_a_removed_flag_is_unknown_before_it_existed(
    argv: str, release: str, expected: list[str]
) -> None:
    assert rules_of(argv, release) == expected


def test_before_the_flag_the_message_says_when_it_came() -> None:
    [finding] = check_command_line("m --enable-mamba-fine-grained-prefix-cache", "0.28.0")
    assert "it first appears in vLLM 0.30.0" in finding.message


# the rows whose flag came after the oldest catalog
LATER_FLAGS = sorted(
    flag
    for flag in flag_history.removed_flags()
    if flag_history.first_in(flag) not in (None, catalog.known_releases()[0])
)


def test_some_table_flags_came_after_the_oldest_catalog() -> None:
    assert "--enable-mamba-fine-grained-prefix-cache" in LATER_FLAGS and len(LATER_FLAGS) > 10


@pytest.mark.parametrize("flag", LATER_FLAGS)
def test_every_table_flag_is_unknown_in_the_minor_before_its_first(flag: str) -> None:
    """For each row: the minor series before the first catalog that has the flag calls it
    unknown (VL001), never removed (VL002), never silently accepted."""
    first = flag_history.first_in(flag)
    known = catalog.known_releases()
    assert first is not None
    before = known[known.index(first) - 1]
    assert versions.full_key(before) < versions.full_key(first)  # 0.4.0 < 0.4.0.post1
    row = flag_history.removed_flags()[flag]
    value = {"none": "", "one": " 1", "optional": "", "many": " 1 2"}[row.value]
    found = rules_of(f"m {flag}{value}", before)
    assert found and found[0] in ("VL001", "VL008", "VL010"), found


# -- a type lambda replayed before the choices are judged ---------------------------------------


@pytest.mark.parametrize(
    ("argv", "release", "expected"),
    [
        # `--moe-backend` has `type=lambda s: s.lower().replace("-", "_")` and the choices of
        # MoEBackend (vllm/engine/arg_utils.py:1599 in 0.28, :1844 in 0.33); argparse checks the
        # value the lambda returns. flashinfer_moe_ep_cutedsl first appears in 0.32. vLLM 0.28:
        # "argument --moe-backend: invalid choice: 'flashinfer_moe_ep_cutedsl'"
        # (vllm/utils/argparse_utils.py:140; verdicts 153bd79f1e4e, 1f29a8a8c4d9, 89e2ee299215)
        ("Qwen/Qwen3-30B-A3B --enable-lora --moe-backend flashinfer-moe-ep-cutedsl", "0.28.0",
         ["VL005"]),
        ("Qwen/Qwen3-30B-A3B --enable-lora --moe-backend flashinfer-moe-ep-cutedsl", "0.31.0",
         ["VL005"]),
        ("Qwen/Qwen3-30B-A3B --moe-backend flashinfer-moe-ep-cutedsl", "0.32.0", []),
        ("Qwen/Qwen3-30B-A3B --moe-backend FLASHINFER-CUTLASS", "0.28.0", []),
        ("Qwen/Qwen3-30B-A3B --moe-backend=Triton", "0.33.0", []),
        ("Qwen/Qwen3-30B-A3B --moe-backend gpu", "0.17.1", ["VL005"]),
        # the same lambda on --linear-backend (0.22+)
        ("Qwen/Qwen3-8B --linear-backend no-such-kernel", "0.33.0", ["VL005"]),
    ],
)  # fmt: skip
def test_moe_backend_choices_after_its_type(argv: str, release: str, expected: list[str]) -> None:
    assert rules_of(argv, release) == expected


def test_moe_backend_message_names_the_value_vllm_read() -> None:
    argv = "Qwen/Qwen3-30B-A3B --moe-backend flashinfer-moe-ep-cutedsl"
    [finding] = check_command_line(argv, "0.31.0")
    assert "--moe-backend 'flashinfer_moe_ep_cutedsl' is not one of: aiter," in finding.message


def test_the_catalog_replays_only_str_method_lambdas() -> None:
    cat = catalog.catalog_for("0.33.0")
    assert cat.flags["--moe-backend"].normalize == (("lower",), ("replace", "-", "_"))
    # a lambda that is not a chain of str methods stays unjudged
    assert cat.flags["--device-ids"].type == "custom" and not cat.flags["--device-ids"].normalize


# -- --quantization: the names of QUANTIZATION_METHODS, checked when vLLM builds its config ------


@pytest.mark.parametrize(
    ("argv", "release", "expected"),
    [
        # tpu_int8 and deepspeedfp left QuantizationMethods (tpu_int8 in 0.14, deepspeedfp in
        # 0.22; vllm/model_executor/layers/quantization/__init__.py). vLLM: "Unknown
        # quantization method: tpu_int8. Must be one of [...]" (vllm/config/model.py:1282 in
        # 0.28, :1466 in 0.33, :1486 in 0.34; verdicts be1a073b0239, 23d306dbc4a9,
        # c22a5ae21b11, 61467b305941, ba40b6cde530), --allow-deprecated-quantization or not
        ("meta-llama/Llama-3.1-8B-Instruct --quantization tpu_int8", "0.28.0", ["VL005"]),
        ("meta-llama/Llama-3.1-8B-Instruct --quantization tpu_int8 --allow-deprecated-quantization",
         "0.33.0", ["VL005"]),
        ("meta-llama/Llama-3.1-8B-Instruct --quantization deepspeedfp", "0.34.0", ["VL005"]),
        ("meta-llama/Llama-3.1-8B-Instruct -q deepspeedfp --allow-deprecated-quantization",
         "0.31.0", ["VL005"]),
        # ModelConfig.validate_quantization_before lower-cases the name (0.9+; oracle 0.28.0
        # and 0.33.0 accept FP8)
        ("meta-llama/Llama-3.1-8B-Instruct --quantization FP8", "0.33.0", []),
        ("meta-llama/Llama-3.1-8B-Instruct --quantization FP8", "0.28.0", []),
        ("meta-llama/Llama-3.1-8B-Instruct --quantization None", "0.33.0", []),
        # 0.8.5 took the value with argparse choices=[*QUANTIZATION_METHODS, None], any case
        ("meta-llama/Llama-3.1-8B-Instruct --quantization FP8", "0.8.5", ["VL005"]),
        ("meta-llama/Llama-3.1-8B-Instruct --quantization tpu_int8", "0.8.5", []),
        # still a method in 0.14 (deprecated there: VL321 judges it)
        ("meta-llama/Llama-3.1-8B-Instruct --quantization deepspeedfp", "0.14.1", ["VL321"]),
    ],
)  # fmt: skip
def test_quantization_method_names(argv: str, release: str, expected: list[str]) -> None:
    assert rules_of(argv, release) == expected


def test_quantization_message_lists_the_methods_of_the_release() -> None:
    [finding] = check_command_line("m --quantization tpu_int8", "0.34.0")
    assert finding.message.startswith(
        "--quantization 'tpu_int8' is not one of: awq, auto_awq, fp8,"
    )
    assert "w4afp8" in finding.message  # new in 0.34
    assert "w4afp8" not in check_command_line("m -q tpu_int8", "0.33.0")[0].message


def test_quantization_catalog_records_the_registry() -> None:
    spec = catalog.catalog_for("0.33.0").flags["--quantization"]
    assert spec.config_choices is not None and spec.config_choices_lower
    assert "fp8" in spec.config_choices and "tpu_int8" not in spec.config_choices
    old = catalog.catalog_for("0.8.5").flags["--quantization"]
    assert old.config_choices is not None and "tpu_int8" in old.config_choices
    assert not old.config_choices_lower


# -- values inside JSON flags against the Literal type of their config field --------------------

_FLY = (
    'meta-llama/Llama-3.1-8B-Instruct --speculative-config \'{"method": "ngram", '
    '"prompt_lookup_max": 4, "num_speculative_tokens": 4, "rejection_sample_method": "fly"}\''
)
_FLY_DOTTED = (
    "meta-llama/Llama-3.1-8B-Instruct --speculative-config.method ngram "
    "--speculative-config.num_speculative_tokens 3 --speculative-config.rejection_sample_method"
)


@pytest.mark.parametrize(
    ("argv", "release", "expected"),
    [
        # SpeculativeConfig.rejection_sample_method: Literal["standard", "synthetic", "block"]
        # in 0.25-0.32, "fly" from 0.33 (vllm/config/speculative.py:80 in 0.28, :83 in 0.33).
        # vLLM 0.28-0.31: "rejection_sample_method: Input should be 'standard', 'synthetic'
        # or 'block'" (pydantic, raised from vllm/engine/arg_utils.py:1869 in 0.28, :2062 in
        # 0.31; verdicts 9fb8abc9cf12, 25bfe8d28d4e, 99dc1291f948; oracle 0.31.0 for the
        # dotted form)
        (_FLY, "0.28.0", ["VL005"]),
        (_FLY, "0.31.0", ["VL005"]),
        (_FLY, "0.33.0", []),
        (f"{_FLY_DOTTED} fly", "0.31.0", ["VL005"]),
        (f"{_FLY_DOTTED} standard", "0.31.0", []),
        (f"{_FLY_DOTTED} Standard", "0.31.0", ["VL005"]),
        # Literal[2, 3, 4] | None: an int is judged, JSON null is allowed
        ("m --attention-config '{\"flash_attn_version\": 5}'", "0.33.0", ["VL005"]),
        ("m --attention-config '{\"flash_attn_version\": null}'", "0.33.0", []),
        ("m --attention-config.flash_attn_version 3", "0.33.0", []),
    ],
)  # fmt: skip
def test_json_values_against_their_literal(argv: str, release: str, expected: list[str]) -> None:
    assert rules_of(argv, release) == expected


def test_json_literal_message_names_the_dotted_key() -> None:
    [finding] = check_command_line(_FLY, "0.30.0")
    assert finding.message == (
        "--speculative-config.rejection_sample_method 'fly' is not one of: "
        "standard, synthetic, block"
    )


def test_json_literals_skip_fields_a_before_validator_rewrites() -> None:
    spec = catalog.catalog_for("0.33.0").flags["--compilation-config"]
    # CompilationConfig.mode / cudagraph_mode have mode="before" validators (0.33)
    assert "cudagraph_mode" not in spec.json_literals and "mode" not in spec.json_literals
    assert spec.json_literals["compile_cache_save_format"] == ("binary", "unpacked")


# -- a --spec-* shortcut and --speculative-config setting the same key --------------------------

_SC = "meta-llama/Llama-3.1-8B-Instruct --speculative-config"


@pytest.mark.parametrize(
    ("argv", "release", "expected"),
    [
        # EngineArgs.create_speculative_config: "--spec-method and
        # --speculative-config['method'] are mutually exclusive" (vllm/engine/arg_utils.py:1848
        # in 0.28, :2041 in 0.31, :2118 in 0.33; oracle 0.31.0, verdict bbb5dbebbbd4)
        (f"{_SC} '{{\"method\": \"ngram\", \"num_speculative_tokens\": 3}}' --spec-method ngram",
         "0.31.0", ["VL013"]),
        (f"{_SC}.num_speculative_tokens 3 --spec-method ngram --spec-tokens 3", "0.31.0",
         ["VL013"]),
        # the shortcut first, the JSON after: the same refusal
        ("meta-llama/Llama-3.1-8B-Instruct --spec-tokens 3 --speculative-config "
         "'{\"method\": \"ngram\", \"num_speculative_tokens\": 3}'", "0.33.0", ["VL013"]),
        # different keys merge (oracle 0.31.0: accepted)
        (f"{_SC} '{{\"num_speculative_tokens\": 3}}' --spec-method ngram", "0.31.0", []),
        ("meta-llama/Llama-3.1-8B-Instruct --spec-method ngram --spec-tokens 3", "0.33.0", []),
    ],
)  # fmt: skip
def test_spec_shortcut_and_json_key(argv: str, release: str, expected: list[str]) -> None:
    assert rules_of(argv, release) == expected


def test_spec_shortcut_conflict_across_the_config_file(tmp_path: Path) -> None:
    """vLLM puts a --config file's flags into the argv: the conflict is the same."""
    (tmp_path / "vllm.yaml").write_text(
        'speculative-config: {"method": "ngram", "num_speculative_tokens": 3}\n', "utf-8"
    )
    (tmp_path / "run.sh").write_text(
        "#!/bin/sh\nvllm serve m --config vllm.yaml --spec-method ngram\n", "utf-8"
    )
    run = run_cli("--vllm-version", "0.33.0", "--format", "json", "run.sh", cwd=tmp_path)
    assert [f["rule"] for f in run.findings()] == ["VL013"], run.out
