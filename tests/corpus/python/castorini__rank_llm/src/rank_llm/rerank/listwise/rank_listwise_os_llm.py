import logging
import os
import random
import unicodedata
from importlib.resources import files
from typing import Any

try:
    import torch
except ImportError:
    torch = None
from ftfy import fix_text

from rank_llm._optional import missing_extra_error
from rank_llm.data import Request, Result
from rank_llm.rerank.rankllm import PromptMode
from rank_llm.rerank.sampling_kwargs import (
    sanitize_sampling_kwargs,
    split_openai_chat_sampling,
)

from .listwise_rankllm import ListwiseRankLLM

try:
    import vllm
except ImportError:
    vllm = None

try:
    from transformers import AutoTokenizer
except ImportError:
    AutoTokenizer = None

try:
    import sglang
    from sglang import Engine
    from sglang.srt.entrypoints.engine import Engine as SGLangEngineType
except ImportError:
    sglang = None
    Engine = None
    SGLangEngineType = None

logger = logging.getLogger(__name__)

ALPH_START_IDX = ord("A") - 1

TEMPLATES = files("rank_llm.rerank.prompt_templates")


class RankListwiseOSLLM(ListwiseRankLLM):
    def __init__(
        self,
        model: str,
        name: str = "",
        context_size: int = 4096,
        prompt_mode: PromptMode | None = None,
        prompt_template_path: str | None = None,
        num_few_shot_examples: int = 0,
        few_shot_file: str | None = None,
        device: str | None = None,
        num_gpus: int = 1,
        variable_passages: bool = False,
        window_size: int = 20,
        stride: int = 10,
        system_message: str | None = None,
        is_thinking: bool = False,
        reasoning_token_budget: int = 10000,
        sampling_kwargs: dict[str, Any] | None = None,
        use_logits: bool = False,
        use_alpha: bool = False,
        sglang_batched: bool = False,
        tensorrt_batched: bool = False,
        batch_size: int = 32,
        base_url: str | None = None,
        max_passage_words: int = 300,
    ) -> None:
        """
         Creates instance of the RankListwiseOSLLM class, an extension of RankLLM designed for performing listwise ranking of passages using a specified language model. Advanced configurations are supported such as GPU acceleration, variable passage handling, and custom system messages for generating prompts.
         RankListWiseOSLLM uses the default implementations for sliding_window

         Parameters:
         - model (str): Identifier for the language model to be used for ranking tasks.
         - context_size (int, optional): Maximum number of tokens that can be handled in a single prompt. Defaults to 4096.
         - prompt_mode (PromptMode, optional): Specifies the mode of prompt generation, with the default set to RANK_GPT,
         indicating that this class is designed primarily for listwise ranking tasks following the RANK_GPT methodology.
         - num_few_shot_examples (int, optional): Number of few-shot learning examples to include in the prompt, allowing for
         the integration of example-based learning to improve model performance. Defaults to 0, indicating no few-shot examples
         by default.
         - few_shot_file (str, optional): Path to JSONL file containing few-shot examples. Required if num_few_shot_examples > 0.
         File should contain one JSON object per line with "conversations" field containing prompt/response pairs.
         - device (str, optional): Specifies the device for model computation ('cuda' for GPU or 'cpu'). Defaults to 'cuda'.
         - num_gpus (int, optional): Number of GPUs to use for model loading and inference. Defaults to 1.
         - variable_passages (bool, optional): Indicates whether the number of passages to rank can vary. Defaults to False.
         - window_size (int, optional): The window size for handling text inputs. Defaults to 20.
         - stride (int, optional): The stride size for moving the window. Defaults to 10.
         - system_message (Optional[str], optional): Custom system message to be included in the prompt for additional
         instructions or context. Defaults to None.
         - use_logits (bool, optional): Indicates whether to use logits or not. Defaults to False.
         - use_alpha (bool, optional): Indicates whether to use alphabet ordering the prompts. Defaults to False.
         - sglang_batched (bool, optional): Indicates whether batched inference using SGLang is leveraged. Defaults to False.
         - tensorrt_batched (bool, optional): Indicates whether batched inference using TensorRT-LLM is leveraged. Defaults to False.
         - batch_size (int, optional): The size of the batch for processing requests. Defaults to 32.
         - base_url (str, optional): When specified the Open AI API compatiable vllm handler is used.

         Raises:
         - AssertionError: If CUDA is specified as the device but is not available on the system.
         - ValueError: If an unsupported prompt mode is provided.
         - ValueError: If num_few_shot_examples > 0 but no valid file path is provided

         Note:
         - This class is operates given scenarios where listwise ranking is required, with support for dynamic
         passage handling and customization of prompts through system messages and few-shot examples.
        - GPU acceleration is supported and recommended for faster computations.
        """
        if prompt_template_path is None:
            prompt_template_path = (
                TEMPLATES / "rank_zephyr_alpha_template.yaml"
                if use_alpha
                else TEMPLATES / "rank_zephyr_template.yaml"
            )
        super().__init__(
            model=model,
            context_size=context_size,
            prompt_mode=prompt_mode,
            prompt_template_path=prompt_template_path,
            num_few_shot_examples=num_few_shot_examples,
            few_shot_file=few_shot_file,
            window_size=window_size,
            stride=stride,
            use_alpha=use_alpha,
            device=device,
            batch_size=batch_size,
            max_passage_words=max_passage_words,
        )
        self._sglang_batched = sglang_batched
        self._tensorrt_batched = tensorrt_batched
        self._name = name
        self._variable_passages = variable_passages
        self._system_message = system_message
        self._is_thinking = is_thinking
        self._reasoning_token_budget = reasoning_token_budget
        self._sampling_kwargs: dict[str, Any] | None = (
            dict(sampling_kwargs) if sampling_kwargs else None
        )
        self._output_token_estimate = None
        self._use_logits = use_logits
        self._num_gpus = num_gpus
        self._base_url = base_url

        if self._device == "cuda":
            if torch is None:
                raise missing_extra_error(
                    "local",
                    "Open-source listwise reranking with local backends requires PyTorch.",
                )
            assert torch.cuda.is_available() and torch.cuda.device_count() >= num_gpus
        if prompt_mode and prompt_mode != PromptMode.RANK_GPT:
            raise ValueError(
                f"Unsupported prompt mode: {prompt_mode}. The only prompt mode currently supported is a slight variation of {PromptMode.RANK_GPT} prompt."
            )

        if sglang_batched:
            if Engine is None:
                raise missing_extra_error(
                    "sglang",
                    "SGLang batch inference requires sglang.",
                )
            # Add assert here to ensure
            assert Engine is not None
            port = random.randint(30000, 35000)
            self._llm = Engine(model, port=port)
            self._tokenizer = self._llm.get_tokenizer()
        elif tensorrt_batched:
            try:
                from tensorrt_llm import LLM as TRTLLM
                from tensorrt_llm import BuildConfig
            except Exception as err:
                raise missing_extra_error(
                    "tensorrt-llm",
                    "TensorRT-LLM batch inference requires tensorrt-llm.",
                ) from err
            build_config = BuildConfig(max_seq_len=4096)
            self._llm = TRTLLM(model=model, build_config=build_config)
            self._tokenizer = self._llm.tokenizer
        else:
            if vllm is None:
                raise missing_extra_error(
                    "vllm",
                    "Open-source listwise reranking requires vLLM.",
                )
            from rank_llm.rerank.vllm_handler import VllmHandler

            if self._base_url:
                from rank_llm.rerank.vllm_handler_with_openai_sdk import (
                    VllmHandlerWithOpenAISDK,
                )

                self._vllm_handler = VllmHandlerWithOpenAISDK(
                    model=model, base_url=base_url
                )
                self._tokenizer = self._vllm_handler.get_tokenizer()
            else:
                # Use the AutoTokenizer from the transformers library to load the tokenizer, since the initialization of the VllmHandler needs max_model_len which is calculated using the tokenizer.
                self._tokenizer = AutoTokenizer.from_pretrained(
                    model, trust_remote_code=True
                )
                max_output = self._get_max_output_tokens(self._window_size)
                self._vllm_handler = VllmHandler(
                    model=model,
                    download_dir=os.getenv("HF_HOME"),
                    enforce_eager=False,
                    max_logprobs=30,
                    tensor_parallel_size=num_gpus,
                    gpu_memory_utilization=0.90,
                    trust_remote_code=True,
                    max_model_len=context_size + max_output,
                )
            # Now that the VllmHandler is initialized, we can get the tokenizer from it.
            self._tokenizer = self._vllm_handler.get_tokenizer()

    def rerank_batch(
        self,
        requests: list[Request],
        rank_start: int = 0,
        rank_end: int = 100,
        shuffle_candidates: bool = False,
        logging: bool = False,
        **kwargs: Any,
    ) -> list[Result]:
        top_k_retrieve: int = kwargs.get("top_k_retrieve", rank_end)
        rank_end = min(top_k_retrieve, rank_end)
        populate_invocations_history: bool = kwargs.get(
            "populate_invocations_history", False
        )
        return self.sliding_windows_batched(
            requests,
            rank_start=max(rank_start, 0),
            rank_end=rank_end,
            top_k_retrieve=top_k_retrieve,
            shuffle_candidates=shuffle_candidates,
            logging=logging,
            populate_invocations_history=populate_invocations_history,
        )

    def _evaluate_logits(
        self, logits: dict[str, Any], total: tuple[int, int]
    ) -> tuple[str, dict[int, float]]:
        if self._use_alpha:
            evaluations: dict[int, float] = {}
            for logit in logits.values():
                token = logit.decoded_token
                if (
                    len(token) == 1
                    and token.isalpha()
                    and ALPH_START_IDX + 1
                    <= ord(token)
                    <= ALPH_START_IDX + self._window_size
                ):
                    idx = ord(token)
                    prev = evaluations.get(idx, float("-inf"))
                    if logit.logprob > prev:
                        evaluations[idx] = logit.logprob
            sorted_evaluations = sorted(evaluations.items(), key=lambda x: -x[1])
            result_string = ">".join([f"[{chr(x)}]" for x, y in sorted_evaluations])
        else:
            evaluations: dict[int, float] = {}
            for logit in logits.values():
                token = logit.decoded_token
                if token.isnumeric() and not unicodedata.name(token).startswith(
                    ("SUPERSCRIPT", "VULGAR FRACTION", "SUBSCRIPT", "CJK UNIFIED")
                ):
                    val = int(token)
                    if total[0] <= val <= total[1]:
                        prev = evaluations.get(val, float("-inf"))
                        if logit.logprob > prev:
                            evaluations[val] = logit.logprob
            sorted_evaluations = sorted(evaluations.items(), key=lambda x: -x[1])
            result_string = ">".join([f"[{x}]" for x, y in sorted_evaluations])

        return result_string, evaluations

    def _get_logits_single_digit(
        self,
        output: "vllm.RequestOutput",
        effective_location: int = 0,
        total: tuple[int, int] = (1, 9),
    ):
        logits = output.outputs[0].logprobs[effective_location]
        return self._evaluate_logits(logits, total)

    def _get_max_output_tokens(self, window_size: int) -> int:
        min_tok = self.num_output_tokens(window_size)
        return self._reasoning_token_budget + min_tok if self._is_thinking else min_tok

    async def run_llm_async(
        self,
        prompt: str | list[dict[str, str]],
        current_window_size: int | None = None,
    ) -> tuple[str, str, dict[str, Any]]:
        """
        Submit a single prompt and return its result as soon as it finishes.

        For the vLLM generate path uses AsyncLLMEngine; for the OpenAI-compatible
        path uses AsyncOpenAI. Both allow all concurrently submitted coroutines
        to be in-flight simultaneously.
        SGLang and TensorRT fall back to running synchronously in an executor.
        """
        if current_window_size is None:
            current_window_size = self._window_size

        min_tok = self.num_output_tokens(current_window_size)
        max_tok = self._get_max_output_tokens(current_window_size)

        if hasattr(self, "_vllm_handler"):
            if self._base_url:
                logger.info("Async OpenAI SDK Generating!")
                sanitized = sanitize_sampling_kwargs(self._sampling_kwargs)
                direct_kw, eb_extra = split_openai_chat_sampling(sanitized)
                extra_body: dict[str, Any] = {
                    "chat_template_kwargs": {"enable_thinking": self._is_thinking},
                }
                extra_body.update(eb_extra)
                return await self._vllm_handler.chat_completion_async(
                    messages=prompt,
                    max_tokens=max_tok,
                    extra_body=extra_body,
                    **direct_kw,
                )
            else:
                logger.info("Async VLLM Generating!")
                (
                    text,
                    prompt_tokens,
                    completion_tokens,
                ) = await self._vllm_handler.generate_output_async(
                    prompt=prompt,
                    min_tokens=min_tok,
                    max_tokens=max_tok,
                    sampling_extra=sanitize_sampling_kwargs(self._sampling_kwargs),
                )
                return (
                    text,
                    "",
                    {
                        "prompt_tokens": prompt_tokens,
                        "completion_tokens": completion_tokens,
                        "total_tokens": prompt_tokens + completion_tokens,
                    },
                )
        else:
            # SGLang / TensorRT: no async API, offload to thread executor.
            import asyncio

            loop = asyncio.get_event_loop()
            return await loop.run_in_executor(
                None, lambda: self._run_llm_sync(prompt, current_window_size)
            )

    def _run_llm_sync(
        self,
        prompt: str | list[dict[str, str]],
        current_window_size: int | None = None,
    ) -> tuple[str, str, dict[str, Any]]:
        """Synchronous fallback for SGLang and TensorRT backends."""
        if current_window_size is None:
            current_window_size = self._window_size
        n_out = self.num_output_tokens(current_window_size)

        sanitized = sanitize_sampling_kwargs(self._sampling_kwargs)

        if (
            sglang is not None
            and SGLangEngineType is not None
            and isinstance(self._llm, SGLangEngineType)
        ):
            logger.info("SGLang Generating!")
            sgl_opts: dict[str, Any] = {
                **sanitized,
                "max_new_tokens": n_out,
                "min_new_tokens": n_out,
            }
            output = self._llm.generate([prompt], sgl_opts)[0]
            return (
                output["text"],
                "",
                {
                    "prompt_tokens": output["meta_info"]["prompt_tokens"],
                    "completion_tokens": output["meta_info"]["completion_tokens"] - 1,
                    "total_tokens": output["meta_info"]["prompt_tokens"]
                    + output["meta_info"]["completion_tokens"]
                    - 1,
                },
            )
        elif self._tensorrt_batched:
            import tensorrt_llm.hlapi.llm
            from tensorrt_llm import SamplingParams as TRTSamplingParams

            trt_sampling_keys = frozenset(
                {
                    "temperature",
                    "top_p",
                    "top_k",
                    "repetition_penalty",
                    "presence_penalty",
                    "frequency_penalty",
                    "stop",
                    "seed",
                }
            )
            trt_kw: dict[str, Any] = {
                k: v for k, v in sanitized.items() if k in trt_sampling_keys
            }
            trt_kw["max_tokens"] = n_out
            trt_kw["min_tokens"] = n_out

            if isinstance(self._llm, tensorrt_llm.hlapi.llm.LLM):
                logger.info("TensorRT LLM Generating!")
                output = self._llm.generate([prompt], TRTSamplingParams(**trt_kw))[0]
                return (
                    output.outputs[0].text,
                    "",
                    {
                        "prompt_tokens": len(output.prompt_token_ids),
                        "completion_tokens": len(output.outputs[0].token_ids),
                        "total_tokens": len(output.prompt_token_ids)
                        + len(output.outputs[0].token_ids),
                    },
                )
        raise ValueError(
            "Only support SGLang and VLLM inference backend for inferencing."
        )

    def run_llm_batched(
        self,
        prompts: list[str | list[dict[str, str]]],
        current_window_size: int | None = None,
    ) -> list[tuple[str, str, dict[str, Any]]]:
        import asyncio

        async def _run_all():
            return await asyncio.gather(
                *[self.run_llm_async(p, current_window_size) for p in prompts]
            )

        return asyncio.run(_run_all())

    def run_llm(
        self,
        prompt: str | list[dict[str, str]],
        current_window_size: int | None = None,
    ) -> tuple[str, str, dict[str, Any]]:
        return self.run_llm_batched([prompt], current_window_size)[0]

    def create_prompt_batched(
        self,
        results: list[Result],
        rank_start: int,
        rank_end: int,
    ) -> list[tuple[str, int] | tuple[list[dict[str, str]], int]]:
        # TODO: implement batched prompt creation
        pass

    def num_output_tokens(self, current_window_size: int | None = None) -> int:
        if current_window_size is None:
            current_window_size = self._window_size

        if self._output_token_estimate and self._window_size == current_window_size:
            return self._output_token_estimate

        if self._use_alpha:
            token_str = " > ".join(
                [f"[{chr(ALPH_START_IDX + i + 1)}]" for i in range(current_window_size)]
            )
        else:
            token_str = " > ".join([f"[{i + 1}]" for i in range(current_window_size)])

        _output_token_estimate = len(
            self._tokenizer.encode(token_str, add_special_tokens=False)
        )

        if (
            self._output_token_estimate is None
            and self._window_size == current_window_size
        ):
            self._output_token_estimate = _output_token_estimate

        return _output_token_estimate

    def create_prompt(
        self, result: Result, rank_start: int, rank_end: int
    ) -> tuple[str, int] | tuple[list[dict[str, str]], int]:
        max_length = self._max_passage_words

        while True:
            messages = self._inference_handler.generate_prompt(
                result=result,
                rank_start=rank_start,
                rank_end=rank_end,
                max_length=max_length,
                use_alpha=self._use_alpha,
                num_fewshot_examples=self._num_few_shot_examples,
                fewshot_examples=self._examples,
            )
            # only apply the chat template when llm.generate is being used since it expects a prerpared prompt. The chat api expects list[dict[str, str]]
            if self._base_url:
                num_tokens = self.get_num_tokens(messages)
            else:
                prompt = self._tokenizer.apply_chat_template(
                    messages,
                    tokenize=False,
                    add_generation_prompt=True,
                    enable_thinking=self._is_thinking,
                )
                prompt = fix_text(prompt)
                num_tokens = self.get_num_tokens(prompt)
            if num_tokens <= self.max_tokens() - self.num_output_tokens(
                rank_end - rank_start
            ):
                break
            else:
                max_length -= max(
                    1,
                    (
                        num_tokens
                        - self.max_tokens()
                        + self.num_output_tokens(rank_end - rank_start)
                    )
                    // ((rank_end - rank_start) * 4),
                )
        if self._base_url:
            return messages, self.get_num_tokens(messages)
        return prompt, self.get_num_tokens(prompt)

    def get_num_tokens(self, prompt: str | list[dict[str, str]]) -> int:
        text = prompt
        if isinstance(prompt, list):
            text = "".join(
                f"{message['role']}: {message['content']}\n" for message in prompt
            )
        return len(self._tokenizer.encode(text))

    def cost_per_1k_token(self, input_token: bool) -> float:
        return 0

    def get_name(self) -> str:
        return self._name
