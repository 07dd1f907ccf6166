"""The flag checks of the argv grammar (VL001-VL012), release by release, at the line and
column of the token, in YAML lists and in shell-style command strings alike.

Where a verdict is vLLM's own, the comment says where it comes from: the vLLM source of that
release, or vLLM 0.33.0's own parser and validators run on the case (the recorded verdicts of
tests/data/verdicts/, docs/conformance.md)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conftest import CORPUS, run_cli, write
from vllm_lint import release as versions
from vllm_lint.argv import catalog
from vllm_lint.argv.catalog import FlagSpec
from vllm_lint.model import Finding
from vllm_lint.pipeline import check_command_line
from vllm_lint.resources import schemas_dir
from vllm_lint.rules import registry as rules

GRAMMAR_RULES = {f"VL0{n:02d}" for n in range(1, 13)} - {"VL003"}

# One case a line: (the argv word(s) as written, the rule, a piece of its message).
# Each is a mistake vLLM 0.33.0 refuses at startup (its own parser), except the VL008 info.
CASES: list[tuple[str, str, str]] = [
    ("--enable-prefix-cachng", "VL001", "did you mean --enable-prefix-caching?"),
    ("--enable-prefix-cachin", "VL008", "abbreviation of --enable-prefix-caching"),
    ("--speculative-model=meta-llama/Llama-3.2-1B", "VL002",
     """use --speculative-config '{"model": "meta-llama/Llama-3.2-1B"}'"""),
    ("--tensor-parallel-size=two", "VL004", "expects an integer, got 'two'"),
    ("--mamba-backend=gpu", "VL005", "'gpu' is not one of: TRITON, FLASHINFER, CPU"),
    ("--speculative-config={\"num_speculative_token\": 3}", "VL006",
     "did you mean 'num_speculative_tokens'?"),
    ("--compilation-config={bad", "VL007", "needs a JSON value"),
    ("--tensor-parallel=2", "VL008", "abbreviation of --tensor-parallel-size"),
    ("--max-num=3", "VL010", "could be --max-num-active-seqs, --max-num-batched-tokens"),
    ("--enable-chunked-prefill=false", "VL004", "no value (it is a switch"),
    ("--optimization-level=O2", "VL005", "'O2' is not one of: 0, 1, 2, 3"),
]  # fmt: skip
# Accepted by vLLM 0.33.0's own parser: no grammar finding.
ACCEPTED = [
    "--mamba-backend=FlashInfer",
    "--attention-backend=auto",
    "--attention-backend=flash_attn",
    "--max-model-len=32k",
    "--disable-log-requests",
]

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: llama
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.33.0
          args:
            - meta-llama/Llama-3.1-8B-Instruct
{items}"""

COMPOSE = """\
services:
  vllm:
    image: vllm/vllm-openai:v0.33.0
    command: >
      meta-llama/Llama-3.1-8B-Instruct
{words}
"""

SH_C = """\
apiVersion: v1
kind: Pod
metadata:
  name: llama
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.33.0
      command: ["/bin/sh", "-c"]
      args:
        - |
          exec vllm serve meta-llama/Llama-3.1-8B-Instruct \\
{words}
"""


def _yaml_item(word: str) -> str:
    return "            - '" + word.replace("'", "''") + "'\n"


def _shell_word(word: str) -> str:
    flag, eq, value = word.partition("=")
    return f"{flag}={_quote(value)}" if eq else flag


def _quote(value: str) -> str:
    return "'" + value + "'" if any(c in value for c in ' {}"') else value


def _files(root: Path) -> dict[str, Path]:
    words = [c[0] for c in CASES] + ACCEPTED
    return {
        "yaml list": write(
            root, "k8s/deploy.yaml", DEPLOYMENT.format(items="".join(map(_yaml_item, words)))
        ),
        "compose string": write(
            root,
            "compose.yaml",
            COMPOSE.format(words="\n".join("      " + _shell_word(w) for w in words)),
        ),
        "sh -c block": write(
            root,
            "pod.yaml",
            SH_C.format(words=" \\\n".join("            " + _shell_word(w) for w in words)),
        ),
    }


def _position(path: Path, word: str) -> tuple[int, int]:
    """1-based line and column where the case's flag is written in the file."""
    flag, _, value = word.partition("=")
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = re.search(re.escape(flag) + r"(?=[='\s]|$)", line)
        if match and value in line:
            return number, match.start() + 1
    raise AssertionError(f"{word} not in {path}")


