"""schemas/validation/ and schemas/envs/: the shipped data against facts read in vLLM's source.

No network and no vLLM: the files are checked against their schemas, against the flag
catalogs, and against facts verified by hand in the wheels (file:line of that release).
Regenerating them needs the wheels: `python -m tools.mine_validation --check` and
`python -m tools.mine_envs --check` (see tools/README.md).

Asked of vLLM 0.33.0 itself (its own validators, Qwen/Qwen3-8B; docs/conformance.md), as the data says:
`--max-loras 0` accepted, with `--enable-lora` "max_loras: Input should be greater than or
equal to 1" (arg_utils.py:2692); `--gpu-memory-utilization 1.5` "less than or equal to 1";
`--data-parallel-rpc-port 70000` "less than or equal to 65535"; `-sc` with
`num-speculative-tokens` accepted, with `num_speculative_tokens: 0` "greater than 0";
`-cc '{"mode":"vllm_compile"}'` accepted, `"bogus"` refused (compilation.py:865);
`kv_role: "kv_bogus"` "Input should be 'kv_producer', 'kv_both' or 'kv_consumer'";
`--attention-config '{"backend":"auto"}'` accepted; `--watermark-config '{"alpha":0.5}'` "key:
Field required"; `--seed -1` accepted (no bound before 0.34); an unknown VLLM_* variable
accepted, refused with --fail-on-environ-validation (platforms/interface.py:1465);
VLLM_WORKER_MULTIPROC_METHOD=bogus accepted (env choices are checked when read, not at start).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conftest import REPO
from vllm_lint import release_data

VALIDATION = REPO / "schemas" / "validation"
ENVS = REPO / "schemas" / "envs"
FLAGS = REPO / "schemas" / "flags"


@cache
def validation(release: str) -> dict[str, Any]:
    """The whole document (most files are differences: hooks/vllm_lint/release_data.py)."""
    data = release_data.load_in(VALIDATION, release)
    assert data is not None, release
    return data


@cache
def envs(release: str) -> dict[str, Any]:
    data = release_data.load_in(ENVS, release)
    assert data is not None, release
    return data


def field(release: str, cls: str, name: str) -> dict[str, Any]:
    return validation(release)["classes"][cls]["fields"][name]


def flags_index() -> list[str]:
    index = json.loads((FLAGS / "index.json").read_text(encoding="utf-8"))
    return [r["release"] for r in index["releases"]]


@cache
def catalog(release: str) -> dict[str, dict[str, Any]]:
    """The flag records of a release, replaying the catalog deltas (read here rather than
    through vllm_lint, whose package is being restructured)."""
    index = json.loads((FLAGS / "index.json").read_text(encoding="utf-8"))
    flags: dict[str, dict[str, Any]] = {}
    for entry in reversed(index["releases"]):  # the newest is the base, older ones deltas
        data = json.loads((FLAGS / entry["file"]).read_text(encoding="utf-8"))
        if "flags" in data:
            flags = dict(data["flags"])
        else:
            for name in data["removed"]:
                flags.pop(name, None)
            flags.update(data["added"])
            flags.update(data["changed"])
        if entry["release"] == release:
            return flags
    raise KeyError(release)


# -- every file -------------------------------------------------------------------------------


def test_one_file_per_catalogued_release() -> None:
    """Validation for every catalogued release (before 0.9 nothing is validated by pydantic:
    those files are empty); environment variables from 0.4.2, the first release with
    vllm/envs.py (earlier releases read os.environ where they use it: not mined)."""
    releases = flags_index()
    assert len(releases) == 92
    assert sorted(p.stem for p in VALIDATION.glob("*.json")) == sorted(releases)
    with_envs = releases[releases.index("0.4.2") :]
    assert sorted(p.stem for p in ENVS.glob("*.json")) == sorted(with_envs)


@pytest.mark.parametrize(
    ("schema", "folder"),
    [("validation.schema.json", VALIDATION), ("envs.schema.json", ENVS)],
)
def test_every_file_validates_against_its_schema(schema: str, folder: Any) -> None:
    spec = json.loads((REPO / "schemas" / schema).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(spec)
    validator = Draft202012Validator(spec)
    for path in sorted(folder.glob("*.json")):
        data = release_data.load_in(folder, path.stem)  # a difference: the document it stands for
        assert data is not None
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]
        assert not errors, f"{path.name}: {errors[:5]}"
        assert data["release"] == path.stem


@pytest.mark.parametrize("folder", [VALIDATION, ENVS])
def test_differences_chain_to_a_whole_file(folder: Any) -> None:
    """Each file is whole or a difference against the next newer release that has a file; the
    newest is whole, and a difference changes something (else it is the same document)."""
    releases = sorted((p.stem for p in folder.glob("*.json")), key=lambda r: flags_index().index(r))
    for older, newer in zip(releases, [*releases[1:], None], strict=True):
        raw = json.loads((folder / f"{older}.json").read_text(encoding="utf-8"))
        if newer is None:
            assert "next" not in raw
        if "next" in raw:
            assert raw["next"] == newer and set(raw) == {"release", "next", "set", "unset"}


@pytest.mark.parametrize("release", flags_index())
def test_references_resolve(release: str) -> None:
    """Every class and enum a record names is described, and every mapped flag is a flag of
    that release whose catalog entry comes from the same config class."""
    data = validation(release)
    classes, enums = data["classes"], data["enums"]
    flags = catalog(release)
    for flag, target in data["flags"].items():
        cls, _, name = target.rpartition(".")
        assert name in classes[cls]["fields"], (flag, target)
        assert flag in flags, flag
        config_field = flags[flag].get("config_field")
        if config_field:
            assert config_field.split(".")[-1] == name or config_field == target, flag
    for flag, entry in data["json_flags"].items():
        assert entry["class"] in classes, flag
        assert flag in flags, flag
    for cls in classes.values():
        for rec in cls["fields"].values():
            if "class" in rec:
                assert rec["class"] in classes
            for key in ("enum", "enum_by_name"):
                if key in rec:
                    assert rec[key] in enums


def test_files_are_compact() -> None:
    """Loaded on the linter's cold path: small, one line per flag, class and enum."""
    for path in VALIDATION.glob("*.json"):
        assert path.stat().st_size < 120_000, path.name
        assert "\n " not in path.read_text(encoding="utf-8"), path.name


