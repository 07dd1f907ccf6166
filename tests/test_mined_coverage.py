"""The miners' own logic on small synthetic sources, and the shipped coverage data.

No network, no wheel: tools/mine_validation.py, tools/mine_envs.py and tools/mine_raises.py are
run on modules written to a temporary folder laid out like vLLM's (`vllm/...`).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from tools import extract_flags as ef
from tools import mine_envs, mine_raises, mine_validation, new_release

from conftest import REPO

pytestmark = pytest.mark.tools  # tools/ extract_flags, mine_*, new_release

COVERAGE = REPO / "tools" / "coverage"


def tree_with(tmp_path: Path, files: dict[str, str]) -> ef.SourceTree:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return ef.SourceTree(tmp_path)


CONFIG = """
    from typing import Annotated, Any, Callable, Literal
    from pydantic import Field, PositiveInt, SkipValidation, field_validator, model_validator
    from pydantic.dataclasses import dataclass
    from dataclasses import field
    import enum

    class Backend(enum.Enum):
        TRITON = "triton"
        FLASHINFER = "flashinfer"

    @dataclass
    class Nested:
        depth: int = 1

    @dataclass
    class Demo:
        LIMIT = 64
        a: int = Field(default=None, gt=0)
        b: float = Field(default=0.5, ge=0, lt=1)
        c: Annotated[int, Field(le=8)] = 4
        d: PositiveInt = 3
        e: Literal["x", "y"] | None = None
        f: Backend = Backend.TRITON
        g: str = "auto"
        h: Nested = field(default_factory=Nested)
        i: SkipValidation[int] = 0
        j: int = field(default=0, init=False)
        k: int = Field(default=LIMIT, ge=1)
        m: dict[str, int] = field(default_factory=dict)
        n: int = Field(ge=0)

        @field_validator("a", mode="wrap")
        @classmethod
        def _none_ok(cls, value: Any, handler: Callable) -> Any:
            if value is None:
                return value
            return handler(value)

        @field_validator("f", mode="before")
        @classmethod
        def _by_name(cls, value: Any) -> Any:
            if isinstance(value, str):
                if value.lower() == "auto":
                    return None
                return Backend[value.upper()]
            return value

        @field_validator("g", mode="before")
        @classmethod
        def _lower(cls, value: Any) -> Any:
            if isinstance(value, str):
                return value.lower().replace("-", "_")
            return value

        @field_validator("h", mode="before")
        @classmethod
        def _build(cls, value: Any) -> Any:
            if isinstance(value, dict):
                return Nested(**value)
            return value

        @field_validator("m", mode="before")
        @classmethod
        def _opaque(cls, value: Any) -> Any:
            return {k: v * 2 for k, v in value.items()}

        @model_validator(mode="after")
        def _check(self) -> "Demo":
            if self.b >= 1:
                raise ValueError("b must be below 1")
            return self