@pytest.mark.parametrize("form", ["yaml list", "compose string", "sh -c block"])
def test_each_case_at_its_own_line_and_column(repo: Path, form: str) -> None:
    path = _files(repo)[form]
    run = run_cli("--format", "json", str(path.relative_to(repo)), cwd=repo)
    assert run.code == 1, run.err
    found = run.findings()
    assert {f["release"]["version"] for f in found} == {"0.33.0"}
    for word, rule, text in CASES:
        line, col = _position(path, word)
        here = [f for f in found if f["line"] == line]
        assert [f["rule"] for f in here] == [rule], (form, word, here)
        assert text in here[0]["message"], (word, here[0]["message"])
        assert here[0]["col"] == col, (form, word, here[0])
    for word in ACCEPTED:
        line, _ = _position(path, word)
        # --attention-backend is written twice on purpose (two spellings): the first is
        # replaced by the second, which VL022 says (a warning: vLLM accepts it)
        twice = word == "--attention-backend=auto"
        here = [f["rule"] for f in found if f["line"] == line]
        assert here == (["VL022"] if twice else []), (form, word, here)
    assert len(found) == len(CASES) + 1  # the VL022 above


def _rules(argv: str, release: str) -> list[str]:
    return [f.rule for f in check_command_line(argv, release)]


def _only(argv: str, release: str) -> Finding:
    [finding] = check_command_line(argv, release)
    return finding


# -- VL002: removed and renamed flags, for the release that removed them ----------------------


@pytest.mark.parametrize(
    ("argv", "release", "expected"),
    [
        # 0.8.2 had the speculative flags; 0.8.3 dropped them (both wheels read). The 0.8.5
        # catalog stands for every 0.8.x, so 0.8.2 must not be told they are gone.
        ("m --speculative_model d --num_speculative_tokens 5", "0.8.2", []),
        ("m --speculative_model d --num_speculative_tokens 5", "0.8.3", ["VL002", "VL002"]),
        ("m --speculative_model d --num_speculative_tokens 5", "0.34.0", ["VL002", "VL002"]),
        # --enable-reasoning: deprecated in 0.9 (help text), gone in 0.10.0
        ("m --enable-reasoning --reasoning-parser deepseek_r1", "0.8.5", []),
        ("m --enable-reasoning --reasoning-parser deepseek_r1", "0.9.2", ["VL003"]),
        ("m --enable-reasoning --reasoning-parser deepseek_r1", "0.10.0", ["VL002"]),
        ("m --no-enable-reasoning", "0.10.2", ["VL002"]),
        # in 0.10.0, gone in 0.10.1 (0.10.0 / 0.10.1 wheels read; the catalog is 0.10.2's)
        ("m --num-scheduler-steps 8", "0.10.0", []),
        ("m --num-scheduler-steps 8", "0.10.1", ["VL002"]),
        # in 0.11.0, gone in 0.11.1
        ("m --rope-theta 1000000", "0.11.0", []),
        ("m --rope-theta 1000000", "0.11.1", ["VL002"]),
        # deprecated 0.10-0.16, gone 0.17-0.32, back in 0.33 as --enable-log-requests' negation
        ("m --disable-log-requests", "0.16.0", ["VL003"]),
        ("m --disable-log-requests", "0.17.0", ["VL002"]),
        ("m --disable-log-requests", "0.32.0", ["VL002"]),
        ("m --disable-log-requests", "0.33.0", []),
        ("m --swap-space 16", "0.17.1", []),
        ("m --swap-space 16", "0.18.0", ["VL002"]),
        ("m --task embed", "0.12.0", ["VL003"]),
        ("m --task embed", "0.13.0", ["VL002"]),
    ],
)
def test_removed_flags_by_release(argv: str, release: str, expected: list[str]) -> None:
    assert _rules(argv, release) == expected