# -- field constraints, read by hand in the wheels ---------------------------------------------


@pytest.mark.parametrize(
    ("release", "cls", "name", "expected"),
    [
        # vllm/config/cache.py:215 (0.33.0): Field(default=0.92, gt=0, le=1)
        ("0.33.0", "CacheConfig", "gpu_memory_utilization", {"gt": 0, "le": 1, "default": 0.92}),
        # vllm/config/cache.py:69 (0.28.0), same bounds
        ("0.28.0", "CacheConfig", "gpu_memory_utilization", {"gt": 0, "le": 1, "default": 0.92}),
        # vllm/config/cache.py:216 (0.34.0): float | None = Field(default=None, gt=0, le=1)
        (
            "0.34.0",
            "CacheConfig",
            "gpu_memory_utilization",
            {"gt": 0, "le": 1, "default": None, "null": True},
        ),
        # vllm/config/speculative.py:413 (0.33.0): int = Field(default=None, gt=0), no
        # validator lets None through: an explicit null is refused
        ("0.33.0", "SpeculativeConfig", "num_speculative_tokens", {"gt": 0, "type": "int"}),
        ("0.28.0", "SpeculativeConfig", "num_speculative_tokens", {"gt": 0, "type": "int"}),
        # vllm/config/parallel.py:161 (0.33.0): Field(default=29550, ge=1, le=65535)
        (
            "0.33.0",
            "ParallelConfig",
            "data_parallel_rpc_port",
            {"ge": 1, "le": 65535, "default": 29550},
        ),
        # vllm/config/scheduler.py:196 (0.33.0): Field(default=0.0, ge=0.0, lt=1.0)
        ("0.33.0", "SchedulerConfig", "watermark", {"ge": 0, "lt": 1}),
        # vllm/config/scheduler.py:48/:41 (0.33.0): default=DEFAULT_MAX_NUM_BATCHED_TOKENS,
        # a ClassVar of 2048
        ("0.33.0", "SchedulerConfig", "max_num_batched_tokens", {"ge": 1, "default": 2048}),
        # vllm/config/model.py:249 + the wrap validator at :1042 that lets None through
        ("0.33.0", "ModelConfig", "max_model_len", {"ge": -1, "null": True}),
        # vllm/config/attention.py:64 (0.33.0): Field(default=1, ge=1, le=256)
        ("0.33.0", "AttentionConfig", "tokenspeed_mla_min_split_kv", {"ge": 1, "le": 256}),
        # vllm/config/watermarking.py:30 (0.33.0): key: int = Field(ge=0, ...), no default
        ("0.33.0", "WatermarkConfig", "key", {"ge": 0, "required": True}),
        # vllm/config/lora.py:37 (0.28.0): Field(default=1, ge=1) (VL289 cites it)
        ("0.28.0", "LoRAConfig", "max_loras", {"ge": 1, "default": 1}),
        # vllm/config/parallel.py:91 (0.34.0): Field(default=1, gt=0) (VL246 cites it)
        ("0.34.0", "EPLBConfig", "log_balancedness_interval", {"gt": 0, "default": 1}),
        # vllm/config/offload.py:66 (0.34.0): Field(default=1, ge=0)
        ("0.34.0", "PrefetchOffloadConfig", "offload_prefetch_step", {"ge": 0, "default": 1}),
    ],
)
def test_field_constraints(release: str, cls: str, name: str, expected: dict[str, Any]) -> None:
    rec = field(release, cls, name)
    for key, value in expected.items():
        assert rec.get(key) == value, (key, rec)
    if "null" not in expected:
        assert "null" not in rec


