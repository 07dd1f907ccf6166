from vllm import LLM, AsyncEngineArgs, AsyncLLMEngine, EngineArgs, LLMEngine
from vllm.config import CompilationConfig  # noqa: F401

MODEL = "Qwen/Qwen3-8B"


def offline(draft: str) -> LLM:
    return LLM(
        model=MODEL,
        tensor_parallel_size=2,
        enforce_eager=False,
        speculative_config={"method": "eagle", "model": draft, "num_speculative_tokens": 3},
        compilation_config={"cudagraph_mode": "FULL_AND_PIECEWISE"},
    )


def from_dict(use_lora: bool) -> LLM:
    engine_args = {"model": MODEL, "max_model_len": 8192, "seed": 0}
    engine_args["gpu_memory_utilization"] = 0.85
    if use_lora:
        engine_args["enable_lora"] = True
    else:
        engine_args["max_loras"] = 0
    engine_args.update({"max_num_seqs": 128})
    return LLM(**engine_args)


def engine(model_path: str) -> LLMEngine:
    args = EngineArgs(model=model_path, max_num_batched_tokens=8192)
    return LLMEngine.from_engine_args(args)


def async_engine(model_path: str, **kwargs) -> AsyncLLMEngine:
    return AsyncLLMEngine.from_engine_args(
        AsyncEngineArgs(model=model_path, enable_log_requests=True, **kwargs)
    )


class LLMClient:
    """Not vLLM's: a class of this module that happens to be called LLM."""


def client() -> None:
    LLMClient()
