"""Decide cheaply, from name and bytes alone, whether and how a file should be read.

Most files in a repo cannot launch vLLM; they must cost a read and a byte search,
no parse and no import of the YAML or schema libraries.
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import PurePath

YAML_SUFFIXES = frozenset({".yaml", ".yml", ".json"})

# A vLLM config file need not say "vllm": two dashed top-level keys such as
# `tensor-parallel-size:` make it worth a parse.
_CONFIG_KEYS = re.compile(rb"(?m)^[a-z0-9]+(?:[-_][a-z0-9]+)+[ \t]*:")


class Kind(Enum):
    YAML = "yaml"
    SKIP = "skip"


def kind_of(path: str) -> Kind:
    suffix = PurePath(path).suffix.lower()
    if suffix in YAML_SUFFIXES:
        return Kind.YAML
    return Kind.SKIP


def worth_parsing(data: bytes) -> bool:
    """Does the file mention vLLM, or look like a vLLM config file?"""
    if b"vllm" in data or b"VLLM" in data or b"vLLM" in data:
        return True
    return len(_CONFIG_KEYS.findall(data, 0, 65536)) >= 2


def is_binary(data: bytes) -> bool:
    return b"\x00" in data[:8192]
