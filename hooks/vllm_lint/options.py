"""What one run is asked to do: the release policy, what may be read, the project's
configuration and rules. Built once by the CLI (or a caller) and passed down; no stage keeps
state of its own between runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from vllm_lint.config import Config
from vllm_lint.rules.registry import RuleSet

DEFAULT_MAX_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class Options:
    vllm_version: str | None = None  # forces the release for every invocation
    default_version: str | None = None  # used when a file pins none
    root: Path = field(default_factory=Path.cwd)  # nothing outside is read
    max_bytes: int = DEFAULT_MAX_BYTES
    config: Config = field(default_factory=Config)  # selection, per-path ignores, excludes
    rules: RuleSet = field(default_factory=RuleSet)  # the built-in rules and the project's packs
    keep_invocations: bool = True  # False: each file's launches are dropped once checked