def test_no_bounds_before_0_11() -> None:
    """Field bounds appear in 0.11 (0.10.2 has none in vllm/config)."""
    for release in ("0.8.5.post1", "0.9.2", "0.10.2"):
        for cls in validation(release)["classes"].values():
            for rec in cls["fields"].values():
                assert not {"gt", "ge", "lt", "le"} & set(rec), release
    assert field("0.11.2", "CacheConfig", "gpu_memory_utilization")["le"] == 1


def test_block_size_null_passes_the_wrap_validator() -> None:
    """vllm/config/cache.py:187 `block_size: int = Field(default=None, gt=0)` and the wrap
    validator at :448 (`if value is None: return value; return handler(value)`)."""
    rec = field("0.33.0", "CacheConfig", "block_size")
    assert rec["gt"] == 0 and rec["null"] is True and "rewritten" not in rec


@pytest.mark.parametrize(
    ("release", "cls", "name", "values"),
    [
        # vllm/config/speculative.py:219 (0.28.0): RejectionSampleMethod
        (
            "0.28.0",
            "SpeculativeConfig",
            "rejection_sample_method",
            ["standard", "synthetic", "block"],
        ),
        (
            "0.33.0",
            "SpeculativeConfig",
            "rejection_sample_method",
            ["standard", "synthetic", "block", "fly"],
        ),
        # vllm/config/kv_transfer.py:71 (0.33.0): KVRole | None
        ("0.33.0", "KVTransferConfig", "kv_role", ["kv_producer", "kv_both", "kv_consumer"]),
        # vllm/config/offload.py:83 (0.34.0): OffloadBackend
        ("0.34.0", "OffloadConfig", "offload_backend", ["auto", "uva", "prefetch"]),
        # vllm/config/kv_events.py:19 (0.34.0): Literal["null", "zmq"] = None
        ("0.34.0", "KVEventsConfig", "publisher", ["null", "zmq"]),
    ],
)
def test_literals(release: str, cls: str, name: str, values: list[str]) -> None:
    rec = field(release, cls, name)
    assert rec["type"] == "literal" and rec["values"] == values


def test_before_validators() -> None:
    # vllm/config/mamba.py (0.28.0): `if isinstance(value, str): return
    # MambaBackendEnum[value.upper()]`: member names in any case
    backend = field("0.28.0", "MambaConfig", "backend")
    assert backend["match"] == "name_upper" and backend["enum"] == "MambaBackendEnum"
    names = validation("0.28.0")["enums"]["MambaBackendEnum"]["names"]
    assert {"TRITON", "FLASHINFER"} <= set(names)
    # vllm/config/attention.py:218 (0.33.0): "auto" is None, then the enum name
    assert field("0.33.0", "AttentionConfig", "backend")["extra_words"] == {"auto": None}
    # vllm/config/kernel.py (0.28.0): value.lower().replace("-", "_") before the Literal
    moe = field("0.28.0", "KernelConfig", "moe_backend")
    assert moe["normalize"] == [["lower"], ["replace", "-", "_"]] and moe["type"] == "literal"
    # vllm/config/compilation.py:881 (0.33.0): PassConfig(**value) for a dict
    assert field("0.33.0", "CompilationConfig", "pass_config")["via"] == "constructor"
    # vllm/config/attention.py:242 (0.33.0): backend_per_kind parsed by hand: not judged
    assert "rewritten" in field("0.33.0", "AttentionConfig", "backend_per_kind")
    # vllm/config/pooler.py:120 (0.28.0): a before model validator
    assert validation("0.28.0")["classes"]["PoolerConfig"]["model_before"].startswith(
        "vllm/config/pooler.py:"
    )


