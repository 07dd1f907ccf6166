# VL463 llm-all2all-passthrough-without-moe-ep-backend: Python that vLLM 0.32.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/python_api/VL463-llm-all2all-passthrough-without-moe-ep-backend.json)
from vllm import LLM

LLM("Qwen/Qwen3-30B-A3B", all2all_backend="passthrough")
