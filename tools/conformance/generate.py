"""Seeded combinations of rule-relevant flags, for a hybrid Mamba, a KDA, a dense and an MoE model.

Each family draws the flags its rules test, with values around the rules' boundaries
(buffer length vs. 1 + k, backends in several spellings, prefix caching set three ways or
left to the default, the model-runner env var). The same (seed, release, count) always gives
the same cases. Families:

- `replayssm` (VL101-VL120): Nemotron-H and Kimi-Linear with --use-replayssm and its partners;
- `mamba` (VL130-VL133): the Mamba cache and kernel flags on Nemotron-H;
- `flags` (VL001-VL009): argv grammar faults (unknown, removed, abbreviated flags, bad
  values and choices, missing values, broken JSON, unknown JSON keys) on any model;
- `serving` (VL2xx and plain deployments): dense and MoE models with the flags production
  manifests use; the flags of rules outside the families above are drawn here too;
- `mutation`: a rule example with one flag dropped, added or negated (covers new rules
  as soon as they have examples).
"""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Callable, Iterator
from typing import TypeVar

from vllm_lint.argv import catalog
from vllm_lint.rules import registry as rules

from .cases import Case
from .sources import usable

HYBRID = "nvidia/NVIDIA-Nemotron-Nano-9B-v2"
KDA = "moonshotai/Kimi-Linear-48B-A3B-Instruct"
DENSE = ("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen3-8B")
MOE = ("Qwen/Qwen3-30B-A3B", "deepseek-ai/DeepSeek-V3")

# family -> weight of the family in a release's generated cases
WEIGHTS = {"replayssm": 0.46, "mamba": 0.14, "flags": 0.18, "serving": 0.12, "mutation": 0.10}

Words = list[str]
T = TypeVar("T")


class _Draw:
    """The random source of one case, with the release's flag catalog at hand."""

    def __init__(self, rng: random.Random, release: str) -> None:
        self.rng = rng
        self.release = release
        self.cat = catalog.catalog_for(release)

    def p(self, probability: float) -> bool:
        return self.rng.random() < probability

    def pick(self, *options: T) -> T:
        return self.rng.choice(options)

    def has(self, flag: str) -> bool:
        return self.cat.resolve(flag) is not None

    def flag(self, name: str, value: object) -> Words:
        """`--name value` or `--name=value` (both spellings vLLM accepts)."""
        text = value if isinstance(value, str) else json.dumps(value)
        return [f"{name}={text}"] if self.p(0.25) else [name, text]


def _spec(d: _Draw, kda: bool) -> Words:
    """A speculative decoding config in one of the spellings vLLM takes."""
    k = int(d.pick(1, 2, 3, 3, 4, 5, 6, 8, 15, 16))
    # ngram needs no draft model and no package beyond vLLM; Kimi-Linear has no MTP layers
    # (vLLM 0.33 config/speculative.py:1499 refuses "mtp" for it), suffix needs
    # arctic-inference installed: both would test the model or the image, not the flags.
    method = str(d.pick("ngram", "ngram", "ngram", "ngram_gpu"))
    if kda:
        k = int(d.pick(1, 1, 2, 3))
    form = d.rng.random()
    if form < 0.55:
        return d.flag("--speculative-config", {"method": method, "num_speculative_tokens": k})
    if form < 0.8 and d.has("--spec-method"):
        return ["--spec-method", method, "--spec-tokens", str(k)]
    return [
        "--speculative-config.method",
        method,
        "--speculative-config.num_speculative_tokens",
        str(k),
    ]


def _prefix_caching(d: _Draw) -> Words:
    return [
        str(
            d.pick(
                "--enable-prefix-caching",
                "--no-enable-prefix-caching",
                "--no-enable-prefix-caching",
                "--disable-prefix-caching",
            )
        )
    ]


def _backend(d: _Draw) -> Words:
    value = d.pick(
        "triton", "flashinfer", "flashinfer", "flashinfer", "cpu", "FlashInfer", "TRITON"
    )
    return d.flag("--mamba-backend", value)