@pytest.mark.parametrize(
    ("argv", "release", "text"),
    [
        ("m --num_speculative_tokens 5", "0.34.0",
         """removed in vLLM 0.8.3 (last in 0.8.2); use --speculative-config """
         """'{"num_speculative_tokens": 5}'"""),
        ("m --speculative-model \"$DRAFT_MODEL\"", "0.34.0",
         """use --speculative-config '{"model": …}'"""),
        ("m --enable-reasoning", "0.10.0", "drop it: --reasoning-parser alone turns reasoning on"),
        ("m --task embed", "0.13.0", "for --task embed, write --runner pooling"),
        ("m --task generate", "0.34.0", "for --task generate, write --runner generate"),
        ("m --cuda-graph-sizes 1 2 4", "0.13.0", "use --cudagraph-capture-sizes 1 2 4"),
        ("m --disable-mm-preprocessor-cache", "0.13.0", "use --mm-processor-cache-gb 0"),
        ("m --rope-scaling '{\"rope_type\": \"yarn\", \"factor\": 4}'", "0.12.0",
         """use --hf-overrides '{"rope_scaling": {"rope_type": "yarn", "factor": 4}}'"""),
        ("m --guided-decoding-backend outlines", "0.12.0",
         """use --structured-outputs-config '{"backend": "outlines"}'"""),
        # the key itself left StructuredOutputsConfig later: say so, do not advise it
        ("m --guided-decoding-disable-fallback true", "0.20.2",
         "has no key 'disable_fallback' either: the setting is gone"),
        ("m --num-redundant-experts 32", "0.12.0",
         """use --eplb-config '{"num_redundant_experts": 32}'"""),
    ],
)  # fmt: skip
def test_removed_flag_names_its_replacement(argv: str, release: str, text: str) -> None:
    finding = _only(argv, release)
    assert finding.rule == "VL002"
    assert text in finding.message, finding.message
    # the hint repeats the replacement, and says why --fix cannot write it when it cannot
    hint, _, why = finding.fix.partition(" (no automatic fix: ")
    assert hint and hint in finding.message
    assert not (why and finding.autofix)
    assert finding.autofix or why or "either" in hint  # the replacement is gone too


def test_a_removed_flag_takes_its_value_with_it() -> None:
    # the value of a removed flag is not mistaken for the model or a stray argument
    assert _rules("--swap-space 16 m", "0.20.2") == ["VL002"]
    assert _rules("m --swap-space 16 --max-model-len 4096", "0.20.2") == ["VL002"]
    assert _rules("m --use-v2-block-manager --max-model-len 4096", "0.20.2") == ["VL002"]


def test_deprecation_names_the_release_that_removes_it() -> None:
    finding = _only("m --enable-reasoning --reasoning-parser deepseek_r1", "0.9.2")
    assert finding.rule == "VL003"
    assert "vLLM 0.10.0 removes it" in finding.message
    assert "deprecatedvLLM" not in finding.message.replace(" ", "")
    # a deprecation with no message of its own reads cleanly
    assert _only("m --task embed", "0.12.0").message.startswith(
        "--task is deprecated in vLLM 0.12.0 (vLLM 0.13.0 removes it;"
    )


def test_unknown_flag_says_when_it_existed() -> None:
    finding = _only("m --mamba-backend triton", "0.12.0")
    assert finding.rule == "VL001" and "first appears in vLLM 0.20.0" in finding.message


# -- VL004 / VL005: types, switches, choices and Enum members ---------------------------------


def test_switches_take_no_value() -> None:
    # 0.33.0 oracle: "ignored explicit argument 'false'" / "unrecognized arguments: true"
    assert _rules("m --enable-prefix-caching=false", "0.33.0") == ["VL004"]
    assert _rules("m --enable-prefix-caching=", "0.33.0") == ["VL004"]
    assert _rules("m --enable-prefix-caching true", "0.33.0") == ["VL004"]
    assert _rules("m --trust-remote-code 1", "0.8.5") == ["VL004"]
    assert _rules("m --enable-prefix-caching --no-enable-chunked-prefill", "0.33.0") == []
    message = _only("m --enable-prefix-caching false", "0.33.0").message
    assert "--no-enable-prefix-caching to turn it off" in message


def test_types_and_nargs() -> None:
    assert _rules("m -tp two", "0.33.0") == ["VL004"]
    assert _rules("m --gpu-memory-utilization high", "0.33.0") == ["VL004"]
    assert _rules("m --api-key a b", "0.33.0") == []
    assert _rules("m --api-key", "0.33.0") == ["VL009"]
    assert _rules("m --cudagraph-capture-sizes 1 2 x", "0.33.0") == ["VL004"]
    assert _rules("m --dtype float8", "0.33.0") == ["VL005"]


