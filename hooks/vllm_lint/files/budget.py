"""A time budget per linted file: what is left when it runs out becomes a finding, not a hang.

Every stage of the linter is meant to take time linear in the file (tests/hostile holds growth
tests at n and 4n); the budget is the backstop for an input nobody thought of. It interrupts
Python code with SIGALRM, so it works on POSIX in the main thread only (elsewhere the file is
linted without a budget); a single C call (libyaml composing, a regex) ends before it fires,
which is why those are kept linear themselves.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

FILE_SECONDS = 5.0
ENV = "VLLM_LINT_FILE_SECONDS"  # the runner's own setting (never the repo's): 0 turns it off


def file_seconds() -> float:
    """The budget per file: $VLLM_LINT_FILE_SECONDS, else FILE_SECONDS."""
    import os

    try:
        return max(0.0, float(os.environ.get(ENV, FILE_SECONDS)))
    except ValueError:
        return FILE_SECONDS


class TooSlow(BaseException):
    """The budget ran out. A BaseException, like KeyboardInterrupt: no `except Exception` of a
    stage can swallow it."""


def _expire(signum: int, frame: FrameType | None) -> None:
    raise TooSlow


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise TooSlow in the block after `seconds` (None or 0: no limit)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not seconds or not usable:
        yield
        return
    previous = signal.getsignal(signal.SIGALRM)
    try:  # the handler and the timer are set inside: whenever it fires, both are undone
        signal.signal(signal.SIGALRM, _expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
