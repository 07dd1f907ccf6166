"""The file's only launch is vLLM's LLM under another name: its text holds no `LLM(`."""


class Backend:
    def __init__(self, model, api_url=""):
        if not api_url:
            try:
                from vllm import LLM as VLLModel
            except ImportError:
                raise
            self._client = VLLModel(model=model, tensor_parallel_size=2, use_v2_block_manager=True)
        else:
            self._client = None
