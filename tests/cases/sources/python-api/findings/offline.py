from vllm import LLM, AsyncEngineArgs, AsyncLLMEngine


def offline() -> LLM:
    # `port` is a flag of `vllm serve`, not an engine argument: LLM(...) raises a TypeError
    return LLM(model="Qwen/Qwen3-8B", port=8000, max_model_len="long")


def data_parallel() -> LLM:
    return LLM("Qwen/Qwen3-8B", data_parallel_size=2)


def serve_async() -> AsyncLLMEngine:
    # disable_log_requests left AsyncEngineArgs in 0.11 (enable_log_requests replaced it)
    args = AsyncEngineArgs(model="Qwen/Qwen3-8B", disable_log_requests=True)
    return AsyncLLMEngine.from_engine_args(args)


def switched_off() -> LLM:
    # a keyword LLM does not take is a TypeError whatever its value, False and None included
    return LLM("Qwen/Qwen3-8B", enforce_eager=False, use_v2_block_manager=False, swap_space=None)