"""


def demo_fields(tmp_path: Path) -> dict[str, dict[str, Any]]:
    tree = tree_with(tmp_path, {"vllm/config/demo.py": CONFIG})
    mod = tree.module("vllm.config.demo")
    assert mod is not None
    cref = tree.resolve("vllm.config.demo", "Demo")
    assert isinstance(cref, ef.ClassRef)
    assert mine_validation.is_pydantic(cref)
    assert mine_validation.declared_extra(cref) == "ignore"
    rewrites, model_before = mine_validation.class_validators(cref, tree)
    assert model_before is None  # mode="after" does not count
    out = {}
    for name, st, owner in ef.fields_of(cref):
        facts = mine_validation.field_facts(name, st, owner, rewrites.get(name, []), False)
        rec = dict(facts.record)
        for key in ("class", "enum", "enum_by_name"):
            if isinstance(rec.get(key), ef.ClassRef):
                rec[key] = rec[key].name
        if facts.nested_via == "constructor":
            rec["via"] = "constructor"
        out[name] = rec
    return out


def test_field_facts(tmp_path: Path) -> None:
    f = demo_fields(tmp_path)
    assert f["a"] == {"type": "int", "gt": 0, "null": True, "default": None}
    assert f["b"] == {"type": "float", "ge": 0, "lt": 1, "default": 0.5}
    assert f["c"]["le"] == 8 and f["d"]["gt"] == 0
    assert f["e"] == {"type": "literal", "values": ["x", "y"], "null": True, "default": None}
    assert f["f"]["match"] == "name_upper" and f["f"]["extra_words"] == {"auto": None}
    assert f["f"]["enum"] == "Backend" and f["f"]["default"] == "triton"
    assert f["g"]["normalize"] == [["lower"], ["replace", "-", "_"]]
    assert f["h"]["class"] == "Nested" and f["h"]["via"] == "constructor"
    assert f["i"]["skip"] == "SkipValidation"
    assert f["j"]["init"] is False
    assert f["k"] == {"type": "int", "ge": 1, "default": 64}  # the class attribute LIMIT
    assert f["m"]["rewritten"].startswith("vllm/config/demo.py:")
    assert f["n"] == {"type": "int", "ge": 0, "required": True}


def test_stdlib_dataclasses_inherit(tmp_path: Path) -> None:
    tree = tree_with(
        tmp_path,
        {
            "vllm/config/std.py": """
                from dataclasses import dataclass
                from pydantic import BaseModel, ConfigDict

                @dataclass
                class Plain:
                    x: int = 1

                class Model(BaseModel):
                    model_config = ConfigDict(extra="forbid")
                    y: int = 2
            """
        },
    )
    plain = tree.resolve("vllm.config.std", "Plain")
    model = tree.resolve("vllm.config.std", "Model")
    assert isinstance(plain, ef.ClassRef) and isinstance(model, ef.ClassRef)
    assert not mine_validation.is_pydantic(plain)
    assert mine_validation.declared_extra(plain) == "inherit"
    assert mine_validation.declared_extra(model) == "forbid"


def test_render_is_deterministic_and_compact() -> None:
    data = {
        "format": 1,
        "release": "0.0.1",
        "flags": {"--b": "C.b", "--a": "C.a"},
        "conditional": {},
        "json_flags": {},
        "classes": {
            "C": {"source": "vllm/x.py:1", "pydantic": True, "extra": "forbid", "fields": {}}
        },
        "enums": {},
    }
    text = mine_validation.render(data)
    assert text == mine_validation.render(json.loads(text))
    assert json.loads(text) == data
    assert text.splitlines()[4] == '"--a":"C.a",'  # sorted, one line each


# -- environment variables ---------------------------------------------------------------------

ENVS = """
    import os

    def env_with_choices(env_name, default, choices, case_sensitive=True):
        pass

    def maybe_convert_int(value):
        return None if value is None else int(value)

    def get_port():
        return int(os.environ["VLLM_PORT"])

    environment_variables = {
        "VLLM_A": lambda: int(os.getenv("VLLM_A", "3")),
        "VLLM_B": lambda: bool(int(os.getenv("VLLM_B", "0"))),
        "VLLM_C": lambda: os.getenv("VLLM_C", "True").lower() in ("1", "true"),
        "VLLM_D": env_with_choices("VLLM_D", "spawn", ["spawn", "fork"], case_sensitive=False),
        "VLLM_E": lambda: os.environ.get("VLLM_E", "x") == "1",
        "VLLM_F": lambda: maybe_convert_int(os.environ.get("VLLM_F", None)),
        "VLLM_G": lambda: os.path.expanduser(os.getenv("VLLM_G", "~/g")),
        "VLLM_H": lambda: None if "VLLM_H" not in os.environ else os.environ["VLLM_H"].split(","),
        "VLLM_PORT": get_port,
        "VLLM_LEVEL": lambda: os.getenv("VLLM_LEVEL", "info").upper(),
    }
