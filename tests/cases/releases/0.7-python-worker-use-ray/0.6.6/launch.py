# EngineArgs.worker_use_ray is gone from vLLM 0.7.0 (vllm/engine/arg_utils.py)
from vllm import LLM

llm = LLM(model="facebook/opt-125m", worker_use_ray=True)
