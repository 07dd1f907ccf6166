# VL452 engine-args-hybrid-and-external-lb: Python that vLLM 0.15.0 accepts (written by
# `python -m tools.cases rules` from schemas/rules/python_api/VL452-engine-args-hybrid-and-external-lb.json)
from vllm import LLM

LLM("Qwen/Qwen3-8B", data_parallel_hybrid_lb=False, data_parallel_external_lb=False)
