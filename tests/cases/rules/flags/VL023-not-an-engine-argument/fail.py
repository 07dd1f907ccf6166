# VL023 not-an-engine-argument: Python that vLLM 0.34.0 refuses (written by
# `python -m tools.cases rules` from schemas/rules/flags/VL023-not-an-engine-argument.json)
from vllm import LLM

LLM("Qwen/Qwen3-8B", port=8000)