@pytest.mark.parametrize(
    ("argv", "release", "expected"),
    [
        # Enum[value.upper()] (vllm/config/mamba.py, arg_utils.py): member names, any case
        ("m --mamba-backend gpu", "0.33.0", ["VL005"]),
        ("m --mamba-backend TRITON", "0.33.0", []),
        ("m --mamba-backend cpu", "0.33.0", []),
        ("m --mamba-backend cpu", "0.20.2", ["VL005"]),  # MambaBackendEnum had no CPU yet
        # AttentionConfig.backend: "auto" accepted from 0.18 (validate_backend_before)
        ("m --attention-backend auto", "0.17.1", ["VL005"]),
        ("m --attention-backend auto", "0.18.1", []),
        ("m --attention-backend FLASHINFER", "0.13.0", []),
        ("m --attention-backend xformers", "0.33.0", ["VL005"]),
        # MultiModalConfig exists only for multimodal models: not checked (oracle: accepted)
        ("m --mm-encoder-attn-backend bogus", "0.33.0", []),
        # IntEnum field of a pydantic config: the values as written (oracle: O2 and 5 refused)
        ("m --optimization-level 3", "0.33.0", []),
        ("m -O3", "0.33.0", []),
        ("m --optimization-level 5", "0.33.0", ["VL005"]),
    ],
)
def test_enum_valued_flags(argv: str, release: str, expected: list[str]) -> None:
    assert _rules(argv, release) == expected


# -- VL006 / VL012 / VL007: JSON-valued flags --------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "release", "expected"),
    [
        # pydantic ignores unknown keys unless extra="forbid"; vLLM's @config forbids them
        # from 0.16.0 (vllm/config/utils.py:55), CompilationConfig already in 0.13
        ("m --speculative-config '{\"num_speculative_token\": 3}'", "0.15.1", ["VL012"]),
        ("m --speculative-config '{\"num_speculative_token\": 3}'", "0.16.0", ["VL006"]),
        ("m --speculative-config.num_speculative_token 3", "0.33.0", ["VL006"]),
        ("m --compilation-config '{\"bogus\": 1}'", "0.12.0", ["VL012"]),
        ("m --compilation-config '{\"bogus\": 1}'", "0.13.0", ["VL006"]),
        # ngram without num_speculative_tokens (oracle 0.33.0: speculative.py:1947)
        ('m --speculative-config \'{"method": "ngram"}\'', "0.33.0", ["VL396"]),
        ("m --hf-overrides '{\"anything\": 1}'", "0.33.0", []),  # a free-form dict
        ("m --speculative-config '{bad'", "0.33.0", ["VL007"]),
        # 0.8.5 does not split dotted keys: argparse sees an unknown option
        ("m --speculative-config.num_speculative_tokens 3", "0.8.5", ["VL001"]),
    ],
)
def test_json_flags(argv: str, release: str, expected: list[str]) -> None:
    assert _rules(argv, release) == expected


# -- VL008 / VL010: abbreviations --------------------------------------------------------------


def test_abbreviations() -> None:
    finding = _only("m --tensor_parallel 2", "0.33.0")
    assert (finding.rule, finding.severity.label) == ("VL008", "info")
    assert "--tensor-parallel-size" in finding.message
    ambiguous = _only("m --max-num 3", "0.33.0")
    assert (ambiguous.rule, ambiguous.severity.label) == ("VL010", "error")
    # the -h/--help of every argparse parser takes part: --h is ambiguous, --hel is --help
    assert _rules("m --h", "0.33.0") == ["VL010"]
    # a removed flag that became a prefix of newer ones: ambiguous, and say why it is gone
    device = _only("m --device cuda", "0.34.0")
    assert device.rule == "VL010"
    assert "--device itself was removed in vLLM 0.10.0" in device.message
    assert _rules("m --device cuda", "0.20.2") == ["VL002"]
    # 0.28.0 oracle: the only --device* flag is --device-ids, so argparse reads --device as it
    # and fails on "Non-integer device ID 'cuda'": the removed flag is the news
    misread = _only("m --device cuda", "0.28.0")
    assert misread.rule == "VL002" and "vLLM 0.28.0 reads it as --device-ids" in misread.message


# -- VL011: the one positional -----------------------------------------------------------------


