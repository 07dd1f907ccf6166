from vllm import LLM

llm = LLM(model="org/m", max_model_len=4096)
