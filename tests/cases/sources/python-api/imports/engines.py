"""One script, four engines: only vLLM's classes, however they are imported, are launches."""

import vllm as v
from tensorrt_llm import LLM
from vllm.engine.arg_utils import AsyncEngineArgs as Args
from vllm import AsyncLLMEngine, LLM as Engine


def tensorrt(model):
    return LLM(model=model, tensor_parallel_size=2)  # TensorRT-LLM's LLM: not a launch


def sglang(model):
    from sglang import Engine

    return Engine(model_path=model, tp_size=2)  # SGLang's, imported here: not a launch


def lmdeploy_or_vllm(backend, model):
    if backend == "vllm":
        from vllm import LLM as Pipeline
    else:
        from lmdeploy import pipeline as Pipeline
    return Pipeline(model)  # either one, at run time: not judged


def offline(model):
    from vllm import LLM

    # an unknown keyword is a TypeError whatever its value: False and None included
    return LLM(model=model, enforce_eager=False, use_v2_block_manager=False, swap_space=None)


def snippet():
    return SamplingParams(max_tokens=16)  # no import binds the name: not vLLM's


v.LLM(model="Qwen/Qwen3-8B", tensor_parallel_size=2, disable_log_stats=None)
Engine("Qwen/Qwen3-8B", max_model_len="long")
engine = AsyncLLMEngine.from_engine_args(Args(model="Qwen/Qwen3-8B", worker_use_ray=False))
