from ray.serve.llm import LLMConfig

llm_config = LLMConfig(
    model_loading_config={"model_id": "qwen", "model_source": "Qwen/Qwen2.5-7B-Instruct"},
    engine_kwargs={"tensor_parallel_size": 4, "max_model_len": 16384, "enable_chunked_prefill": True},
)