"""


def test_env_kinds(tmp_path: Path) -> None:
    tree_with(tmp_path, {"vllm/envs.py": ENVS})
    data = mine_envs.mine_release(tmp_path, "0.0.1")
    v = {k: {x: y for x, y in rec.items() if x != "line"} for k, rec in data["variables"].items()}
    assert v["VLLM_A"] == {"kind": "int", "default": 3}
    assert v["VLLM_B"] == {"kind": "bool_int", "default": False}
    assert v["VLLM_C"] == {
        "kind": "bool_words",
        "words": ["1", "true"],
        "case_sensitive": False,
        "normalize": [["lower"]],
        "default": True,
    }
    assert v["VLLM_D"] == {
        "kind": "choice",
        "choices": ["spawn", "fork"],
        "case_sensitive": False,
        "default": "spawn",
    }
    assert v["VLLM_E"] == {"kind": "bool_eq", "word": "1", "default": False}
    assert v["VLLM_F"] == {"kind": "int", "default": None}
    assert v["VLLM_G"]["kind"] == "path"
    assert v["VLLM_H"] == {"kind": "list", "sep": ",", "default": None}
    assert v["VLLM_PORT"] == {"kind": "custom", "function": "get_port"}
    assert v["VLLM_LEVEL"] == {"kind": "str", "default": "INFO", "normalize": [["upper"]]}
    assert data["environ_check"] is None
    assert mine_envs.render(data) == mine_envs.render(json.loads(mine_envs.render(data)))


# -- raise sites -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "message", "matches"),
    [
        # vLLM's {…} stands for a value the rule spells out
        (
            "--use-replayssm requires --mamba-backend triton",
            "--use-replayssm requires --mamba-backend {…}",
            True,
        ),
        # the rule's placeholder stands for vLLM's words
        (
            "max_cpu_loras ({max_cpu_loras}) must be >= max_loras ({max_loras})",
            "max_cpu_loras ({…}) must be >= max_loras ({…}).",
            True,
        ),
        # a partial quote
        (
            "Consider increasing max_num_batched_tokens",
            "Not enough room. Consider increasing max_num_batched_tokens or x.",
            True,
        ),
        # siblings that differ in one word (vllm/config/vllm.py:1218/1226 in 0.33.0,
        # dp_supervisor.py:54/58, config/vllm.py:3328/3335)
        (
            "--enable-return-routed-experts is incompatible with pipeline parallelism (PP > 1).",
            "--enable-return-routed-experts is incompatible with context parallelism (DCP/PCP > 1).",
            False,
        ),
        (
            "Error: --data-parallel-multi-port-external-lb does not support --uds",
            "Error: --data-parallel-multi-port-external-lb does not support --grpc",
            False,
        ),
        (
            "Model Runner V1 does not support: {x}",
            "Model Runner V2 does not yet support: {…}",
            False,
        ),
        # one {…} does not swallow a whole sentence
        (
            "--use-replayssm does not support speculative decoding",
            "Ignoring stale tensor from sender {…}",
            False,
        ),
        # too short to tell
        ("Invalid JSON", "Invalid JSON format for --lora-modules: {…}", False),
    ],
)
def test_message_matches(rule: str, message: str, matches: bool) -> None:
    assert mine_raises.message_matches(rule, message) is matches


RAISES = """
    import argparse

    def _raise_unsupported(feature_name: str):
        msg = f"{feature_name} is not supported."
        raise NotImplementedError(msg)

    class EPLB:
        interval: int = 1

        def check(self):
            if self.enabled and self.interval <= 0:
                raise ValueError("interval must be greater than 0.")
            if self.x is None:
                raise ValueError(f"x is {self.x!r} here")
            assert self.y is not None
            assert self.z > 1, "z too small"
            if self.pp > 1:
                name = "Pipeline Parallelism without Ray"
                _raise_unsupported(feature_name=name)
            logger.warning("--foo is ignored when %s is set", self.bar)
