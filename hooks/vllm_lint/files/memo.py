"""A memo of per-folder answers with a bound, so that memory stays flat in the size of the repo."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FolderMemo(dict[K, V]):
    """A dict that forgets everything once it holds `limit` entries. A run visits the files of
    a folder one after another (git and the walk list them so), so the answers that pay are
    the recent ones; 20,000 folders would otherwise keep 20,000 entries to the end. Set items
    with `memo[key] = value` (the bound is checked there)."""

    def __init__(self, limit: int = 4096) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) >= self.limit:
            self.clear()
        super().__setitem__(key, value)
