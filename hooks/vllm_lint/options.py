"""What one run is asked to do: the release policy, what may be read, and which configuration
(with its rules) governs each file. Built once by the CLI (or a caller) and passed down; no
stage keeps state of its own between runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from vllm_lint.config import Config, Configs
from vllm_lint.files.layout import DEFAULT_MAX_BYTES
from vllm_lint.files.memo import FolderMemo

if TYPE_CHECKING:
    from vllm_lint.model import ReleaseChoice


@dataclass(frozen=True)
class Options:
    vllm_version: str | None = None  # forces the release for every invocation
    root: Path = field(default_factory=Path.cwd)  # nothing outside is read
    configs: Configs = field(default_factory=Configs)  # default: no configuration file
    keep_invocations: bool = True  # False: each file's launches are dropped once checked
    time_budget: float | None = None  # seconds per file, then a finding (files/budget.py)
    # one run's memo of the release each folder pins (release.pinned_release): a folder's
    # files share it, so a repo of 2,000 files lists each folder once
    folder_pins: FolderMemo[Path, ReleaseChoice | None] = field(
        default_factory=FolderMemo, compare=False, repr=False
    )

    def config_for(self, path: str) -> Config:
        return self.configs.for_file(path)

    def max_bytes(self, path: str) -> int:
        return self.config_for(path).max_file_size or DEFAULT_MAX_BYTES
