"""What one run is asked to do: the release policy, what may be read, and which configuration
(with its rules) governs each file. Built once by the CLI (or a caller) and passed down; no
stage keeps state of its own between runs (what a run memoizes lives here)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vllm_lint.config import Config, Configs
from vllm_lint.files.layout import DEFAULT_MAX_BYTES
from vllm_lint.files.memo import FolderMemo

if TYPE_CHECKING:
    from vllm_lint.model import ReleaseChoice


class Options:
    """Treated as immutable (`forcing` makes a changed copy). A plain class, not a dataclass:
    the cold start pays for every class a dataclass decorator generates."""

    def __init__(
        self,
        *,
        vllm_version: str | None = None,  # forces the release for every invocation
        root: Path | None = None,  # nothing outside is read (default: the working folder)
        configs: Configs | None = None,  # default: no configuration file
        keep_invocations: bool = True,  # False: each file's launches are dropped once checked
        time_budget: float | None = None,  # seconds per file, then a finding (files/budget.py)
        folder_pins: FolderMemo[Path, ReleaseChoice | None] | None = None,
        hints: FolderMemo[tuple[str, ...], Any] | None = None,
        unsuppressed: tuple[str, ...] = (),  # `--ignore-suppressions`: files or folders
    ) -> None:
        self.vllm_version = vllm_version
        self.root = Path.cwd() if root is None else root
        self.configs = Configs() if configs is None else configs
        self.keep_invocations = keep_invocations
        self.time_budget = time_budget
        self.unsuppressed = unsuppressed
        # one run's memo of the release each folder pins (release.pinned_release): a folder's
        # files share it, so a repo of 2,000 files lists each folder once
        self.folder_pins: FolderMemo[Path, ReleaseChoice | None] = (
            FolderMemo() if folder_pins is None else folder_pins
        )
        # one run's memo of "did you mean" answers (a flag or a variable every manifest of a
        # repo writes wrong is searched for once): on the run, not in a module, so that it goes
        # with the run and never grows across runs in one process
        self.hints: FolderMemo[tuple[str, ...], Any] = FolderMemo() if hints is None else hints

    def forcing(self, vllm_version: str | None) -> Options:
        """The same run with the release forced to `vllm_version` (None: as each file says)."""
        return Options(
            vllm_version=vllm_version,
            root=self.root,
            configs=self.configs,
            keep_invocations=self.keep_invocations,
            time_budget=self.time_budget,
            folder_pins=self.folder_pins,
            hints=self.hints,
            unsuppressed=self.unsuppressed,
        )

    def suppressions_apply(self, path: str) -> bool:
        """Whether inline `# vllm-lint: ignore` comments in `path` count (not under a folder
        or file given to `--ignore-suppressions`)."""
        if not self.unsuppressed:
            return True
        target = os.path.normpath(os.path.abspath(path))
        for root in self.unsuppressed:
            folder = os.path.normpath(os.path.abspath(root))
            if target == folder or target.startswith(folder.rstrip(os.sep) + os.sep):
                return False
        return True

    def config_for(self, path: str) -> Config:
        return self.configs.for_file(path)

    def max_bytes(self, path: str) -> int:
        return self.config_for(path).max_file_size or DEFAULT_MAX_BYTES
