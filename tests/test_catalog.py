"""The committed `vllm serve` flag catalogs and their loader (vllm_lint.argv.catalog).

The catalogs are cross-checked against an independent static extraction of
0.33.0 and 0.34.0 made from each release's wheel (tests/data/reference/README.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vllm_lint.argv import catalog
from vllm_lint.argv.catalog import FlagSpec, catalog_for, known_releases
from vllm_lint.resources import schemas_dir

REFERENCE = Path(__file__).resolve().parent / "data" / "reference"

# Differences between our catalogs and the reference extraction on flag names,
# aliases, boolean-ness and negations: (release, flag, attribute) -> the vLLM
# source that explains which side is right.  There are none at the moment; a
# new difference makes test_reference_names_aliases_booleans fail until it is
# explained here.
KNOWN_NAME_DIFFERENCES: dict[tuple[str, str, str], str] = {}

# Differences on the value type / choices (the reference keeps some of them as
# source text or leaves them unresolved).  Ours follow the vLLM source:
_HUMAN_INT = (
    "vllm/engine/arg_utils.py:{line} `human_readable_int_args` in _compute_kwargs gives "
    "these int fields `type=human_readable_int` (1K, 2M, 1G ...); the reference says int"
)
_HUMAN_INT_LINES = {"0.33.0": 397, "0.34.0": 396}
_LIMIT_MM = (
    "vllm/config/multimodal.py:{cls_line} MultiModalDummyOptions subclasses dict and "
    "vllm/engine/arg_utils.py:{line} maps dict subclasses to dict, so the flag takes JSON "
    "(parse_type(json.loads)); the reference treats the class as an opaque str"
)
_LIMIT_MM_LINES = {"0.33.0": (243, 333), "0.34.0": (242, 331)}
_LOGGING = (
    "vllm/engine/arg_utils.py:{line} `get_kwargs(VllmConfig)['logging_config']`: the field "
    "is a LoggingConfig dataclass, so the type is JSON with LoggingConfig's keys; the "
    "reference left this flag unresolved (str)"
)
_LOGGING_LINES = {"0.33.0": 1653, "0.34.0": 1672}
_MM_DEVICE = (
    "vllm/engine/arg_utils.py:{line} choices=['auto', 'cpu'] + [current_platform.device_type]: "
    "only auto/cpu are known statically, so we list them as `suggested` with "
    "choices_dynamic; the reference keeps the expression as text"
)
_MM_DEVICE_LINES = {"0.33.0": 1568, "0.34.0": 1587}


def _known_type_differences(release: str) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for flag in (
        "--kv-cache-memory-bytes",
        "--max-num-batched-tokens",
        "--max-num-queued-tokens",
        "--max-num-scheduled-tokens",
        "--safetensors-prefetch-block-size",
    ):
        out[(flag, "type")] = _HUMAN_INT.format(line=_HUMAN_INT_LINES[release])
    cls_line, line = _LIMIT_MM_LINES[release]
    out[("--limit-mm-per-prompt", "type")] = _LIMIT_MM.format(cls_line=cls_line, line=line)
    out[("--logging-config", "type")] = _LOGGING.format(line=_LOGGING_LINES[release])
    out[("--mm-processor-device", "choices")] = _MM_DEVICE.format(line=_MM_DEVICE_LINES[release])
    return out


# reference type names -> ours (the reference writes custom callables as source text)
_REF_TYPES = {
    "human_readable_int": "human_int",
    "human_readable_int_or_auto": "int_or_auto",
    "optional_type(str)": "str",
}


def _reference(release: str) -> dict[str, dict[str, Any]]:
    path = REFERENCE / f"vllm-flags-{release}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {rec["flag"]: rec for rec in data["flags"]}


@pytest.mark.parametrize("release", ["0.33.0", "0.34.0"])
def test_reference_names_aliases_booleans(release: str) -> None:
    ref = _reference(release)
    cat = catalog_for(release)
    assert cat.release == release
    found: dict[tuple[str, str, str], str] = {}
    for flag in sorted(set(ref) | set(cat.flags)):
        if flag not in cat.flags:
            found[(release, flag, "missing")] = "only in the reference"
            continue
        if flag not in ref:
            found[(release, flag, "extra")] = "only in our catalog"
            continue
        r, ours = ref[flag], cat.flags[flag]
        if sorted(r.get("aliases") or []) != sorted(ours.aliases):
            found[(release, flag, "aliases")] = f"{r.get('aliases')} != {ours.aliases}"
        if bool(r.get("is_bool")) != ours.is_bool:
            found[(release, flag, "is_bool")] = f"{r.get('is_bool')} != {ours.is_bool}"
        ref_neg = sorted(n.replace(" (hidden)", "") for n in r.get("negations") or [])
        if ref_neg != sorted(ours.negations):
            found[(release, flag, "negations")] = f"{ref_neg} != {sorted(ours.negations)}"
    unexplained = {k: v for k, v in found.items() if k not in KNOWN_NAME_DIFFERENCES}
    assert not unexplained, unexplained
    stale = [k for k in KNOWN_NAME_DIFFERENCES if k[0] == release and k not in found]
    assert not stale, f"explained differences that no longer exist: {stale}"


@pytest.mark.parametrize("release", ["0.33.0", "0.34.0"])
def test_reference_types_and_choices(release: str) -> None:
    ref = _reference(release)
    cat = catalog_for(release)
    known = _known_type_differences(release)
    found: set[tuple[str, str]] = set()
    for flag, r in ref.items():
        ours = cat.flags[flag]
        ref_type = _REF_TYPES.get(r["type"], r["type"])
        if ref_type in {"int", "float", "str", "json", "bool", "human_int", "int_or_auto"} and (
            ref_type != ours.type
        ):
            found.add((flag, "type"))
        ref_choices = r.get("choices")
        if isinstance(ref_choices, str):  # an expression the reference could not evaluate
            found.add((flag, "choices"))
        elif ref_choices is not None:
            ref_set = {str(c) for c in ref_choices if c is not None}
            if ref_set != set(ours.choices or ()):
                found.add((flag, "choices"))
        elif ours.choices:
            found.add((flag, "choices"))
    unexplained = sorted(found - set(known))
    assert not unexplained, unexplained
    assert sorted(set(known) - found) == [], "explained differences that no longer exist"


def test_counts_match_the_reference_table() -> None:
    # vllm-flags.md section 2 (flags of the newest patch of each minor we read)
    expected = {
        "0.8.5.post1": 137,
        "0.10.2": 176,
        "0.20.2": 239,
        "0.25.1": 270,
        "0.26.0": 274,
        "0.27.1": 282,
        "0.28.0": 284,
        "0.29.0": 292,
        "0.30.0": 300,
        "0.31.0": 311,
        "0.32.0": 316,
        "0.33.0": 320,
        "0.34.0": 327,
    }
    assert {r: len(catalog_for(r).flags) for r in expected} == expected


def test_known_releases() -> None:
    """Every release on PyPI from 0.2.0 to 0.34.0, exact to the patch (`pip index versions
    vllm`: 92 of them; 0.21.0's wheel is a build-numbered `vllm-0.21.0-1-…`)."""
    rels = known_releases()
    assert rels[0] == "0.2.0"
    assert rels[-1] == "0.34.0"
    assert len(rels) == 92
    assert {"0.2.1.post1", "0.6.1.post2", "0.8.5", "0.8.5.post1", "0.10.1.1"} <= set(rels)
    minors = sorted({tuple(map(int, r.split(".")[:2])) for r in rels})
    assert minors == [(0, m) for m in range(2, 35)]


@pytest.mark.parametrize(
    ("written", "release"),
    [("0.33.1", "0.33.0"), ("0.33.0", "0.33.0"), ("0.8.5", "0.8.5"),
     ("0.8.5.post1", "0.8.5.post1"), ("0.8.5.post2", "0.8.5.post1"), ("0.8.0", "0.8.0"),
     ("0.27.0", "0.27.0"), ("0.10.1.1", "0.10.1.1"), ("0.6.1.post2", "0.6.1.post2"),
     ("0.2.1", "0.2.1.post1"), ("0.10.1.2", "0.10.1.1"), ("0.4.1.post1", "0.4.1"), ("v0.34.0", "0.34.0"), ("0.34.2.post1", "0.34.0")],
)  # fmt: skip
def test_every_patch_has_its_own_catalog(written: str, release: str) -> None:
    """A catalogued release is read as itself; a patch that is not catalogued (0.33.1, or
    0.2.1, which PyPI lists only as 0.2.1.post1) as a catalogued release of its patch, else
    the newest catalogued one of its series below it."""
    assert catalog_for(written).release == release


@pytest.mark.parametrize("written", ["0.1.7", "0.35.0", "1.0.0", "nonsense"])
def test_unknown_minor_raises_key_error(written: str) -> None:
    with pytest.raises(KeyError):
        catalog_for(written)


def test_resolve_underscores_aliases_and_values() -> None:
    cat = catalog_for("0.33.0")
    spec, negated = cat.resolve("--max_model_len") or (None, None)
    assert spec is not None and spec.name == "--max-model-len" and negated is None
    assert spec.type == "int_or_auto"
    tp = cat.resolve("-tp")
    assert tp is not None and tp[0].name == "--tensor-parallel-size" and tp[1] is None
    gmu = cat.resolve("--device-memory-utilization")
    assert gmu is not None and gmu[0].name == "--gpu-memory-utilization"
    assert cat.resolve("--tensor_parallel_size") == cat.resolve("--tensor-parallel-size")
    assert cat.resolve("--no-such-flag") is None
    assert cat.resolve("--max-model") is None  # abbreviations are not resolved here
    assert cat.resolve("-TP") is None


def test_resolve_booleans_and_negations() -> None:
    new, old = catalog_for("0.33.0"), catalog_for("0.32.0")
    assert new.resolve("--enable-prefix-caching") == (new.flags["--enable-prefix-caching"], False)
    assert new.resolve("--no-enable-prefix-caching") == (new.flags["--enable-prefix-caching"], True)
    assert new.resolve("--disable-prefix-caching") == (new.flags["--enable-prefix-caching"], True)
    assert new.resolve("--disable_prefix_caching") == (new.flags["--enable-prefix-caching"], True)
    assert old.resolve("--no-enable-prefix-caching") == (old.flags["--enable-prefix-caching"], True)
    assert old.resolve("--disable-prefix-caching") is None  # EnableDisableAction came in 0.33
    assert set(new.flags["--enable-prefix-caching"].negations) == {
        "--no-enable-prefix-caching",
        "--disable-prefix-caching",
    }
    # --disable-x gets --enable-x as its negation too
    assert new.resolve("--enable-sliding-window") == (new.flags["--disable-sliding-window"], True)
    # store_true flags have no negation
    headless = new.flags["--headless"]
    assert headless.is_bool and headless.negations == ()
    assert new.resolve("--no-headless") is None


def test_abbreviation() -> None:
    cat = catalog_for("0.33.0")
    spec = cat.abbreviation("--max-model")
    assert spec is not None and spec.name == "--max-model-len"
    assert cat.abbreviation("--max_model") == spec
    assert cat.abbreviation("--max-num") is None  # ambiguous
    assert cat.abbreviation("--max-model-len") is None  # exact, not an abbreviation
    assert cat.abbreviation("--zzz") is None


@pytest.mark.parametrize(
    ("flag", "first", "last"),
    [
        ("--use-v2-block-manager", "0.4.0", "0.9.2"),
        ("--device", "0.3.1", "0.9.2"),
        ("--num-scheduler-steps", "0.5.5", "0.10.0"),
        ("--enable-prompt-adapter", "0.5.2", "0.10.1.1"),
        ("--tokenizer-pool-size", "0.4.0", "0.9.2"),
        ("--enable-reasoning", "0.7.1", "0.9.2"),
        ("--rope-scaling", "0.4.3", "0.11.0"),
        ("--max-seq-len-to-capture", "0.4.3", "0.10.2"),
        ("--guided-decoding-backend", "0.4.1", "0.11.2"),
        ("--override-pooler-config", "0.6.4", "0.11.2"),
        ("--task", "0.6.4", "0.12.0"),
        ("--cuda-graph-sizes", "0.9.0", "0.12.0"),
        ("--swap-space", "0.2.0", "0.17.1"),
        ("--max-num-partial-prefills", "0.7.3", "0.26.0"),
        ("--calculate-kv-scales", "0.7.0", "0.27.1"),
        ("--override-attention-dtype", "0.9.2", "0.27.1"),
        ("--enable-bf16x3-router-gemm", "0.26.0", "0.29.0"),
        ("--enable-mamba-fine-grained-prefix-cache", "0.30.0", "0.30.0"),
        ("--use-replayssm", "0.27.0", "0.34.0"),
        ("--replayssm-buffer-len", "0.27.0", "0.34.0"),
        ("--spec-method", "0.22.0", "0.34.0"),
        ("--optimization-level", "0.12.0", "0.34.0"),
        ("--mamba-cache-mode", "0.15.0", "0.34.0"),
    ],
)
def test_flag_lifetimes(flag: str, first: str, last: str) -> None:
    """The first and last release (exact to the patch) that has the flag, read from the
    wheels: patch releases add and drop flags too (--num-scheduler-steps is in 0.10.0)."""
    present = [r for r in known_releases() if flag in catalog_for(r).flags]
    assert (present[0], present[-1]) == (first, last)
    # contiguous: no gap between first and last
    releases = list(known_releases())
    assert present == releases[releases.index(first) : releases.index(last) + 1]


def test_removed_flags_examples() -> None:
    assert catalog_for("0.8.5").resolve("--use-v2-block-manager") is not None
    assert catalog_for("0.10.2").resolve("--use-v2-block-manager") is None
    assert catalog_for("0.26.0").resolve("--use-replayssm") is None
    replay = catalog_for("0.27.0").resolve("--use-replayssm")
    assert replay is not None and replay[0].config_field == "CacheConfig.use_replayssm"
    assert catalog_for("0.8.5").resolve("--speculative-model") is None


def test_deprecations() -> None:
    cat = catalog_for("0.33.0")
    deprecated = sorted(name for name, spec in cat.flags.items() if spec.deprecated)
    assert deprecated == ["--disable-cascade-attn", "--log-config-file", "--mamba-cache-mode"]
    assert "pylogging_config_file" in (cat.flags["--log-config-file"].deprecated or "")


def test_records() -> None:
    cat = catalog_for("0.33.0")
    sc = cat.flags["--speculative-config"]
    assert sc.aliases == ("-sc",) and sc.type == "json"
    assert sc.json_keys is not None and "num_speculative_tokens" in sc.json_keys
    assert sc.config_field == "VllmConfig.speculative_config"
    mw = cat.flags["--middleware"]
    assert mw.action == "append" and mw.nargs is None
    assert cat.flags["--api-key"].nargs == "+"
    assert cat.flags["--mm-processor-cache-type"].choices == ("lru", "shm")
    kv = cat.flags["--kv-cache-dtype"]
    assert kv.choices is None and kv.suggested is not None and "fp8" in kv.suggested
    assert cat.flags["--uvicorn-log-level"].default == "info"
    assert cat.flags["--optimization-level"].enum_values == (0, 1, 2, 3)
    # 0.8.5: -O is the short alias of --compilation-config
    assert catalog_for("0.8.5").resolve("-O") is not None
    assert catalog_for("0.33.0").features["O_shorthand"] == "--optimization-level"


def test_parser_features_by_release() -> None:
    def feat(release: str, key: str) -> object:
        return catalog_for(release).features[key]

    assert feat("0.8.5", "dotted_json_keys") is False
    assert feat("0.10.2", "dotted_json_keys") is True
    assert feat("0.32.0", "enable_disable_pairing") is False
    assert feat("0.33.0", "enable_disable_pairing") is True
    assert feat("0.15.1", "config_yaml_nested_dicts") is False
    assert feat("0.20.2", "config_yaml_nested_dicts") is True
    assert feat("0.21.0", "spec_shortcuts") is False
    assert feat("0.25.1", "spec_shortcuts") is True
    assert feat("0.8.5", "O_shorthand") == "-O"
    assert feat("0.10.2", "O_shorthand") == "--compilation-config.level"
    # FlexibleArgumentParser (vllm/utils.py, 0.5.1+) turns `--max_model_len` into
    # `--max-model-len`; before it the OpenAI server used argparse.ArgumentParser as it is
    plain = [r for r in known_releases() if not feat(r, "underscore_to_dash")]
    assert plain == list(known_releases()[: known_releases().index("0.5.1")])


def test_catalog_files_are_a_consistent_chain() -> None:
    flags_dir = schemas_dir() / "flags"
    index = json.loads((flags_dir / "index.json").read_text(encoding="utf-8"))
    entries = index["releases"]
    # the newest release and a few keyframes are whole; every other release is a delta
    # against the next newer one, so that no release needs more than a few files
    assert entries[-1]["kind"] == "base" and index["base"] == entries[-1]["release"]
    whole = [e["release"] for e in entries if e["kind"] == "base"]
    assert "0.8.5.post1" in whole and len(whole) < len(entries) // 5
    following = None
    for entry in reversed(entries):
        text = (flags_dir / entry["file"]).read_text(encoding="utf-8")
        data = json.loads(text)
        assert data["release"] == entry["release"]
        assert ("flags" in data) == (entry["kind"] == "base")
        if entry["kind"] == "delta":
            assert data["next"] == following
        # stored sorted and stable
        assert text == json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        assert len(catalog_for(entry["release"]).flags) == entry["flag_count"]
        following = entry["release"]


def test_loader_is_cached() -> None:
    assert catalog_for("0.33.0") is catalog_for("0.33.1")
    assert catalog.known_releases() == known_releases()


def test_prefix_matches_count_option_strings_like_argparse() -> None:
    cat = catalog_for("0.33.0")
    # 0.33.0 oracle: "ambiguous option: --max-num could match --max-num-batched-tokens, ..."
    assert cat.prefix_matches("--max-num") == [
        "--max-num-active-seqs",
        "--max-num-batched-tokens",
        "--max-num-queued-reqs",
        "--max-num-queued-tokens",
        "--max-num-scheduled-tokens",
        "--max-num-seqs",
    ]
    assert cat.prefix_matches("--tensor_parallel") == ["--tensor-parallel-size"]
    assert cat.prefix_matches("--tensor-parallel-size") == []  # exact
    assert cat.prefix_matches("--hel") == ["--help"]  # argparse's own -h/--help
    assert cat.abbreviation("--hel") is None
    assert "--help" in cat.prefix_matches("--h") and len(cat.prefix_matches("--h")) > 1


def test_enum_flags_record_how_vllm_looks_them_up() -> None:
    def spec(release: str, flag: str) -> FlagSpec:
        return catalog_for(release).flags[flag]

    # vllm/engine/arg_utils.py (0.33: line 2773) MambaBackendEnum[self.mamba_backend.upper()]
    mamba = spec("0.33.0", "--mamba-backend")
    assert (mamba.enum_match, mamba.enum_names) == ("name_upper", ("TRITON", "FLASHINFER", "CPU"))
    # vllm/config/attention.py validate_backend_before: `auto` -> None from 0.18
    assert spec("0.33.0", "--attention-backend").enum_extra == ("auto",)
    assert spec("0.17.1", "--attention-backend").enum_extra == ()
    assert spec("0.13.0", "--attention-backend").enum_match == "name_upper"
    # an IntEnum field of VllmConfig: pydantic takes "0".."3" (0.33.0 oracle)
    assert spec("0.33.0", "--optimization-level").enum_match == "value"
    # validated only when a multimodal model creates MultiModalConfig
    assert spec("0.33.0", "--mm-encoder-attn-backend").enum_match is None


def test_json_flags_record_whether_unknown_keys_are_refused() -> None:
    def extra(release: str, flag: str) -> str | None:
        return catalog_for(release).flags[flag].json_extra

    # pydantic dataclasses ignore unknown keys by default; vLLM's @config decorator
    # forbids them from 0.16.0 (vllm/config/utils.py:55 merged_config = ConfigDict(extra=...))
    assert extra("0.15.1", "--speculative-config") == "ignore"
    assert extra("0.16.0", "--speculative-config") == "forbid"
    # vllm/config/compilation.py:99 (0.13.0) @dataclass(config=ConfigDict(extra="forbid"))
    assert extra("0.12.0", "--compilation-config") == "ignore"
    assert extra("0.13.0", "--compilation-config") == "forbid"
    for release in ("0.16.0", "0.33.0", "0.34.0"):
        cat = catalog_for(release)
        assert {s.json_extra for s in cat.flags.values() if s.json_keys} == {"forbid"}, release
