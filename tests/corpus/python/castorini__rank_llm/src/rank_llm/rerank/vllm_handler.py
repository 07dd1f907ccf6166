import asyncio
import atexit
import uuid
from typing import TYPE_CHECKING, Any

try:
    import vllm
except ImportError:
    vllm = None

try:
    from transformers import AutoTokenizer
except ImportError:
    AutoTokenizer = None

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase
else:
    PreTrainedTokenizerBase = Any

from rank_llm.rerank.sampling_kwargs import sanitize_sampling_kwargs


class VllmHandler:
    """
    Async vLLM inference handler using AsyncLLMEngine with continuous batching.

    Prompts are submitted one at a time via generate_output_async; the engine
    schedules all concurrently in-flight requests optimally on the GPU so no
    caller needs to wait for other prompts to finish.
    """

    def __init__(
        self,
        model: str,
        download_dir: str,
        enforce_eager: bool,
        max_logprobs: int,
        tensor_parallel_size: int,
        gpu_memory_utilization: float,
        **kwargs: Any,
    ):
        if vllm is None:
            raise ImportError("vLLM support requires rank-llm[vllm].")
        engine_args = vllm.AsyncEngineArgs(
            model=model,
            download_dir=download_dir,
            enforce_eager=enforce_eager,
            max_logprobs=max_logprobs,
            tensor_parallel_size=tensor_parallel_size,
            gpu_memory_utilization=gpu_memory_utilization,
            **kwargs,
        )
        self._engine = vllm.AsyncLLMEngine.from_engine_args(engine_args)
        self._model = model
        self._tokenizer: PreTrainedTokenizerBase | None = None
        atexit.register(self._shutdown)

    def _shutdown(self) -> None:
        try:
            self._engine.shutdown()
        except Exception:
            pass

    def get_tokenizer(self) -> PreTrainedTokenizerBase:
        if self._tokenizer is None:
            try:
                asyncio.get_running_loop()
                in_running_loop = True
            except RuntimeError:
                in_running_loop = False
            if in_running_loop:
                # asyncio.run() is invalid here; load the same weights the engine uses.
                if AutoTokenizer is None:
                    raise ImportError(
                        "Tokenizer loading inside a running event loop requires transformers."
                    )
                self._tokenizer = AutoTokenizer.from_pretrained(
                    self._model, trust_remote_code=True
                )
            else:
                result = self._engine.get_tokenizer()
                if asyncio.iscoroutine(result):
                    self._tokenizer = asyncio.run(result)
                else:
                    self._tokenizer = result
            if "rank_vicuna" in self._model:
                self._tokenizer.chat_template = """{% if not add_generation_prompt is defined %}{% set add_generation_prompt = false %}{% endif %}\n                    {% for message in messages %}{% if not loop.first %}{% endif %}{% if message['role'] == 'system' %}{{ message['content'] + ' ' }}{% elif message['role'] == 'user' %}{{ 'USER: ' + message['content'] + ' ' }}{% elif message['role'] == 'assistant' %}{{ 'ASSISTANT: ' + message['content'] + '</s>' }}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ 'ASSISTANT:' }}{% endif %}"""
        return self._tokenizer

    async def generate_output_async(
        self,
        prompt: str | list[dict[str, str]],
        min_tokens: int,
        max_tokens: int,
        logprobs: int | None = None,
        sampling_extra: dict[str, Any] | None = None,
    ) -> tuple[str, int, int]:
        """
        Submit a single prompt and await its completion.
        Returns (output_text, prompt_token_count, completion_token_count).
        """
        extras = sanitize_sampling_kwargs(sampling_extra)
        sp_kwargs: dict[str, Any] = {
            **extras,
            "min_tokens": min_tokens,
            "max_tokens": max_tokens,
            "logprobs": logprobs,
        }
        sampling_params = vllm.SamplingParams(**sp_kwargs)
        request_id = str(uuid.uuid4())
        output_text = ""
        prompt_tokens = 0
        completion_tokens = 0
        async for request_output in self._engine.generate(
            prompt, sampling_params, request_id
        ):
            if request_output.finished:
                output = request_output.outputs[0]
                output_text = output.text
                prompt_tokens = len(request_output.prompt_token_ids)
                completion_tokens = len(output.token_ids)
        return output_text, prompt_tokens, completion_tokens
