"""Cases of vLLM's Python API (issue 20): `LLM(...)` and `EngineArgs(...)` calls, asked of vLLM
as the `vllm serve` argv their keyword arguments stand for.

The oracle runs vLLM's serve command line, not its Python API; a keyword argument sets the
same `EngineArgs` field as the flag of the same name, so the argv the linter reads for a call
(`sources/python_api.py`, then `effective/python_api.prepare` for the release) is the question
asked. A call is asked only when every keyword maps to a flag: a keyword the class refuses
(VL023), a field no flag sets, or what only `LLM` does (VL360, its dict filtering) has no
command line, and is left to the tests of the Python reader. The snippet is the case's
origin (`python …`), so the replay can lint the Python itself (tests/test_conformance.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from vllm_lint.argv.catalog import catalog_for
from vllm_lint.effective.python_api import prepare
from vllm_lint.files.sniff import Kind
from vllm_lint.model import ReleaseChoice
from vllm_lint.release import catalog_release
from vllm_lint.sources.registry import extract

from .cases import RELEASES, Case

_LLAMA = "meta-llama/Llama-3.1-8B-Instruct"
_QWEN_MOE = "Qwen/Qwen3-30B-A3B"
# Keyword arguments as code writes them (one call each), spread over the rule families.
_ENGINE = "LLMEngine.from_engine_args(EngineArgs(model={model!r}, {kwargs}))"
CALLS = tuple(
    f"LLM({model!r}, {kwargs})" if model else _ENGINE.format(model=_LLAMA, kwargs=kwargs)
    for model, kwargs in (
        (_LLAMA, "tensor_parallel_size=2, gpu_memory_utilization=0.85"),
        (_LLAMA, "max_model_len='long'"),
        (_LLAMA, "gpu_memory_utilization=1.5"),
        (_LLAMA, "enable_prefix_caching=True, enforce_eager=False, seed=0"),
        (_LLAMA, "max_model_len=8192, max_num_batched_tokens=1024, enable_chunked_prefill=False"),
        (_LLAMA, "max_model_len=4096, max_num_batched_tokens=4096, enable_chunked_prefill=False"),
        (
            _LLAMA,
            "speculative_config={'method': 'ngram', 'num_speculative_tokens': 3, "
            "'prompt_lookup_max': 4}",
        ),
        (_LLAMA, "speculative_config={'method': 'ngram', 'num_speculative_tokens': 0}"),
        (_LLAMA, "enable_lora=True, max_loras=4, max_lora_rank=64"),
        (_LLAMA, "enable_lora=True, max_lora_rank=7"),
        (_LLAMA, "quantization='bitsandbytes'"),
        (_LLAMA, "quantization='fp8', kv_cache_dtype='fp8'"),
        (_LLAMA, "dtype='float16', max_num_seqs=64"),
        (_LLAMA, "kv_cache_dtype='int4'"),
        (_LLAMA, "pipeline_parallel_size=2, distributed_executor_backend='mp'"),
        (_LLAMA, "tensor_parallel_size=3"),
        (_LLAMA, "kv_transfer_config={'kv_connector': 'NixlConnector', 'kv_role': 'kv_both'}"),
        (_LLAMA, "kv_transfer_config={'kv_connector': 'NixlConnector'}"),
        (_QWEN_MOE, "tensor_parallel_size=2, enable_expert_parallel=True"),
        (_QWEN_MOE, "enable_eplb=True"),
        (_LLAMA, "compilation_config={'cudagraph_mode': 'FULL_AND_PIECEWISE'}"),
        (_LLAMA, "compilation_config={'cudagraph_mode': 'NOT_A_MODE'}"),
        (_LLAMA, "max_model_len=4096, max_seq_len_to_capture=8192"),
        (_LLAMA, "swap_space=4"),
        # EngineArgs through LLMEngine.from_engine_args (model None: the engine form)
        (None, "max_num_seqs=0"),
        (None, "block_size=16, max_num_seqs=128"),
        (
            None,
            "async_scheduling=True, pipeline_parallel_size=2, distributed_executor_backend='ray'",
        ),
        (None, "data_parallel_size=2, tensor_parallel_size=4"),
    )
)
IMPORTS = "from vllm import LLM, EngineArgs, LLMEngine\n"


def snippet(call: str) -> str:
    return IMPORTS + call + "\n"


def equivalent_argv(code: str, release: str) -> list[str] | None:
    """The `vllm serve` argv a call stands for in `release`, or None when it has none."""
    cat = catalog_for(catalog_release(release))
    found = extract("<python>", code, Kind.PYTHON, lambda: cat).invocations
    if len(found) != 1 or found[0].api is None:
        return None
    inv = found[0]
    argv, refused = prepare(inv.api, inv.argv, ReleaseChoice(release, "conformance"), cat)
    flags = [t for t in inv.argv if t.text.startswith("--")]
    kept = [t for t in argv if t.text.startswith("--")]
    if refused or len(flags) != len(kept) or any(t.opaque for t in argv):
        return None  # a keyword no flag stands for: no command line to ask
    if [t.text for t in argv] != [t.text for t in inv.argv]:
        return None  # LLM changed a value before EngineArgs saw it (dict filtering)
    return [t.text for t in argv]


def cases(releases: tuple[str, ...] = RELEASES) -> Iterator[Case]:
    for call in CALLS:
        code = snippet(call)
        for release in releases:
            argv = equivalent_argv(code, release)
            if argv is not None:
                yield Case.make(release, argv, None, f"python {call}", family="python-api")
