"""Recognise the words that start the vLLM OpenAI server, wherever a command line is found."""

from __future__ import annotations

import re
from collections.abc import Sequence

from vllm_lint.model import Token

# `vllm serve`, and the server module run directly (older images use it as their entrypoint).
_SERVER_MODULES = frozenset({"vllm.entrypoints.openai.api_server", "vllm.entrypoints.api_server"})
_PYTHON = re.compile(r"(?:.*/)?python(?:3(?:\.\d+)?)?")
_VLLM = re.compile(r"(?:.*/)?vllm")
# Words that run the next word as the command (with their own options skipped).
WRAPPERS = frozenset({"exec", "nohup", "time", "env", "sudo", "setsid", "command", "stdbuf"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.S)
# Images whose entrypoint is the vLLM server: arguments alone launch it.
_SERVER_IMAGE = re.compile(r"(?:^|/)vllm-openai(?:[:@]|$)")


def server_args(words: Sequence[Token]) -> tuple[int, dict[str, Token]] | None:
    """If `words` launch the vLLM server: the index of its first argument and the env prefix.

    Handles `VAR=x exec nohup vllm serve …`, `python3 -m vllm.entrypoints.openai.api_server …`
    and `python -u -m …`. Returns None for anything else.
    """
    env: dict[str, Token] = {}
    i = 0
    while i < len(words):
        text = words[i].text
        if _ASSIGNMENT.fullmatch(text):
            name, _, _value = text.partition("=")
            env[name] = words[i]
            i += 1
            continue
        if text in WRAPPERS:
            i += 1
            while i < len(words) and words[i].text.startswith("-"):
                i += 1
            continue
        break
    if i >= len(words):
        return None
    head = words[i].text
    if _VLLM.fullmatch(head) and i + 1 < len(words) and words[i + 1].text == "serve":
        return i + 2, env
    if _PYTHON.fullmatch(head):
        k = i + 1
        while k < len(words) and words[k].text.startswith("-") and words[k].text != "-m":
            k += 1
        if k + 1 < len(words) and words[k].text == "-m":
            module = words[k + 1].text
            if module in _SERVER_MODULES:
                return k + 2, env
            if module == "vllm.entrypoints.cli.main" and _word_at(words, k + 2) == "serve":
                return k + 3, env
    return None


def _word_at(words: Sequence[Token], index: int) -> str | None:
    return words[index].text if index < len(words) else None


def is_server_image(image: str) -> bool:
    """`vllm/vllm-openai:…` and re-publications of it (e.g. `lmcache/vllm-openai`)."""
    return bool(_SERVER_IMAGE.search(image))


def mentions_server(text: str) -> bool:
    """Cheap test whether a shell string may launch the server (before lexing it)."""
    return "vllm" in text and ("serve" in text or "api_server" in text)