def _replayssm(d: _Draw) -> tuple[Words, dict[str, str]]:
    kda = d.p(0.22)
    groups: list[Words] = []
    if d.p(0.93):
        groups.append([str(d.pick(*["--use-replayssm"] * 8, "--use_replayssm", "--use-replay"))])
    if d.p(0.7):
        groups.append(_backend(d))
    if d.p(0.6):
        groups.append(_prefix_caching(d))
    if d.p(0.12):
        groups.append(d.flag("--mamba-cache-mode", d.pick("align", "all", "none")))
    if d.p(0.55):
        groups.append(_spec(d, kda))
    if d.p(0.4):
        groups.append(
            d.flag("--replayssm-buffer-len", d.pick(1, 2, 3, 4, 4, 5, 6, 8, 9, 16, 17, 32))
        )
    if d.p(0.12):
        groups.append(
            list(d.pick(["--enable-dbo"], ["--ubatch-size", "2"], ["--ubatch-size", "1"]))
        )
        # microbatching needs a DeepEP/NIXL all2all backend on CUDA (0.33 config/vllm.py:2198)
        groups.append(["--all2all-backend", "deepep_low_latency"])
    if d.p(0.1):
        groups.append(list(d.pick(["-pp", "2"], ["--pipeline-parallel-size", "1"], ["-pp", "4"])))
    if d.p(0.12):
        groups.append(list(d.pick(["-tp", "2"], ["--tensor-parallel-size", "4"], ["-tp", "8"])))
    if d.p(0.1):
        groups.append(
            list(
                d.pick(
                    ["--kv-offloading-size", "4"],
                    ["--kv-offloading-size", "0"],
                    [
                        "--kv-transfer-config",
                        '{"kv_connector":"NixlConnector","kv_role":"kv_both"}',
                    ],
                )
            )
        )
    if d.p(0.12):
        groups.append(d.flag("--dtype", d.pick("float16", "bfloat16", "half", "auto")))
    if d.p(0.08):
        groups.append(["--enable-mamba-cache-stochastic-rounding"])
        if d.p(0.6):
            groups.append(d.flag("--mamba-ssm-cache-dtype", d.pick("float16", "float32")))
    if d.p(0.05):
        groups.append(d.flag("--mamba-block-size", d.pick(256, 512)))
    env: dict[str, str] = {}
    if d.p(0.4):
        env["VLLM_USE_V2_MODEL_RUNNER"] = str(d.pick("0", "1", "0"))
    return _assemble(d, KDA if kda else HYBRID, groups), env


def _mamba(d: _Draw) -> tuple[Words, dict[str, str]]:
    groups: list[Words] = []
    if d.p(0.45):
        groups.append(
            d.flag("--mamba-ssu-algorithm", d.pick("auto", "vertical", "horizontal", "simple"))
        )
    if d.p(0.55):
        groups.append(_backend(d))
    if d.p(0.35):
        groups.append(["--enable-mamba-cache-stochastic-rounding"])
    if d.p(0.4):
        groups.append(
            d.flag("--mamba-ssm-cache-dtype", d.pick("float16", "float32", "bfloat16", "auto"))
        )
    if d.p(0.35):
        size = int(d.pick(256, 512, 1024, 4096))
        groups.append(d.flag("--mamba-block-size", size))
        if d.p(0.3):
            groups.append(d.flag("--max-model-len", size if d.p(0.6) else 8192))
    if d.p(0.5):
        groups.append(_prefix_caching(d))
    if d.p(0.15):
        groups.append(d.flag("--mamba-cache-mode", d.pick("align", "all", "none")))
    if d.p(0.15):
        groups.append(["--use-replayssm"])
    env = {"VLLM_USE_V2_MODEL_RUNNER": "0"} if d.p(0.1) else {}
    return _assemble(d, HYBRID, groups), env


def _model_any(d: _Draw) -> str:
    return str(d.pick(HYBRID, *DENSE, *MOE))


def _typo(name: str, d: _Draw) -> str:
    body = name[2:]
    i = d.rng.randrange(1, len(body))
    return "--" + body[:i] + body[i + 1 :]


_OTHER_RELEASE_FLAGS = (
    "--disable-prefix-caching",  # 0.33+: the disable- spelling of --enable-prefix-caching
    "--enable-mamba-fine-grained-prefix-cache",
    "--enable-mamba-shared-prefix-checkpoint",
    "--swa-bounded-replay",
    "--enable-shm-tensor-arena",
    "--enable-extensible-kv-cache",
    "--use-v2-block-manager",
    "--enable-reasoning",
    "--disable-log-requests",
    "--swap-space",
)