def test_extra_positional_words() -> None:
    # 0.33.0 oracle: "unrecognized arguments: extra"
    assert _rules("m extra", "0.33.0") == ["VL011"]
    # args of an image whose entrypoint is already `vllm serve`: `serve` becomes the model
    assert _rules("serve Qwen/Qwen3-8B --max-model-len 4096", "0.33.0") == ["VL011"]
    assert "the model (here 'serve')" in _only("serve Qwen/Qwen3-8B", "0.33.0").message
    assert _rules("m --max-model-len 4096 --enforce-eager", "0.33.0") == []


# -- every real flag, with a valid value, passes -----------------------------------------------


def _valid_value(spec: FlagSpec, release: str) -> list[str]:
    """A value vLLM's parser takes for `spec`, from the catalog, and the first value of the
    `Literal` its config field declares (schemas/validation/) where argparse takes any str."""
    if (spec.is_bool and spec.nargs is None) or spec.nargs == "?":
        return []
    literal = _mined_literal(spec.name, release)
    if literal is not None and not spec.choices:
        return [literal]
    if spec.choices:
        return [spec.choices[0]]
    if spec.config_choices:
        return [spec.config_choices[0]]
    if spec.enum_match == "name_upper" and spec.enum_names:
        return [spec.enum_names[0].lower()]
    if spec.enum_match == "value" and spec.enum_values:
        return [str(spec.enum_values[0])]
    by_type = {
        "int": "2",
        "port": "8000",
        "human_int": "1k",
        "int_or_auto": "auto",
        "float": "0.5",
        "bool": "true",
        "json": "{}",
        "json_or_str": "{}",
        "kvs": "image=1",  # 0.5.5 - 0.8.4 nullable_kvs
        "json_or_kvs": "{}",
    }
    return [by_type.get(spec.type, "x")]


def _mined_literal(flag: str, release: str) -> str | None:
    from vllm_lint.argv.mined import validation_for

    data = validation_for(catalog.catalog_for(release).release)
    target = (data or {}).get("flags", {}).get(flag)
    if data is None or target is None:
        return None
    owner, _, name = target.partition(".")
    rec = data["classes"][owner]["fields"].get(name, {})
    values = [v for v in rec.get("values", ()) if isinstance(v, str)]
    return values[0] if rec.get("type") == "literal" and values else None


def _argv(release: str) -> tuple[list[str], dict[str, Any]]:
    """Every option string of the release (names, aliases, negations) with a valid value."""
    cat = catalog.catalog_for(release)
    words = ["m"]
    seen: dict[str, Any] = {}
    for spec in cat.flags.values():
        if spec.name == "--config":  # names a file: covered by the --config tests
            continue
        for option in (spec.name, *spec.aliases):
            words += [option, *_valid_value(spec, release)]
            seen[option] = spec
        for negation in spec.negations:
            words.append(negation)
            seen[negation] = spec
    return words, seen


@pytest.mark.parametrize("release", catalog.known_releases())
def test_every_flag_with_a_valid_value_is_accepted(release: str) -> None:
    words, seen = _argv(release)
    argv = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    problems = [f for f in check_command_line(argv, release) if f.rule in GRAMMAR_RULES]
    assert not problems, [(f.rule, f.message) for f in problems]
    assert len(seen) > len(catalog.catalog_for(release).flags)  # aliases and negations too


def test_every_033_flag_in_a_manifest(repo: Path) -> None:
    words, _ = _argv("0.33.0")
    items = "".join(_yaml_item(w) for w in words[1:])
    write(repo, "deploy.yaml", DEPLOYMENT.format(items=items))
    run = run_cli("--format", "json", "--fail-on", "never", "deploy.yaml", cwd=repo)
    assert run.code == 0, run.err
    assert run.json()["invocations"] == 1
    problems = [f for f in run.findings() if f["rule"] in GRAMMAR_RULES]
    assert not problems, problems


# -- the curated table of removed and renamed flags --------------------------------------------

# A flag that came back after its removal, and the vLLM source that explains it.
RETURNED = {
    # FlexibleArgumentParser (0.5.1+) reads `--a_b` as `--a-b`: the underscore spellings of
    # 0.4.2 (`--max-seq_len-to-capture`) and 0.5.0 (`--preemption_mode`) work again
    "--max-seq_len-to-capture": ("0.5.1", "0.5.1 vllm/utils.py FlexibleArgumentParser"),
    "--preemption_mode": ("0.5.1", "0.5.1 vllm/utils.py FlexibleArgumentParser"),
    "--disable-log-requests": (
        "0.33.0",
        "0.33.0 EnableDisableAction gives --enable-log-requests the negation "
        "--disable-log-requests (vllm/utils/argparse_utils.py)",
    ),
}


