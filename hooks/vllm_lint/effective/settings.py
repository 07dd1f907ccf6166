"""The effective settings of one invocation: a JSON document plus where each value came from."""

from __future__ import annotations

from typing import Any

from vllm_lint.model import Related, ReleaseChoice, Span

_MISSING = object()


def lookup(document: Any, path: str, default: Any) -> Any:
    """The value at a dotted path of nested dicts, or `default` where the path stops."""
    node = document
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return default
        node = node[part]
    return node


class Settings:
    """What vLLM would run with.

    `document` is what rules validate: keys are flag names without dashes (`use_replayssm`),
    JSON flags hold objects, `env` holds environment variables. `spans` maps a dotted path
    (`speculative_config.num_speculative_tokens`, `env.VLLM_USE_V1`) to where it was written;
    `defaulted` lists the paths whose value is the release's default, not the user's.
    """

    __slots__ = (
        "defaulted",
        "document",
        "judged",
        "labels",
        "opaque",
        "partial",
        "release",
        "spans",
    )

    def __init__(self, release: ReleaseChoice) -> None:
        self.release = release
        self.document: dict[str, Any] = {}
        self.spans: dict[str, Span] = {}
        self.defaulted: set[str] = set()
        self.opaque: set[str] = set()  # paths set to something unknowable
        self.labels: dict[str, str] = {}  # how to name a derived path to users
        self.partial = False  # unreadable words stood where flags go: defaults are not trusted
        self.judged = True  # False: the flags never reach vLLM's serve parser (no rule applies)

    def label(self, path: str) -> str:
        if path in self.labels:
            return self.labels[path]
        if path.startswith("env."):
            return path[4:]
        if path in ("image", "model"):
            return f"the {path}"
        return "--" + path.split(".")[0].replace("_", "-")

    def get(self, path: str) -> Any:
        return lookup(self.document, path, None)

    def has(self, path: str) -> bool:
        return lookup(self.document, path, _MISSING) is not _MISSING

    def is_opaque(self, path: str) -> bool:
        """Whether the value at `path`, or a JSON flag that holds it, could not be read."""
        while path:
            if path in self.opaque:
                return True
            path = path.rpartition(".")[0]
        return False

    def span(self, path: str) -> Span | None:
        """Where a path was written; a key inside a JSON flag falls back to the flag."""
        while path:
            if path in self.spans:
                return self.spans[path]
            path = path.rpartition(".")[0]
        return None

    def holder(self, path: str) -> tuple[Related, ...]:
        """The flag whose value holds `path`, as a related place, when `path` is written at a
        place of its own inside it (a key of a JSON value, a nested key of a `--config` file)."""
        top = path.partition(".")[0]
        own, flag = self.span(path), self.spans.get(top)
        if own is None or flag is None or own == flag:
            return ()
        return (Related(flag, f"{self.label(top)} is given here"),)

    def replace(
        self,
        path: str,
        value: Any,
        span: Span | None,
        spans: dict[str, Span] | None = None,
        opaque: bool = False,
    ) -> None:
        """Set `path` to `value`, forgetting what was said of it and of the paths under it
        (where they were written, whether they were opaque): a value argparse replaced."""
        prefix = path + "."
        for known in [p for p in self.spans if p == path or p.startswith(prefix)]:
            del self.spans[known]
        for known in [p for p in self.opaque if p == path or p.startswith(prefix)]:
            self.opaque.discard(known)
        self.set(path, value, span)
        if spans:
            self.spans.update(spans)
        if opaque:
            self.opaque.add(path)

    def set(self, path: str, value: Any, span: Span | None) -> None:
        parts = path.split(".")
        node = self.document
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = {}
                node[part] = child
            node = child
        node[parts[-1]] = value
        self.defaulted.discard(path)
        if span is not None:
            self.spans[path] = span
