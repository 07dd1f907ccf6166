from vllm import LLM

llm = LLM(
    model="meta-llama/Llama-3.1-8B-Instruct",
    speculative_config={'method': 'ngram', 'num_speculative_tokens': 3,
                        'tensor_parallel_size': 2, 'prompt_lookup_maxx': 4},
    unknown_keyword=1,
)