def _table() -> dict[str, Any]:
    path = schemas_dir() / "renamed-flags.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _value_form(spec: FlagSpec) -> str:
    if spec.is_bool and spec.nargs is None:
        return "none"
    return {"?": "optional", "+": "many", "*": "many"}.get(spec.nargs or "", "one")


def test_table_is_valid_against_its_schema() -> None:
    schema = json.loads((schemas_dir() / "renamed-flags.schema.json").read_text("utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = list(Draft202012Validator(schema).iter_errors(_table()))
    assert not errors, [e.message for e in errors]


def test_every_flag_a_release_drops_is_in_the_table() -> None:
    table = _table()["flags"]
    releases = catalog.known_releases()
    missing = []
    for older, newer in itertools.pairwise(releases):
        gone = set(catalog.catalog_for(older).flags) - set(catalog.catalog_for(newer).flags)
        missing += [(flag, newer) for flag in sorted(gone) if flag not in table]
    assert not missing, missing


@pytest.mark.parametrize("flag", sorted(_table()["flags"]))
def test_table_row_agrees_with_the_catalogs(flag: str) -> None:
    row = _table()["flags"][flag]
    known = catalog.known_releases()
    assert versions.full_key(row["last_in"]) < versions.full_key(row["removed_in"])
    if row["last_in"] in known:  # the newest patch of its minor: the catalog has the flag
        spec = catalog.catalog_for(row["last_in"]).flags[flag]
        assert _value_form(spec) == row["value"]
    back = RETURNED.get(flag, (None, ""))[0]
    for release in known:
        if versions.full_key(release) >= versions.full_key(row["removed_in"]) and (
            back is None or versions.full_key(release) < versions.full_key(back)
        ):
            assert catalog.catalog_for(release).resolve(flag) is None, release
    replacement = row["replacement"]
    if "flag" in replacement and versions.key(row["removed_in"]) >= versions.key("0.8.5"):
        target = catalog.catalog_for(row["removed_in"]).flags[replacement["flag"]]
        if "key" in replacement and target.json_keys is not None:
            assert replacement["key"] in target.json_keys


# -- the known-broken flags of the real-world corpus (tests/corpus/real-world/SOURCES.md) -------

# (file, flag as written there, {release: the rule at each place it is written, or None})
BROKEN_IN_CORPUS: list[tuple[str, str, dict[str, str | None]]] = [
    # llmaz's speculative-decoding preset (chart default image v0.7.3)
    ("llmaz/test_config_backends_vllm.yaml", "--speculative_model",
     {"0.8.2": None, "0.8.3": "VL002", "0.34.0": "VL002"}),
    ("llmaz/test_config_backends_vllm.yaml", "--num_speculative_tokens",
     {"0.8.2": None, "0.8.3": "VL002", "0.34.0": "VL002"}),
    ("llmaz/vllm.yaml", "--speculative_model", {"0.8.2": None, "0.8.3": "VL002"}),
    ("ai-infra-summit/docker-compose.vllm.yaml", "--enable-reasoning",
     {"0.8.5": None, "0.9.2": "VL003", "0.10.0": "VL002", "0.34.0": "VL002"}),
    ("kubeai/deepseek-r1-mi300x.yaml", "--num-scheduler-steps",
     {"0.10.0": None, "0.10.1": "VL002", "0.34.0": "VL002"}),
    ("kubeai/deepseek-r1-mi300x.yaml", "--max-seq-len-to-capture",
     {"0.10.2": None, "0.11.0": "VL002"}),
    # a BooleanOptionalAction from 0.8.5 on: `=false` is "ignored explicit argument"
    ("kubeai/deepseek-r1-mi300x.yaml", "--enable-chunked-prefill",
     {"0.8.5": "VL004", "0.34.0": "VL004"}),
    ("kubeai/values.yaml", "--swap-space", {"0.17.1": None, "0.18.0": "VL002"}),
    ("kubeai/values.yaml", "--disable-log-requests",
     {"0.16.0": "VL003", "0.17.0": "VL002", "0.32.0": "VL002", "0.33.0": None}),
    ("opea-genaicomps/compose.yaml", "--swap-space", {"0.17.1": None, "0.18.0": "VL002"}),
    ("opea-genaicomps/compose.yaml", "--num-scheduler-steps",
     {"0.10.0": None, "0.10.1": "VL002"}),
    ("opea-genaicomps/compose.yaml", "--disable-log-requests",
     {"0.17.0": "VL002", "0.33.0": None}),
    ("opea-genaiinfra/rocm-values.yaml", "--swap-space", {"0.17.1": None, "0.18.0": "VL002"}),
    ("opea-genaiinfra/rocm-values.yaml", "--num-scheduler-steps",
     {"0.10.0": None, "0.10.1": "VL002"}),
    ("opea-genaicomps/gaudi-values.yaml", "--max-seq-len-to-capture",
     {"0.10.2": None, "0.11.0": "VL002"}),
    ("kserve/llmisvc_config_prefix_cache.yaml", "--disable-log-requests",
     {"0.16.0": "VL003", "0.17.0": "VL002", "0.33.0": None}),
    # vLLM's own example: `args: ["serve", "Qwen/…"]` on an image whose entrypoint is
    # `vllm serve` makes `serve` the model and the real model a stray word
    ("vllm/k8s-monitoring-vllm-deployment.yaml", "Qwen/Qwen3-235B-A22B", {"0.34.0": "VL011"}),
    ("vllm/k8s-monitoring-vllm-deployment.yaml", "--log-requests", {"0.34.0": "VL001"}),
]  # fmt: skip


def _places(path: Path, written: str) -> list[tuple[int, int]]:
    """(line, column) of every place `written` stands as a word outside a comment."""
    places = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        for match in re.finditer(re.escape(written) + r"(?=[=\"'\s,\]]|$)", line):
            places.append((number, match.start() + 1))
    return places


def _corpus_cases() -> list[Any]:
    return [
        pytest.param(path, written, release, rule, id=f"{path}:{written}@{release}")
        for path, written, by_release in BROKEN_IN_CORPUS
        for release, rule in by_release.items()
    ]


@pytest.mark.parametrize(("path", "written", "release", "rule"), _corpus_cases())
def test_known_broken_corpus_flags(path: str, written: str, release: str, rule: str | None) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    places = _places(CORPUS / path, written)
    assert places, f"{written} is not written in {path}"
    run = run_cli("--format", "json", "--vllm-version", release, path, cwd=CORPUS)
    assert not run.err, run.err
    found = [f for f in run.findings() if f["rule"] in GRAMMAR_RULES | {"VL003"}]
    for line, col in places:
        here = [f for f in found if (f["line"], f["col"]) == (line, col)]
        if rule is None:
            assert not here, (line, here)
        else:
            assert [f["rule"] for f in here] == [rule], (line, col, here)


# -- the examples each flag rule shows in its documentation (`vllm-lint explain VL002`) ----------


def _flag_rule_examples() -> list[Any]:
    cases = []
    for rule in rules.builtin_rules():
        if rule.rejects is not None or not rule.id.startswith("VL0"):
            continue
        for verdict in ("fail", "pass"):
            for n, example in enumerate(rule.examples.get(verdict, [])):
                for release in example["releases"]:
                    cases.append(
                        pytest.param(
                            rule.id, verdict, example, release,
                            id=f"{rule.id}-{verdict}{n}-{release}",
                        )
                    )  # fmt: skip
    return cases


def test_every_flag_rule_has_examples_both_ways() -> None:
    for rule in rules.builtin_rules():
        if rule.id.startswith("VL0"):
            assert rule.examples.get("fail") and rule.examples.get("pass"), rule.id


@pytest.mark.parametrize(("rule_id", "verdict", "example", "release"), _flag_rule_examples())
def test_flag_rule_example(
    rule_id: str, verdict: str, example: dict[str, Any], release: str
) -> None:
    if "python" in example:  # VL023: what only the Python API refuses
        from vllm_lint.pipeline import check_python

        findings = check_python(example["python"], release)
    else:
        findings = check_command_line(example["argv"], release, example.get("env"))
    fired = [f.rule for f in findings if f.rule == rule_id]
    assert bool(fired) == (verdict == "fail"), (rule_id, verdict, example, release)