def test_skip_validation() -> None:
    """vllm/config.py (0.9.2): `max_model_len: SkipValidation[int] = None`."""
    assert field("0.9.2", "ModelConfig", "max_model_len")["skip"] == "SkipValidation"
    # vllm/config/speculative.py (0.33.0): target_model_config: SkipValidation[ModelConfig]
    assert field("0.33.0", "SpeculativeConfig", "target_model_config")["skip"] == "SkipValidation"


# -- which flags reach pydantic ----------------------------------------------------------------


def test_flags_reaching_a_validating_constructor() -> None:
    flags = validation("0.33.0")["flags"]
    # vllm/engine/arg_utils.py:2307-2309 (0.33.0): CacheConfig(block_size=self.block_size,
    # gpu_memory_utilization=self.gpu_memory_utilization, ...)
    assert flags["--gpu-memory-utilization"] == "CacheConfig.gpu_memory_utilization"
    assert flags["--block-size"] == "CacheConfig.block_size"
    # :2559-2584: `self.data_parallel_rpc_port if (... is not None) else default`
    assert flags["--data-parallel-rpc-port"] == "ParallelConfig.data_parallel_rpc_port"
    # :2311 cache_dtype=resolved_cache_dtype (transformed first) and :2800
    # kernel_config.moe_backend = self.moe_backend (assigned: no validation)
    assert "--kv-cache-dtype" not in flags and "--moe-backend" not in flags
    # FrontendArgs is never built from the parsed arguments
    assert "--port" not in flags


def test_lora_flags_only_with_enable_lora() -> None:
    """vllm/engine/arg_utils.py:2692 (0.33.0): `if self.enable_lora: lora_config =
    LoRAConfig(max_loras=self.max_loras, ...)`; LoRAConfig.max_loras has ge=1 (lora.py:36)."""
    data = validation("0.33.0")
    assert data["flags"]["--max-loras"] == "LoRAConfig.max_loras"
    assert data["conditional"]["--max-loras"] == "--enable-lora"
    assert field("0.33.0", "LoRAConfig", "max_loras")["ge"] == 1
    assert "--gpu-memory-utilization" not in data["conditional"]


def test_no_flag_validated_in_0_8_5() -> None:
    """0.8.5: ModelConfig is a plain class and CacheConfig & co. stdlib dataclasses
    (vllm/config.py:203, :1295-1297): building them validates nothing."""
    data = validation("0.8.5.post1")
    assert data["flags"] == {}
    assert validation("0.9.2")["flags"]["--gpu-memory-utilization"] == (
        "CacheConfig.gpu_memory_utilization"
    )


# -- JSON flags --------------------------------------------------------------------------------


def test_json_roots() -> None:
    j = validation("0.33.0")["json_flags"]
    assert j["--compilation-config"]["via"] == "type_adapter"
    assert j["--compilation-config"]["extra"] == "forbid"
    # json.loads, then SpeculativeConfig(**...) (vllm/engine/arg_utils.py:2139 in 0.33.0)
    assert j["--speculative-config"]["via"] == "constructor"
    assert j["--speculative-config"]["class"] == "SpeculativeConfig"
    # 0.8.5: SpeculativeConfig.from_dict -> cls(**dict) on a stdlib dataclass: no type is
    # checked, an unknown key is a TypeError
    old = validation("0.8.5.post1")["json_flags"]["--speculative-config"]
    assert old["validated"] is False and old["extra"] == "forbid"
    # 0.8.5: KVTransferConfig.from_cli -> model_validate_json on a BaseModel (extra ignored)
    kv = validation("0.8.5.post1")["json_flags"]["--kv-transfer-config"]
    assert kv["via"] == "model_validate" and kv["extra"] == "ignore"


def test_forbid_and_ignore() -> None:
    """@config forbids unknown keys from 0.16 (vllm/config/utils.py); before that only
    classes with an explicit ConfigDict(extra="forbid") do (CompilationConfig, 0.13.0
    vllm/config/compilation.py:293), the others drop them silently."""
    assert validation("0.33.0")["classes"]["CacheConfig"]["extra"] == "forbid"
    assert validation("0.15.1")["classes"]["KVTransferConfig"]["extra"] == "ignore"
    assert validation("0.15.1")["json_flags"]["--kv-transfer-config"]["extra"] == "ignore"
    assert validation("0.16.0")["json_flags"]["--kv-transfer-config"]["extra"] == "forbid"
    assert validation("0.13.0")["json_flags"]["--compilation-config"]["extra"] == "forbid"
    # a stdlib dataclass declares nothing: it takes its parent's setting
    assert validation("0.33.0")["classes"]["QuantKey"]["extra"] == "inherit"


