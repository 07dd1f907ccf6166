"""One conformance case: a `vllm serve` argument list for one release, with its env and model kind.

A case is what both sides judge: vLLM (through the oracle) and vllm-lint (through
`check_command_line`). Its key is a hash of what decides the verdict, so a recorded verdict
keeps its identity when the generator or the order of cases changes.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

# The releases the oracle covers (shared/oracle/README.md), oldest first.
RELEASES = ("0.28.0", "0.30.0", "0.31.0", "0.33.0", "0.34.0")

# Model name -> oracle model kind: the table of shared/oracle/oracle.py (MODEL_RULES), plus the
# Kimi-Linear kind this tool adds (tools/conformance/models/). First match wins.
MODEL_RULES = (
    (r"kimi[-_.]?linear", "kimi-linear"),
    (r"nemotron", "nemotron-h"),
    (r"qwen3-?\d*b?-a\d+b|qwen.*moe|qwen3-30b|qwen3-235b", "qwen-moe"),
    (r"deepseek", "deepseek-v3"),
    (r"awq", "qwen2-awq"),
    (r"llama-3\.[0-9]-70b|llama.*70b", "llama-70b"),
    (r"llama", "llama"),
    (r"qwen3-32b", "qwen3-32b"),
    (r"qwen3", "qwen3"),
    (r"qwen2\.5-14b", "qwen2-14b"),
    (r"qwen2", "qwen2"),
    (r"mistral", "mistral"),
    (r"phi", "phi3"),
)
DEFAULT_KIND = "llama"
# The public checkpoint each oracle model kind copies (shared/oracle/make_models.py): a case
# naming another model is asked with this name instead, so that the recorded argv names the
# model vLLM actually judged (a verdict may hang on the model's heads, experts or layers).
CANONICAL = {
    "llama": "meta-llama/Llama-3.1-8B-Instruct",
    "llama-70b": "meta-llama/Llama-3.3-70B-Instruct",
    "nemotron-h": "nvidia/NVIDIA-Nemotron-Nano-9B-v2",
    "qwen-moe": "Qwen/Qwen3-30B-A3B",
    "qwen3": "Qwen/Qwen3-8B",
    "qwen3-32b": "Qwen/Qwen3-32B",
    "qwen2": "Qwen/Qwen2.5-7B-Instruct",
    "qwen2-14b": "Qwen/Qwen2.5-14B-Instruct",
    "qwen2-awq": "Qwen/Qwen2.5-32B-Instruct-AWQ",
    "mistral": "mistralai/Mistral-7B-Instruct-v0.3",
    "deepseek-v3": "deepseek-ai/DeepSeek-V3",
    "phi3": "microsoft/Phi-4-mini-instruct",
    "kimi-linear": "moonshotai/Kimi-Linear-48B-A3B-Instruct",
}
# Named models whose architecture no oracle kind copies: asking vLLM with a stand-in would
# judge another model (DeepSeek-V3.2's sparse attention, vision-language models, gpt-oss).
NO_STAND_IN = re.compile(r"deepseek-v3\.2|-vl-|gpt-oss", re.IGNORECASE)
# Environment variables handed to vLLM: the ones that can change its verdict. Others in a
# fixture (tokens, ports, cache folders) would only make the oracle's run less hermetic.
_ENV_PASSED = re.compile(r"VLLM_[A-Z0-9_]+|CUDA_VISIBLE_DEVICES")


def kind_of_model(name: str | None) -> str:
    for pattern, kind in MODEL_RULES:
        if name and re.search(pattern, name, re.IGNORECASE):
            return kind
    return DEFAULT_KIND


def model_of(argv: Iterable[str]) -> str | None:
    """The model a `vllm serve` argv names: `--model X` or the first bare word."""
    words = list(argv)
    for i, word in enumerate(words):
        if word == "--model" and i + 1 < len(words):
            return words[i + 1]
        if word.startswith("--model="):
            return word.partition("=")[2]
    for i, word in enumerate(words):
        if not word.startswith("-") and (i == 0 or not words[i - 1].startswith("-")):
            return word
    return words[0] if words and not words[0].startswith("-") else None


def _renamed(words: tuple[str, ...], old: str, new: str) -> tuple[str, ...]:
    out = list(words)
    for i, word in enumerate(out):
        if word == old:
            out[i] = new
            break
        if word == f"--model={old}":
            out[i] = f"--model={new}"
            break
    return tuple(out)


def world_size(words: Iterable[str]) -> int:
    """tensor x pipeline x data parallel sizes written on the command line (1 when unset)."""
    sizes = {"tp": 1, "pp": 1, "dp": 1}
    names = {
        "-tp": "tp",
        "--tensor-parallel-size": "tp",
        "-pp": "pp",
        "--pipeline-parallel-size": "pp",
        "-dp": "dp",
        "--data-parallel-size": "dp",
    }
    items = list(words)
    for i, word in enumerate(items):
        flag, eq, value = word.partition("=")
        if flag in names:
            value = value if eq else (items[i + 1] if i + 1 < len(items) else "")
            if value.isdigit():
                sizes[names[flag]] = int(value)
    return sizes["tp"] * sizes["pp"] * sizes["dp"]


def passed_env(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in sorted(env.items()) if _ENV_PASSED.fullmatch(k)}


@dataclass(frozen=True)
class Case:
    release: str
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    model_kind: str = DEFAULT_KIND
    origin: str = ""  # where the case came from: "example VL110 fail0", "fixture …", "gen …"
    family: str = ""  # the rule family the case was made for (generator), else ""
    gpus: int = 8
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def make(
        cls,
        release: str,
        argv: Iterable[str],
        env: Mapping[str, str] | None = None,
        origin: str = "",
        family: str = "",
        model_kind: str | None = None,
    ) -> Case:
        words = tuple(argv)
        name = model_of(words)
        kind = model_kind or kind_of_model(name)
        if name is not None and name != CANONICAL[kind]:
            words = _renamed(words, name, CANONICAL[kind])
            origin += f" (model {name})"
        return cls(release, words, tuple(sorted((env or {}).items())), kind, origin, family)

    @property
    def env_dict(self) -> dict[str, str]:
        return dict(self.env)

    @property
    def key(self) -> str:
        """Identity of the question asked of vLLM (not of where the case came from)."""
        blob = json.dumps([self.release, self.argv, self.env, self.model_kind, self.gpus])
        return hashlib.sha1(blob.encode()).hexdigest()[:12]

    @property
    def line(self) -> str:
        """The argv as one shell line, as `check_command_line` takes it."""
        return shlex.join(self.argv)

    def oracle_request(self) -> dict[str, Any]:
        request: dict[str, Any] = {
            "id": self.key,
            "argv": list(self.argv),
            "model_kind": self.model_kind,
            "env": self.env_dict,
        }
        if self.gpus != 8:
            request["gpus"] = self.gpus
        return request


def unique(cases: Iterable[Case]) -> Iterator[Case]:
    """The first case of each key (an example and a generated case may ask the same)."""
    seen: set[str] = set()
    for case in cases:
        if case.key not in seen:
            seen.add(case.key)
            yield case