def _flags(d: _Draw) -> tuple[Words, dict[str, str]]:
    model = _model_any(d)
    groups: list[Words] = []
    for _ in range(int(d.pick(0, 1, 2))):
        groups.append(_valid_serving_flag(d, model))
    fault = d.rng.random()
    if fault < 0.16:
        groups.append(
            [
                _typo(
                    str(
                        d.pick(
                            "--max-model-len",
                            "--enable-prefix-caching",
                            "--tensor-parallel-size",
                            "--gpu-memory-utilization",
                            "--mamba-backend",
                            "--use-replayssm",
                        )
                    ),
                    d,
                )
            ]
        )
    elif fault < 0.3:
        flag = str(d.pick(*_OTHER_RELEASE_FLAGS))
        groups.append([flag] if not flag.startswith("--swap") else [flag, "4"])
    elif fault < 0.42:
        groups.append(
            list(
                d.pick(
                    ["--max-num-seqs", "abc"],
                    ["--tensor-parallel-size", "two"],
                    ["--max-model-len", "32k"],
                    ["--max-model-len", "1.5x"],
                    ["--gpu-memory-utilization", "high"],
                    ["--replayssm-buffer-len", "4.5"],
                    ["--enforce-eager=maybe"],
                    ["--enable-prefix-caching=yes"],
                )
            )
        )
    elif fault < 0.54:
        groups.append(
            list(
                d.pick(
                    ["--dtype", "fp16"],
                    ["--dtype", "bf16"],
                    ["--mamba-cache-mode", "all"],
                    ["--mamba-cache-mode", "full"],
                    ["--mamba-ssu-algorithm", "diagonal"],
                    ["--kv-offloading-backend", "disk"],
                    ["--mamba-ssm-cache-dtype", "fp8"],
                )
            )
        )
    elif fault < 0.62:
        groups.append(d.pick(["--max-model-len"], ["--mamba-backend"], ["--speculative-config"]))
        return _assemble(d, model, groups, last=groups.pop()), {}
    elif fault < 0.72:
        groups.append(
            list(
                d.pick(
                    ["--speculative-config", "{method: ngram, num_speculative_tokens: 3}"],
                    ["--speculative-config", '{"method":"ngram","num_speculative_tokens":3'],
                    ["--kv-transfer-config", "NixlConnector"],
                    ["--compilation-config", "{'level': 3}"],
                )
            )
        )
    elif fault < 0.8:
        groups.append(
            list(
                d.pick(
                    ["--speculative-config", '{"method":"ngram","num_spec_tokens":3}'],
                    ["--speculative-config", '{"method":"ngram","num_speculative_tokens":3,"k":2}'],
                    ["--compilation-config", '{"levle":3}'],
                    ["--kv-transfer-config", '{"connector":"NixlConnector","kv_role":"kv_both"}'],
                    ["--speculative-config.num_spec_tokens", "3"],
                )
            )
        )
    elif fault < 0.88:
        groups.append(
            list(
                d.pick(
                    ["--max-num-seq", "64"],
                    ["--gpu-memory", "0.85"],
                    ["--enable-prefix"],
                    ["--max-model", "4096"],
                    ["--enforce"],
                )
            )
        )
    elif fault < 0.94:
        groups.append(list(d.pick(["--enforce-eager", "true"], ["--trust-remote-code", "yes"])))
    else:
        groups.append(
            list(
                d.pick(
                    ["--max_model_len", "4096"],
                    ["--max-num-seqs=128"],
                    ["-O3"],
                    ["-O", "2"],
                    ["-tp=2"],
                    ["--enable_prefix_caching"],
                )
            )
        )
    return _assemble(d, model, groups), {}


def _valid_serving_flag(d: _Draw, model: str) -> Words:
    moe = model in MOE
    choice = d.rng.random()
    if choice < 0.15:
        return d.flag("--tensor-parallel-size", d.pick(1, 2, 4, 8))
    if choice < 0.3:
        return d.flag("--max-model-len", d.pick(2048, 4096, 8192, 16384, 32768))
    if choice < 0.4:
        return d.flag("--max-num-seqs", d.pick(16, 64, 128, 256))
    if choice < 0.5:
        return d.flag("--gpu-memory-utilization", d.pick(0.8, 0.85, 0.9, 0.95))
    if choice < 0.58:
        return [str(d.pick("--enable-chunked-prefill", "--no-enable-chunked-prefill"))]
    if choice < 0.64:
        return ["--enforce-eager"]
    if choice < 0.7:
        return d.flag("--kv-cache-dtype", d.pick("fp8", "auto", "fp8_e4m3"))
    if choice < 0.76:
        return ["--enable-expert-parallel"] if moe else ["--enable-prefix-caching"]
    if choice < 0.82:
        return d.flag("--max-num-batched-tokens", d.pick(8192, 16384, 32768))
    if choice < 0.88:
        return d.flag("--dtype", d.pick("auto", "bfloat16", "float16"))
    if choice < 0.94:
        return ["--trust-remote-code"]
    return d.flag("--seed", d.pick(0, 42))


