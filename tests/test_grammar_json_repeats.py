"""A JSON flag written more than once, as full JSON and/or dotted keys, release by release.

argparse keeps the last value of an option: of `--x '{..}' --x '{..}'` only the second counts.
FlexibleArgumentParser.parse_args gathers the dotted keys written with one flag name
(`--x.a 1 --x.b 2`) into one object and appends it as `--x '{..}'` after every other
argument, so it replaces a full JSON given before or after it (vllm/utils/argparse_utils.py:
441-502 in 0.33 and 0.34, :399-460 in 0.31, :387-448 in 0.30, :368-429 in 0.28, the same code
since 0.9.2 in vllm/utils/__init__.py:1549-1594; 0.9.0 vllm/utils.py:1449-1475; 0.8.5 has no
dotted keys).
--speculative-config's argparse type is `json.loads` alone (vllm/engine/arg_utils.py:1614 in
0.28, :1791 in 0.31, :1864 in 0.33, :1895 in 0.34): the keys of a replaced value are never
judged. A config dataclass flag (--compilation-config) is validated by its argparse type on
every occurrence (parse_dataclass, arg_utils.py:369 in 0.33): a replaced value still fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli
from vllm_lint.effective.settings import Settings
from vllm_lint.files.textpos import FilePositions
from vllm_lint.model import Invocation, Span
from vllm_lint.options import Options
from vllm_lint.pipeline import check_command_line, settings_of
from vllm_lint.read.shell import Lexer

LLAMA = "meta-llama/Llama-3.1-8B-Instruct"
# verdict 05d7f377eb7e (vLLM 0.28.0: accepted): the first JSON's 'fly' and 'fly_window_size'
# (0.33+ keys) are never judged
FLY_JSON = (
    '\'{"method": "ngram", "prompt_lookup_max": 4, "num_speculative_tokens": 4, '
    '"rejection_sample_method": "fly", "fly_window_size": 3}\''
)
NGRAM5 = '\'{"method": "ngram", "num_speculative_tokens": 5}\''
# verdict 21ecff656883 (vLLM 0.31.0: accepted): enable_adaptive_verification needs Model
# Runner V2 (VL349), but only in the JSON argparse dropped
ADAPTIVE_JSON = (
    '\'{"method": "ngram", "prompt_lookup_max": 4, "num_speculative_tokens": 4, '
    '"enable_adaptive_verification": true}\''
)
NGRAM4 = '\'{"method": "ngram", "num_speculative_tokens": 4}\''
BOGUS_JSON = '\'{"method": "ngram", "num_speculative_tokens": 3, "bogus_key": 1}\''
DOTTED = "--speculative-config.method ngram --speculative-config.num_speculative_tokens 3"
SC = "--speculative-config"


def rules_of(argv: str, release: str) -> list[str]:
    return [f.rule for f in check_command_line(argv, release)]


def settings(argv: str, release: str) -> Settings:
    words = [w for c in Lexer(argv, FilePositions("t", argv)).commands() for w in c.words]
    invocation = Invocation("t", tuple(words), {}, "t")
    found, _ = settings_of(invocation, Options(vllm_version=release))
    return found


@pytest.mark.parametrize(
    ("argv", "release", "expected"),
    [
        # repeated full JSON: the last one wins
        (f"{LLAMA} {SC} {FLY_JSON} {SC} {NGRAM5}", "0.28.0", []),
        (f"{LLAMA} {SC} {NGRAM5} {SC} {FLY_JSON}", "0.28.0", ["VL005", "VL006"]),
        (f"{LLAMA} {SC} {FLY_JSON} {SC}={NGRAM5}", "0.31.0", []),
        (f"{LLAMA} {SC} {ADAPTIVE_JSON} {SC} {NGRAM4}", "0.31.0", []),
        (f"{LLAMA} {SC} {NGRAM4} {SC} {ADAPTIVE_JSON}", "0.31.0", ["VL349"]),
        (f"{LLAMA} {SC} {BOGUS_JSON} {SC} {NGRAM4}", "0.9.2", []),
        (f"{LLAMA} {SC} {NGRAM4} {SC} {BOGUS_JSON}", "0.34.0", ["VL006"]),
        # a value json.loads refuses fails whichever comes last (argparse's type runs on each)
        (f"{LLAMA} {SC} '{{\"method\": ' {SC} {NGRAM4}", "0.33.0", ["VL007"]),
        # dotted keys after the JSON: their object replaces it
        (f"{LLAMA} {SC} {BOGUS_JSON} {DOTTED}", "0.28.0", []),
        (f"{LLAMA} {SC} {FLY_JSON} {DOTTED}", "0.31.0", []),
        (f"{LLAMA} {SC} {ADAPTIVE_JSON} {DOTTED}", "0.31.0", []),
        # JSON after the dotted keys: the dotted object still comes last (oracle 0.34.0:
        # accepted with the bogus key in the JSON)
        (f"{LLAMA} {DOTTED} {SC} {BOGUS_JSON}", "0.34.0", []),
        (f"{LLAMA} {DOTTED} {SC} {BOGUS_JSON}", "0.33.0", []),
        (f"{LLAMA} {DOTTED} {SC} {ADAPTIVE_JSON}", "0.31.0", []),
        (f"{LLAMA} {DOTTED} {SC} {FLY_JSON}", "0.28.0", []),
        # ... and the dotted keys are what vLLM judges
        (f"{LLAMA} {SC} {NGRAM4} {DOTTED} --speculative-config.bogus_key 1", "0.34.0",
         ["VL006"]),
        (f"{LLAMA} {SC} {NGRAM4} {DOTTED} --speculative-config.rejection_sample_method fly",
         "0.31.0", ["VL005"]),
        # a --spec-* shortcut meets the value that won, not the one argparse dropped
        (f"{LLAMA} {SC} {NGRAM4} {SC} '{{\"num_speculative_tokens\": 4}}' --spec-method ngram",
         "0.31.0", []),
        (f"{LLAMA} {SC} '{{\"num_speculative_tokens\": 4}}' {SC} {NGRAM4} --spec-method ngram",
         "0.31.0", ["VL013"]),
        # the dotted key wins, so the token count is gone (oracle 0.33.0: speculative.py:1947)
        (f"{LLAMA} {SC} {NGRAM4} --speculative-config.prompt_lookup_max 4 --spec-method ngram",
         "0.33.0", ["VL396"]),
        # a config dataclass is validated on every occurrence (oracle 0.33.0: "bogus_key:
        # Unexpected keyword argument", vllm/engine/arg_utils.py:372, stage parse)
        (f"{LLAMA} --compilation-config '{{\"bogus_key\": 1}}' --compilation-config '{{}}'",
         "0.33.0", ["VL006"]),
    ],
)  # fmt: skip
def test_a_json_flag_given_more_than_once(argv: str, release: str, expected: list[str]) -> None:
    assert sorted(rules_of(argv, release)) == expected


@pytest.mark.parametrize("release", ["0.9.2", "0.28.0", "0.31.0", "0.33.0", "0.34.0"])
def test_the_dotted_object_replaces_the_full_json_before_or_after(release: str) -> None:
    dotted = {"method": "ngram", "num_speculative_tokens": 3}
    for argv in (f"m {SC} {FLY_JSON} {DOTTED}", f"m {DOTTED} {SC} {FLY_JSON}"):
        assert settings(argv, release).document["speculative_config"] == dotted
    twice = settings(f"m {SC} {FLY_JSON} {SC} {NGRAM5}", release)
    assert twice.document["speculative_config"] == {"method": "ngram", "num_speculative_tokens": 5}


def test_dotted_keys_of_one_written_name_make_one_object_the_last_name_wins() -> None:
    # `-sc.x` and `--speculative-config.y` are gathered apart and appended in the order each
    # name first appears: argparse keeps the second (argparse_utils.py:446-502 in 0.33)
    doc = settings(
        "m -sc.method ngram --speculative-config.num_speculative_tokens 3 -sc.prompt_lookup_max 2",
        "0.33.0",
    ).document
    assert doc["speculative_config"] == {"num_speculative_tokens": 3}
    doc = settings(
        "m --speculative_config.method ngram --speculative-config.num_speculative_tokens 3",
        "0.33.0",
    ).document
    assert doc["speculative_config"] == {"method": "ngram", "num_speculative_tokens": 3}


def test_list_append_keys_add_up_as_strings() -> None:
    # `--x.key+ a,b` is json.dumps(value.split(",")): a list of strings, added to the list of
    # the same key (argparse_utils.py:472-474, recursive_dict_update :421-438 in 0.33)
    doc = settings(
        "m --compilation-config.splitting_ops+ a,b --compilation-config.splitting_ops+ 3",
        "0.33.0",
    ).document
    assert doc["compilation_config"] == {"splitting_ops": ["a", "b", "3"]}


def test_positions_point_at_the_value_that_counts() -> None:
    argv = f"{LLAMA} {SC} {NGRAM5} {SC} {FLY_JSON}"
    second = argv.rindex(FLY_JSON)  # the JSON that set the keys: its members, as in a file
    findings = check_command_line(argv, "0.28.0")
    assert {(f.rule, f.span.col) for f in findings} == {
        ("VL005", argv.index('"rejection_sample_method"', second) + 1),
        ("VL006", argv.index('"fly_window_size"', second) + 1),
    }

    argv = f"{LLAMA} {SC} {FLY_JSON} {DOTTED}"
    found = settings(argv, "0.31.0")
    dotted_col = argv.index("--speculative-config.num_speculative_tokens") + 1
    span = found.span("speculative_config.num_speculative_tokens")
    assert isinstance(span, Span) and span.col == dotted_col
    assert found.span("speculative_config") is None  # the replaced JSON is forgotten

    argv = f"{LLAMA} {SC} {NGRAM4} {DOTTED} --speculative-config.rejection_sample_method fly"
    [finding] = check_command_line(argv, "0.31.0")
    assert finding.span.col == argv.index("--speculative-config.rejection_sample_method") + 1


def test_an_unreadable_value_replaced_by_a_later_one_is_no_longer_unreadable() -> None:
    found = settings(f"m {SC} $SPEC {SC} {NGRAM4}", "0.33.0")
    assert not found.is_opaque("speculative_config")
    assert found.document["speculative_config"]["num_speculative_tokens"] == 4
    assert settings(f"m {SC} {NGRAM4} {SC} $SPEC", "0.33.0").is_opaque("speculative_config")


def test_the_config_file_and_the_command_line_are_one_argv(tmp_path: Path) -> None:
    """vLLM puts the --config file's flags before the command line's: the command line's
    full JSON replaces the file's, so the file's shortcut-conflicting key is gone."""
    (tmp_path / "vllm.yaml").write_text(
        'speculative-config: {"method": "ngram", "num_speculative_tokens": 3}\n', "utf-8"
    )
    (tmp_path / "run.sh").write_text(
        "#!/bin/sh\nvllm serve m --config vllm.yaml --spec-tokens 3 "
        "--speculative-config.method ngram\n",
        "utf-8",
    )
    run = run_cli("--vllm-version", "0.33.0", "--format", "json", "run.sh", cwd=tmp_path)
    assert [f["rule"] for f in run.findings()] == [], run.out
