# VL360 llm-data-parallel-single-process: Python that vLLM 0.11.1 accepts (written by
# `python -m tools.cases rules` from schemas/rules/python_api/VL360-llm-data-parallel-single-process.json)
from vllm import LLM

LLM("Qwen/Qwen3-8B", data_parallel_size=2, distributed_executor_backend="external_launcher")