def test_dash_keys_from_0_26() -> None:
    """create_speculative_config replaces '-' by '_' in the keys from 0.26.0
    (vllm/engine/arg_utils.py:1768 in 0.26.0); 0.25.1 does not."""
    assert "dash_keys" not in validation("0.25.1")["json_flags"]["--speculative-config"]
    for release in flags_index()[flags_index().index("0.26.0") :]:
        entry = validation(release)["json_flags"]["--speculative-config"]
        assert entry["dash_keys"].startswith("vllm/engine/arg_utils.py:"), release
    dashed = [
        (r, f)
        for r in flags_index()
        for f, e in validation(r)["json_flags"].items()
        if "dash_keys" in e
    ]
    assert {f for _, f in dashed} == {"--speculative-config"}


def test_json_flags_agree_with_the_catalogs() -> None:
    """Every JSON flag the catalog gives keys has a root here, with the same extra."""
    for release in flags_index():
        mined = validation(release)["json_flags"]
        for name, rec in catalog(release).items():
            if rec.get("json_keys"):
                assert name in mined, (release, name)
                if mined[name]["via"] == "opaque":  # 0.9.0, 0.9.0.1 --compilation-config:
                    continue  # `from_cli` builds it in a shape the miner does not read
                assert mined[name]["extra"] == rec["json_extra"], (release, name)


# -- environment variables ---------------------------------------------------------------------


def test_env_choices() -> None:
    v = envs("0.33.0")["variables"]
    # vllm/envs.py (0.33.0): env_with_choices("VLLM_WORKER_MULTIPROC_METHOD", "fork",
    # ["spawn", "fork"])
    method = v["VLLM_WORKER_MULTIPROC_METHOD"]
    assert method["kind"] == "choice" and method["choices"] == ["spawn", "fork"]
    assert method["case_sensitive"] is True and method["default"] == "fork"
    # env_with_choices(..., case_sensitive=False)
    precision = v["VLLM_FLOAT32_MATMUL_PRECISION"]
    assert precision["case_sensitive"] is False and precision["default"] == "highest"
    # os.getenv(...).strip().lower() in ("1", "true")
    lora = v["VLLM_ALLOW_RUNTIME_LORA_UPDATING"]
    assert lora["kind"] == "bool_words" and lora["words"] == ["1", "true"]
    assert lora["default"] is False
    # 0.14.1: the choices are the member names of AttentionBackendEnum
    backend = envs("0.14.1")["variables"]["VLLM_ATTENTION_BACKEND"]
    assert "FLASH_ATTN" in backend["choices"] and backend["choices_from"].startswith("vllm/")


def test_env_kinds() -> None:
    v = envs("0.33.0")["variables"]
    assert v["VLLM_LOGGING_LEVEL"] == {
        "kind": "str",
        "default": "INFO",
        "normalize": [["upper"]],
        "line": v["VLLM_LOGGING_LEVEL"]["line"],
    }
    assert v["VLLM_CACHE_ROOT"]["kind"] == "path"
    assert v["VLLM_PLUGINS"]["kind"] == "list" and v["VLLM_PLUGINS"]["sep"] == ","
    # 0.34.0 dropped VLLM_USE_V2_MODEL_RUNNER and VLLM_ATTENTION_BACKEND
    assert "VLLM_USE_V2_MODEL_RUNNER" in v
    assert "VLLM_USE_V2_MODEL_RUNNER" not in envs("0.34.0")["variables"]


def test_unknown_vllm_variables() -> None:
    """validate_environ: none before 0.17; vllm/envs.py:1704 in 0.17.1; moved to
    vllm/platforms/interface.py in 0.31; 0.34 refuses removed variables."""
    assert envs("0.16.0")["environ_check"] is None
    check = envs("0.17.1")["environ_check"]
    assert check["source"] == "vllm/envs.py:1704"
    assert check["flag"] == "--fail-on-environ-validation"
    assert check["unknown"] == "warning" and check["unknown_with_flag"] == "error"
    assert envs("0.31.0")["environ_check"]["source"].startswith("vllm/platforms/interface.py:")
    latest = envs("0.34.0")["environ_check"]
    assert "VLLM_MARLIN_INPUT_DTYPE" in latest["removed"]
    assert "removed" not in envs("0.33.0")["environ_check"]


def test_env_counts_grow() -> None:
    releases = flags_index()
    counts = [len(envs(r)["variables"]) for r in releases[releases.index("0.4.2") :]]
    assert counts[0] > 30 and counts[-1] > 300  # vllm/envs.py: 34 in 0.4.2, 333 in 0.34.0
