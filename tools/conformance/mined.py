"""Cases for every mined constraint of a release (schemas/validation/<release>.json).

For each field a flag or a key of a JSON flag reaches (nested config classes included): each
bound at the bound itself and one step past it, every `Literal` and enum with a value it does
not have, and every class that refuses unknown keys with one. The models rotate over six
kinds (dense, MoE, MLA, hybrid Mamba …), so that a verdict does not hang on one architecture.
The cases are deterministic: the same data gives the same cases, hence the same keys.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from vllm_lint.argv import catalog
from vllm_lint.argv.mined import validation_for

from .cases import Case

MODELS = (
    "meta-llama/Llama-3.1-8B-Instruct",
    "Qwen/Qwen3-8B",
    "Qwen/Qwen3-30B-A3B",
    "nvidia/NVIDIA-Nemotron-Nano-9B-v2",
    "deepseek-ai/DeepSeek-V3",
    "mistralai/Mistral-7B-Instruct-v0.3",
    "microsoft/Phi-4-mini-instruct",
)
# What a JSON flag needs besides the key under test, so that the case tests that key and not
# a missing partner (SpeculativeConfig needs a method; KVTransferConfig a connector and role).
BASE: Mapping[str, Mapping[str, Any]] = {
    "--speculative-config": {"method": "ngram", "num_speculative_tokens": 3},
    "--kv-transfer-config": {"kv_connector": "NixlConnector", "kv_role": "kv_both"},
}
# Flags whose value starts something a CPU-only oracle cannot judge (a second process, a
# port, a file), or whose check is the machine's: not asked.
SKIP_FLAGS = frozenset({"--port", "--config", "--api-server-count", "--headless"})
_UNKNOWN = "bogus_key"


def cases(release: str) -> Iterator[Case]:
    data = validation_for(catalog.catalog_for(release).release)
    if data is None:
        return
    made = _Maker(release, data)
    yield from made.flag_cases()
    yield from made.json_cases()
    yield from made.model_cases()


class _Maker:
    def __init__(self, release: str, data: Mapping[str, Any]) -> None:
        self.release = release
        self.data = data
        self.cat = catalog.catalog_for(release)
        self.n = 0

    def _case(self, words: list[str], what: str) -> Case:
        model = MODELS[self.n % len(MODELS)]
        self.n += 1
        return Case.make(self.release, [model, *words], {}, f"mined {what}", family="mined")

    # -- flags ------------------------------------------------------------------------------

    def flag_cases(self) -> Iterator[Case]:
        classes = self.data["classes"]
        for flag, target in sorted(self.data["flags"].items()):
            spec = self.cat.flags.get(flag)
            if spec is None or flag in SKIP_FLAGS or flag in self.data["json_flags"]:
                continue
            if spec.is_bool or spec.nargs in ("+", "*"):
                continue
            condition = self.data["conditional"].get(flag)
            if condition == "":
                continue
            prefix = [condition] if condition else []
            owner, _, name = target.partition(".")
            cls = classes.get(owner, {})
            rec = cls.get("fields", {}).get(name)
            if rec is None or cls.get("model_before") or _unjudged(rec):
                continue
            for value, what in _probes(rec, flag_level=True):
                if spec.choices and what.startswith("literal"):
                    continue
                text = value if isinstance(value, str) else json.dumps(value)
                yield self._case([*prefix, flag, text], f"{target} {what}")

    # -- model facts ------------------------------------------------------------------------

    def model_cases(self) -> Iterator[Case]:
        """The limits that come from each model's config.json (schemas/models.json), at the
        limit and one past it, and the spellings vLLM takes that are no limit at all."""
        from vllm_lint.effective.derive.models import model_facts

        for model in MODELS:
            facts = model_facts(model)
            if facts is None:
                continue
            limit, default = facts["max_model_len_limit"], facts["max_model_len"]
            for words, what in (
                (["--max-model-len", str(limit)], "max_model_len at the model's limit"),
                (["--max-model-len", str(limit + 1)], "max_model_len one past the limit"),
                (["--max-model-len", "-1"], "max_model_len -1 (the model's maximum)"),
                (["--long-prefill-token-threshold", str(default)], "long prefill at max len"),
                (["--long-prefill-token-threshold", str(default + 1)], "long prefill past it"),
                (["--no-enable-chunked-prefill"], "chunked prefill off"),
            ):
                yield Case.make(
                    self.release, [model, *words], {}, f"mined model {what}", family="mined"
                )
        spec = {"method": "ngram", "num-speculative-tokens": 3, "prompt-lookup-max": 4}
        yield self._case(["--speculative-config", json.dumps(spec)], "dash keys")
        names = self.data.get("registries", {}).get("kv_connector", {}).get("names", [])
        if "NixlConnector" in names:  # a registered name, and one the release lacks
            for connector in ("NixlConnector", "NixlConector"):
                value = {"kv_connector": connector, "kv_role": "kv_both"}
                words = [MODELS[0], "--kv-transfer-config", json.dumps(value)]
                yield Case.make(
                    self.release, words, {}, f"mined kv_connector {connector}", family="mined"
                )

    # -- JSON flags -------------------------------------------------------------------------

    def json_cases(self) -> Iterator[Case]:
        for flag, how in sorted(self.data["json_flags"].items()):
            if flag not in self.cat.flags or not how.get("validated", True):
                continue
            base = dict(BASE.get(flag, {}))
            yield from self._object_cases(flag, how["class"], base, [], how.get("extra"), 0)

    def _object_cases(
        self,
        flag: str,
        cls_name: str,
        base: dict[str, Any],
        path: list[str],
        extra: str | None,
        depth: int,
    ) -> Iterator[Case]:
        cls = self.data["classes"].get(cls_name)
        if cls is None or cls.get("model_before"):
            return
        if extra == "forbid" or (extra is None and cls.get("extra") == "forbid"):
            yield self._json_case(flag, base, [*path, _UNKNOWN], 1, f"{cls_name} unknown key")
        for name, rec in sorted(cls["fields"].items()):
            if rec.get("init") is False or _unjudged(rec) or (not path and name in base):
                continue
            if rec.get("type") == "class" and depth < 2 and isinstance(rec.get("class"), str):
                child = self.data["classes"].get(rec["class"], {})
                own = child.get("extra")
                own = extra if own in (None, "inherit") else own
                yield from self._object_cases(
                    flag, rec["class"], base, [*path, name], own, depth + 1
                )
                continue
            for value, what in _probes(rec, flag_level=False):
                yield self._json_case(flag, base, [*path, name], value, f"{cls_name}.{name} {what}")

    def _json_case(
        self, flag: str, base: Mapping[str, Any], path: list[str], value: Any, what: str
    ) -> Case:
        obj = json.loads(json.dumps(base))
        node = obj
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
        return self._case([flag, json.dumps(obj)], what)


def _unjudged(rec: Mapping[str, Any]) -> bool:
    return bool(rec.get("rewritten") or rec.get("skip"))


def _probes(rec: Mapping[str, Any], flag_level: bool) -> Iterator[tuple[Any, str]]:
    """Values at each bound and one step past it, and a value outside a closed set."""
    kind = rec.get("type")
    if kind in ("int", "float"):
        step = 1 if kind == "int" else 0.01
        for bound in ("gt", "ge", "lt", "le"):
            if bound not in rec:
                continue
            b = rec[bound]
            b = int(b) if kind == "int" else float(b)
            past = b - step if bound in ("ge", "gt") else b + step
            if bound in ("gt", "lt"):  # the bound itself is refused; one step in is taken
                past = b + step if bound == "gt" else b - step
            yield b, f"{bound} {b} at the bound"
            yield _round(past), f"{bound} {b} one step past"
        if "multiple_of" in rec:
            yield rec["multiple_of"] + 1, "multiple_of"
    elif kind == "literal":
        values = rec.get("values", [])
        if any(isinstance(v, str) for v in values):
            yield "bogus_value", "literal wrong value"
        elif values and all(isinstance(v, int) for v in values if v is not None):
            yield max(v for v in values if v is not None) + 1, "literal wrong value"
    elif kind == "enum" and not flag_level:
        yield "bogus_member", "enum wrong name"


def _round(value: Any) -> Any:
    return round(value, 6) if isinstance(value, float) else value