"""


def test_raise_sites(tmp_path: Path) -> None:
    tree_with(tmp_path, {"vllm/engine/arg_utils.py": RAISES})
    sites, warnings, files = mine_raises.collect(tmp_path)
    assert files == ["vllm/engine/arg_utils.py"]
    got = [(s.line, s.kind, s.exception, s.message, s.function) for s in sites]
    assert got == [
        (13, "raise", "ValueError", "interval must be greater than 0.", "EPLB.check"),
        (15, "raise", "ValueError", "x is {…} here", "EPLB.check"),
        (17, "assert", "AssertionError", "z too small", "EPLB.check"),
        (
            20,
            "raise",
            "NotImplementedError",
            "Pipeline Parallelism without Ray is not supported.",
            "EPLB.check",
        ),
    ]
    assert [(w.kind, w.message) for w in warnings] == [
        ("warning", "--foo is ignored when {…} is set")
    ]
    # the guard `self.enabled and self.interval <= 0` is what pydantic's gt=0 refuses first
    validation = {"classes": {"EPLB": {"fields": {"interval": {"type": "int", "gt": 0}}}}}
    assert mine_raises.mined(sites[0], validation)
    assert not mine_raises.mined(sites[1], validation)
    # an enum's metaclass refusing a member name: the generic check judges the enum's names
    meta = dataclasses.replace(
        sites[0], file="vllm/config/mamba.py", function="_MambaBackendEnumMeta.__getitem__"
    )
    enums = {
        "enums": {"MambaBackendEnum": {"names": ["TRITON"], "source": "vllm/config/mamba.py:25"}}
    }
    assert mine_raises.mined(meta, enums)
    assert not mine_raises.mined(dataclasses.replace(meta, file="vllm/config/other.py"), enums)
    other = dataclasses.replace(meta, function="_OtherEnumMeta.__getitem__")
    assert not mine_raises.mined(other, enums)
    rules = [
        mine_raises.RuleRef("VL999", "0.0.1", "", None, {"0.0.2": "vllm/engine/arg_utils.py:14"})
    ]
    assert mine_raises.rules_for(sites[1], "0.0.2", rules) == ["VL999"]  # cites the if
    assert mine_raises.rules_for(sites[1], "0.0.1", rules) == []  # no citation for 0.0.1


REASON_SITES = {
    "vllm/v1/engine/input_processor.py": """
        class InputProcessor:
            def _validate_params(self, params, supported_tasks):
                if params.n > 1:
                    raise ValueError("n must be 1")

            def _validate_model_input(self, prompt_inputs):
                if len(prompt_inputs) > self.model_config.max_model_len:
                    raise ValueError("too long")

            def __init__(self, vllm_config, log_requests=True):
                if vllm_config.x:
                    raise ValueError("startup check")
    """,
    "vllm/entrypoints/cli/serve.py": """
        import signal

        def run_headless(args):
            def signal_handler(signum, frame):
                raise SystemExit

            signal.signal(signal.SIGTERM, signal_handler)
    """,
    "vllm/config/demo.py": """
        class DemoConfig:
            def check(self, model_config):
                assert model_config.hf_config.n > 0, "needs heads"
                capability = current_platform.get_device_capability().to_int()
                if capability < 80:
                    raise ValueError("old GPU")
                if self.x:
                    raise ValueError("a flag")
    """,
}


def test_reasons_the_code_gives(tmp_path: Path) -> None:
    tree_with(tmp_path, REASON_SITES)
    sites, _, _ = mine_raises.collect(tmp_path)
    got = {s.message: mine_raises.reason_of(s) for s in sites}
    assert got == {
        "n must be 1": "request",  # a parameter named params: runs per request
        "too long": "request",  # the function's name names the prompt
        "startup check": "",  # log_requests is not a request
        "": "process",  # a function registered with signal.signal
        "needs heads": "model",  # an assert's own test
        "old GPU": "hardware",  # the local name's assignment
        "a flag": "",
    }
    entry = mine_raises.ReasonEntry(
        "vllm/config/demo.py",
        "DemoConfig.check",
        "a fl",
        "internal",
        "set just before",
        "",
        "0.2.0",
    )
    flag = next(s for s in sites if s.message == "a flag")
    assert mine_raises.reason_of(flag, [entry], "0.2.0") == "internal"
    assert mine_raises.reason_of(flag, [entry], "0.1.9") == ""  # before `since`


def test_the_reasons_file() -> None:
    """tools/coverage_reasons.json: each entry is well formed, names a site of a shipped
    coverage file, and that site carries the entry's reason (unless a rule or the mined
    check covers it first)."""
    data = json.loads(mine_raises.REASONS_DATA.read_text(encoding="utf-8"))
    assert set(data) == {"format", "entries"} and data["format"] == 1
    keys = {"file", "function", "message", "reason", "why"}
    seen = set()
    for e in data["entries"]:
        assert keys <= set(e) <= keys | {"kind", "since"}, e
        assert e["reason"] in mine_raises.REASON_KINDS, e
        assert e["file"].startswith("vllm/") and e["function"], e
        assert e["why"].strip() and "\n" not in e["why"] and len(e["why"]) <= 300, e
        assert e.get("kind", "raise") in {"raise", "assert", "parser.error"}, e
        key = (e["file"], e["function"], e["message"], e.get("kind", ""))
        assert key not in seen, f"duplicate entry {key}"
        seen.add(key)
    entries = mine_raises.load_reasons()
    used = set()
    for release, cov in coverage_files().items():
        for record in cov["sites"]:
            site = mine_raises.Site(
                record["file"], record["line"], record["line"], record["function"],
                record["kind"], record.get("exception", ""), record["message"],
            )  # fmt: skip
            hit = next((e for e in entries if e.matches(site, release)), None)
            if hit is None:
                continue
            used.add(hit)
            if record["cover"] in ("reason", "uncovered", "lifted"):
                assert record.get("reason") == hit.reason, (release, record)
    assert set(entries) == used, [e for e in entries if e not in used]


# -- the shipped coverage ----------------------------------------------------------------------


def coverage_files() -> dict[str, dict[str, Any]]:
    return {
        p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(COVERAGE.glob("*.json"))
    }


def test_coverage_page_is_current() -> None:
    """docs/coverage.md is rendered from tools/coverage/*.json (no wheel needed)."""
    per_release = {d["release"]: d for d in coverage_files().values()}
    assert set(mine_raises.DOC_RELEASES) <= set(per_release)
    doc = (REPO / "docs" / "coverage.md").read_text(encoding="utf-8")
    assert doc == mine_raises.render_doc(per_release), "run python -m tools.mine_raises"


def test_coverage_records() -> None:
    rule_ids = {r.id for r in mine_raises.load_rules()}
    for release, data in coverage_files().items():
        s = data["summary"]
        assert s["sites"] == len(data["sites"])
        covered = s["rule"] + s["mined"] + s["lifted"] + s["reason"]
        assert s["sites"] == covered + s["uncovered"], release
        for site in data["sites"] + data["warnings"]:
            assert site["cover"] in {"rule", "mined", "lifted", "reason", "uncovered"}
            assert set(site.get("rules", [])) <= rule_ids, (release, site)
            assert (site["cover"] == "rule") == bool(site.get("rules"))
            assert (site["cover"] == "reason") == bool(site.get("reason"))
            assert site.get("reason", "model") in mine_raises.REASON_KINDS, (release, site)


def test_the_lifted_cover_is_current_with_schemas_lifted_json() -> None:
    """`python -m tools.mine_raises --relabel` would change nothing: every site a shipped
    lifted entry judges is `lifted`, and no other."""
    for release, data in coverage_files().items():
        relabelled = json.loads(json.dumps(data))
        mine_raises.relabel_lifted(relabelled, mine_raises.lifted_sites(data["release"]))
        assert relabelled == data, f"{release}: run python -m tools.mine_raises --relabel"
    lifted = [s for s in coverage_files()["0.34.0"]["sites"] if s["cover"] == "lifted"]
    assert ("vllm/config/attention.py", 247) in {(s["file"], s["line"]) for s in lifted}


def test_relabel_follows_the_entries_lines_and_ranges(tmp_path: Path) -> None:
    entry = {"file": "vllm/config/x.py", "lines": {"0.26.0": 10, "0.30.0": 20},
             "ranges": [["0.26.0", "0.31.0"]], "verified": ["0.28.0"]}  # fmt: skip
    unverified = dict(entry, file="vllm/config/y.py", verified=None)
    path = tmp_path / "lifted.json"
    path.write_text(json.dumps({"entries": [entry, unverified]}), encoding="utf-8")
    assert mine_raises.lifted_sites("0.28.0", path) == {("vllm/config/x.py", 10)}
    assert mine_raises.lifted_sites("0.31.0", path) == {("vllm/config/x.py", 20)}
    assert mine_raises.lifted_sites("0.32.0", path) == set()  # outside its range
    sites = [
        {"file": "vllm/config/x.py", "line": 20, "cover": "uncovered"},
        {"file": "vllm/config/x.py", "line": 30, "cover": "lifted"},  # no entry judges it now
        {"file": "vllm/config/x.py", "line": 40, "cover": "reason", "reason": "model"},
    ]
    data: dict[str, Any] = {"sites": sites}
    mine_raises.relabel_lifted(data, mine_raises.lifted_sites("0.31.0", path))
    assert [s["cover"] for s in sites] == ["lifted", "uncovered", "reason"]
    assert (data["summary"]["lifted"], data["summary"]["uncovered"]) == (1, 1)


def test_known_coverage() -> None:
    """Sites read by hand in the wheels and the rule that mirrors each."""
    sites = {(s["file"], s["line"]): s for s in coverage_files()["0.33.0"]["sites"]}
    # vllm/config/vllm.py:3484 (0.33.0): FlashInfer ReplaySSM + --replayssm-buffer-len > 16
    assert "VL113" in sites[("vllm/config/vllm.py", 3484)]["rules"]
    # vllm/engine/arg_utils.py:2118: --spec-* and --speculative-config['key']
    assert sites[("vllm/engine/arg_utils.py", 2118)]["rules"] == ["VL013"]
    # vllm/config/speculative.py:1968: unreachable after pydantic's gt=0 (line 413)
    assert sites[("vllm/config/speculative.py", 1968)]["cover"] == "mined"
    # 0.34.0, read by hand for issue 28
    sites = {(s["file"], s["line"]): s for s in coverage_files()["0.34.0"]["sites"]}
    reasons = {
        ("vllm/v1/engine/input_processor.py", 147): "request",  # _validate_params(params)
        ("vllm/v1/engine/async_llm.py", 364): "request",  # check_admission
        ("vllm/entrypoints/cli/serve.py", 213): "process",  # run_headless.signal_handler
        ("vllm/engine/arg_utils.py", 2685): "internal",  # max_num_seqs set at :3215
        ("vllm/engine/arg_utils.py", 229): "parser",  # literal_to_kwargs
        ("vllm/config/vllm.py", 893): "hardware",  # the GPU's compute capability
    }
    for (path, line), reason in reasons.items():
        assert sites[(path, line)].get("reason") == reason, (path, line, sites[(path, line)])
    # reachable from flags a file writes: they stay uncovered (candidates for rules)
    for path, line in [
        ("vllm/engine/arg_utils.py", 2418),  # --data-parallel-hybrid-lb + -external-lb
        ("vllm/engine/arg_utils.py", 2184),  # --device-ids duplicates
        ("vllm/config/compilation.py", 1165),  # custom-op syntax in -cc
        ("vllm/config/vllm.py", 1444),  # kv_cache_dtype vs dtype
    ]:
        assert sites[(path, line)]["cover"] in ("uncovered", "lifted", "rule"), (path, line)


def test_release_planning() -> None:
    current = ("0.33.0", "0.34.0")
    assert new_release.planned_releases("0.35.0", current) == (["0.33.0", "0.34.0", "0.35.0"], None)
    # every patch release is kept: 0.34.1 joins 0.34.0
    assert new_release.planned_releases("0.34.1", current) == (["0.33.0", "0.34.0", "0.34.1"], None)
    assert new_release.planned_releases("0.34.0", current) == (["0.33.0", "0.34.0"], None)
    source = (REPO / "tools" / "extract_flags.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    assert any(
        isinstance(n, ast.AnnAssign) and getattr(n.target, "id", "") == "RELEASES"
        for n in tree.body
    ), "new_release.write_releases rewrites this tuple"
