# VL014 not-an-engine-argument: keyword arguments vLLM's Python API does not take (written by hand:
# the rule has no command line to take examples from)
from vllm import LLM, AsyncEngineArgs, AsyncLLMEngine

# `port` is a flag of `vllm serve`, no engine argument: LLM(...) raises a TypeError
llm = LLM("Qwen/Qwen3-8B", port=8000)

# request logging is `enable_log_requests` on AsyncEngineArgs from 0.10 on
engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model="Qwen/Qwen3-8B", disable_log_requests=True))

# passes: engine arguments, and LLM's own parameters
ok = LLM("Qwen/Qwen3-8B", tensor_parallel_size=2, seed=0)
