"""vllm-lint: find vLLM flag combinations that vLLM refuses at startup."""

__version__ = "0.1.0"
