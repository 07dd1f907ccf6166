"""schemas/feature-lists.json: vLLM's lists of unsupported features as data (issue 26: no
release bound of a verdict written in Python). Behaviour is proved by the rules that read the
lists (VL340, VL348, VL349, VL352: their examples at both ends of each range, goldens and the
recorded conformance verdicts); these tests hold the data itself to its contract."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from conftest import REPO
from vllm_lint.effective.derive import feature_lists
from vllm_lint.effective.settings import Settings
from vllm_lint.fastschema import compile_schema
from vllm_lint.model import ReleaseChoice
from vllm_lint.release import key

SCHEMAS = REPO / "schemas"
PP_WITHOUT_BACKEND = (
    "Pipeline Parallelism without Ray distributed executor or multiprocessing executor or"
    " external launcher"
)
DATA = json.loads((SCHEMAS / "feature-lists.json").read_text(encoding="utf-8"))


def test_the_file_follows_its_schema() -> None:
    schema = json.loads((SCHEMAS / "feature-lists.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(DATA, schema)


def test_every_entry_names_a_list_and_lies_inside_its_range() -> None:
    lists = DATA["lists"]
    for entry in DATA["features"]:
        spec = lists[entry["list"]]
        if "include" in entry:
            assert entry["include"] in lists and entry["include"] != entry["list"]
        since = key(entry.get("since", spec["since"]))
        before = key(entry.get("before", spec.get("before", "999.0.0")))
        assert key(spec["since"]) <= since < before, entry
        assert before <= key(spec.get("before", "999.0.0")), entry


def test_every_condition_is_in_the_compiled_subset() -> None:
    conditions = [e["when"] for e in DATA["features"]]
    conditions += [s["when"] for s in DATA["lists"].values() if "when" in s]
    assert all(compile_schema(c) is not None for c in conditions)


def test_every_list_is_read_by_a_rule_and_every_derived_list_is_here() -> None:
    rules_text = "".join(p.read_text(encoding="utf-8") for p in SCHEMAS.glob("rules/*/*.json"))
    read = set(re.findall(r"derived\.(\w+)", rules_text))
    put = {n for n, s in DATA["lists"].items() if "put_since" not in s or s["put_since"]}
    assert put <= read, f"lists no rule reads: {sorted(put - read)}"


def _settings(document: dict[str, object], opaque: tuple[str, ...] = ()) -> Settings:
    settings = Settings(ReleaseChoice("0.10.0", "test"))
    settings.document.update(document)
    settings.opaque.update(opaque)
    return settings


@pytest.mark.parametrize(
    ("document", "opaque", "expected"),
    [
        # 0.10.0's oracle: the first refused feature in vLLM's order
        ({"preemption_mode": "swap", "enable_prompt_embeds": True}, (), ["--preemption-mode"]),
        ({"enable_prompt_embeds": True}, (), ["--enable-prompt-embeds"]),
        ({"load_format": "sharded_state"}, (), ["--load_format sharded_state"]),
        ({"load_format": "tensorizer"}, (), []),  # refused before 0.9.0 only
        ({"pipeline_parallel_size": 2}, (), []),  # None is a PP backend from 0.9.1
        (
            {"pipeline_parallel_size": 2, "distributed_executor_backend": "uni"},
            (),
            [PP_WITHOUT_BACKEND],
        ),
        # an unreadable flag before the refused one: vLLM's order cannot be followed past it
        ({"preemption_mode": "swap"}, ("logits_processor_pattern",), None),
    ],
)
def test_a_first_match_list_follows_vllms_order(
    document: dict[str, object], opaque: tuple[str, ...], expected: list[str] | None
) -> None:
    found = feature_lists.features(
        "v1_unsupported_feature", _settings(document, opaque), (0, 10, 0)
    )
    assert (None if found is None else [text for text, _ in found]) == expected


def test_an_included_list_counts_only_where_it_applies() -> None:
    document = {
        "derived": {"ubatching": True},
        "enable_lora": True,
        "env": {"VLLM_USE_V2_MODEL_RUNNER": "1"},
    }
    on_v2 = feature_lists.features("v2_runner_unsupported", _settings(document), (0, 31, 0))
    assert on_v2 == [("dual batch overlap with LoRA", "enable_lora")]
    del document["env"]
    assert feature_lists.features("v2_runner_unsupported", _settings(document), (0, 31, 0)) == []


def test_a_schema_outside_the_subset_is_a_data_error() -> None:
    with pytest.raises(ValueError, match="outside the subset"):
        feature_lists._compiled({"$ref": "#/x"}, "features[0]")