def _rule_flag_words(d: _Draw, path: str) -> Words | None:
    """A plausible setting of one rule flag (a settings path) written as argv words."""
    if path.startswith(("derived.", "env.", "model")):
        return None
    flag = "--" + path.split(".")[0].replace("_", "-")
    resolved = d.cat.resolve(flag)
    if resolved is None:
        return None
    spec = resolved[0]
    if spec.is_bool:
        return [flag] if d.p(0.7) else [spec.negations[0] if spec.negations else flag]
    values = spec.choices or spec.suggested or spec.enum_values
    if values:
        return d.flag(flag, str(d.pick(*values)))
    if "int" in spec.type:
        return d.flag(flag, d.pick(1, 2, 4, 8, 16, 4096))
    if spec.type == "float":
        return d.flag(flag, d.pick(0.5, 0.9, 4))
    return None


def _serving(d: _Draw) -> tuple[Words, dict[str, str]]:
    model = str(d.pick(*DENSE, *MOE))
    groups = [_valid_serving_flag(d, model) for _ in range(int(d.pick(1, 2, 3, 4)))]
    # flags of the rules outside the ReplaySSM / Mamba / flag-check families (VL2xx …)
    others = [
        r for r in rules.BUILTIN.for_release(d.release) if r.rejects is not None and r.id >= "VL200"
    ]
    if others and d.p(0.7):
        rule = d.rng.choice(others)
        for path in rule.flags:
            words = _rule_flag_words(d, path)
            if words and d.p(0.8):
                groups.append(words)
    if d.p(0.2):
        groups.append(_spec(d, kda=False))
    return _assemble(d, model, groups), {}


def _mutation(d: _Draw) -> tuple[Words, dict[str, str]]:
    examples = [
        (r, e if isinstance(e, dict) else {"argv": e})
        for r in rules.builtin_rules()
        for verdict in ("fail", "pass")
        for e in r.examples.get(verdict, [])
        if not isinstance(e, dict) or "argv" in e  # Python examples have no command line
    ]
    rule, example = d.rng.choice(examples)
    words = shlex.split(example["argv"])
    env = dict(example.get("env") or {})
    move = d.rng.random()
    flags_at = [i for i, w in enumerate(words) if w.startswith("-")]
    if move < 0.35 and flags_at:
        i = d.rng.choice(flags_at)
        end = i + 1
        if "=" not in words[i] and end < len(words) and not words[end].startswith("-"):
            end += 1
        del words[i:end]
    elif move < 0.7:
        paths = [p for p in rule.flags if not p.startswith("derived.")]
        extra = _rule_flag_words(d, d.rng.choice(paths)) if paths else None
        words += extra or _prefix_caching(d)
    elif move < 0.85:
        if env:
            env.clear()
        else:
            env["VLLM_USE_V2_MODEL_RUNNER"] = str(d.pick("0", "1"))
    else:
        words += _spec(d, kda="kimi" in words[0].lower())
    return words, env


def _assemble(d: _Draw, model: str, groups: list[Words], last: Words | None = None) -> Words:
    """The model first, then the flag groups (sometimes shuffled), then a trailing group."""
    if d.p(0.3):
        d.rng.shuffle(groups)
    words = [model] if d.p(0.9) else ["--model", model]
    for group in groups:
        words += group
    return words + (last or [])


FAMILIES: dict[str, Callable[[_Draw], tuple[Words, dict[str, str]]]] = {
    "replayssm": _replayssm,
    "mamba": _mamba,
    "flags": _flags,
    "serving": _serving,
    "mutation": _mutation,
}


def generate(release: str, count: int, seed: int = 0) -> Iterator[Case]:
    """`count` cases for `release` (fewer once duplicates are dropped by the caller).

    Each case draws from its own random source, so that a change in one family (or in the
    rule examples that mutations start from) leaves the other cases, and their recorded
    verdicts, as they were."""
    names = list(WEIGHTS)
    weights = [WEIGHTS[n] for n in names]
    for n in range(count):
        rng = random.Random(f"{seed}:{release}:{n}")
        family = rng.choices(names, weights)[0]
        words, env = FAMILIES[family](_Draw(rng, release))
        if not usable(words):
            continue  # more than 8 GPUs, a leading `serve`, a model the oracle has no copy of
        yield Case.make(release, words, env, f"gen seed={seed} #{n}", family=family)
