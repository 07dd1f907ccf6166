"""How vLLM's Python API takes keyword arguments, release by release, where it differs from
`vllm serve` taking the flags of the same names (schemas/python-api.json, written by
tools/extract_python_api.py from each release's vllm/engine/arg_utils.py and
vllm/entrypoints/llm.py).

- `EngineArgs(**kw)` accepts its dataclass fields only; `AsyncEngineArgs` adds request
  logging; `LLM(...)` its own parameters and, through `**kwargs`, the fields of
  `EngineArgs`. Any other keyword is a `TypeError` (VL023), also for the server's own flags
  (`port`, `api_key`): they are no engine arguments.
- A field with no flag of the same name is not checked.
- `LLM` drops the keys its config classes do not know from the dicts it is given for them
  (`compilation_config`, and from 0.11 `structured_outputs_config`, from 0.14 `profiler_config`
  and `attention_config`: `is_init_field`), where the command line refuses them; an `int`
  `compilation_config` is its `level` (0.9-0.10) or `mode` (0.11+).
- `LLM` turns statistics logging off unless told otherwise (`disable_log_stats=True`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

from vllm_lint.argv.catalog import Catalog
from vllm_lint.model import Problem, ReleaseChoice, Token, problem
from vllm_lint.release import catalog_release, full_key
from vllm_lint.resources import shipped_json


class PythonApi(NamedTuple):
    release: str
    engine_args: frozenset[str]
    async_engine_args: frozenset[str]
    llm_params: frozenset[str]
    llm_sets: Mapping[str, Any]
    llm_filters: frozenset[str]
    llm_compilation_int: str | None
    source: str

    def accepts(self, api: str) -> frozenset[str]:
        if api == "LLM":
            return self.engine_args | self.llm_params
        if api == "AsyncEngineArgs":
            return self.engine_args | self.async_engine_args
        return self.engine_args


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = shipped_json("python-api.json")
    return data


@cache
def api_of(release: str) -> PythonApi:
    data = _data()
    release = catalog_release(release)
    order = data["releases"]
    if release not in data["per_release"]:  # 0.33.1: the release extracted for its series
        minor = full_key(release)[:2]
        same = [r for r in order if full_key(r)[:2] == minor]
        older = [r for r in order if full_key(r) <= full_key(release)]
        release = (same or older or order)[-1]
    at = order.index(release)

    def held(ranges: Mapping[str, Sequence[str]]) -> frozenset[str]:
        return frozenset(
            name
            for name, (first, last) in ranges.items()
            if order.index(first) <= at <= order.index(last)
        )

    entry = data["per_release"][release]
    llm = entry["llm"]
    return PythonApi(
        release=release,
        engine_args=held(data["engine_args"]),
        async_engine_args=held(data["async_engine_args"]),
        llm_params=frozenset(llm["positional"]) | frozenset(llm["keyword"]),
        llm_sets=entry["llm_sets"],
        llm_filters=frozenset(entry["llm_filters"]),
        llm_compilation_int=entry["llm_compilation_int"],
        source=entry["engine_args_source"],
    )


def class_of(api: str) -> str:
    """`vllm.engine.arg_utils.AsyncEngineArgs` -> `AsyncEngineArgs`."""
    return api.rpartition(".")[2]


def prepare(
    api: str, argv: Sequence[Token], release: ReleaseChoice, cat: Catalog
) -> tuple[list[Token], list[Problem]]:
    """The argv the parser reads for a launch through the Python API, and the keywords the
    class refuses. Words that are not `--keyword` (the model, unknown `**kwargs`) pass.

    Only vLLM's own classes refuse a keyword here: a module that wraps them
    (`verl.third_party.vllm.LLM`) may take parameters of its own, which are left out."""
    known = api_of(release.version)
    strict = api.split(".")[0] == "vllm"
    api = class_of(api)
    accepted = known.accepts(api)
    out: list[Token] = []
    problems: list[Problem] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        end = i + 1
        if tok.opaque or not tok.text.startswith("--"):
            out.append(tok)
            i = end
            continue
        while end < len(argv) and not (argv[end].text.startswith("--") and not argv[end].opaque):
            end += 1
        flag, _, subkey = tok.text.partition(".")
        name = flag[2:].replace("-", "_")
        if name not in accepted and name.startswith("no_") and name[3:] in accepted:
            name = name[3:]  # `x=False` written as the flag's `--no-x`
        if name not in accepted:
            if strict:
                problems.append(problem("VL023", tok.span, release, api=api, name=name))
        elif cat.resolve(flag) is None and cat.resolve("--" + name.replace("_", "-")) is None:
            pass  # a field no flag sets: not checked
        else:
            out += _as_llm(api, known, name, subkey, argv[i:end], cat)
        i = end
    return out, problems


def _as_llm(
    api: str, known: PythonApi, name: str, subkey: str, words: Sequence[Token], cat: Catalog
) -> list[Token]:
    """What `LLM` does with its config dicts before `EngineArgs` sees them."""
    if api != "LLM" or name not in known.llm_filters or len(words) != 2 or words[1].opaque:
        return list(words)
    flag, value = words
    resolved = cat.resolve(flag.text.partition(".")[0])
    keys = resolved[0].json_keys if resolved is not None else None
    if subkey:  # a dotted key LLM drops when its class has no such field
        return list(words) if keys is None or subkey.split(".")[0] in keys else []
    if name == "compilation_config" and value.text.isdigit() and known.llm_compilation_int:
        return [flag, Token(json.dumps({known.llm_compilation_int: int(value.text)}), value.span)]
    try:
        data = json.loads(value.text)
    except ValueError:
        return list(words)
    if isinstance(data, dict) and keys is not None:
        data = {k: v for k, v in data.items() if k in keys}
        return [flag, Token(json.dumps(data), value.span)]
    return list(words)
