"""The plain values that move through the pipeline: spans, tokens, invocations, findings.

Immutable records are NamedTuples, not dataclasses: every run imports this module, and a
frozen dataclass costs ~0.7 ms to define (its methods are generated with `exec`), a NamedTuple
~0.15 ms (benchmarks/README.md). Change one with `record._replace(field=value)`."""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from vllm_lint.effective.settings import Settings


class Severity(IntEnum):
    """Ordered so that `severity >= fail_level` decides the exit code."""

    INFO = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        return cls[text.upper()]


class Span(NamedTuple):
    """A place in a file: 1-based line and column, end exclusive-ish as editors show it."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int


class Token(NamedTuple):
    """One argv word as the program will receive it, and where it was written.

    `opaque` marks a word built from something the linter cannot know (an env var with no
    literal value, a command substitution, a template): it is never checked on a guess.
    """

    text: str
    span: Span
    opaque: bool = False
    # A JSON word's members, where each is written (`("method", Span)`, dotted for nested
    # keys): a finding on a key points at it (sources/json_parts.py), the word stays related
    parts: tuple[tuple[str, Span], ...] = ()


class ReleaseChoice(NamedTuple):
    """The vLLM release a file deploys, and why the linter believes so. `guessed`: nothing the
    repo writes names a release this linter knows (no tag, an unknown one, `latest`, a release
    newer than the newest catalog): it is judged as the newest known, and says so."""

    version: str
    reason: str
    guessed: bool = False


class ReleaseEvidence(NamedTuple):
    """What a file writes about the release a launch runs, exactly as written: an image
    reference (`image`), a pinned version after `pip install vllm==` (`pip`), in a quoted
    requirement (`requirement`), after `vllm@` (`command`), or an engine version field
    (`version`). `where` is how the reason names the place ("FROM, line 3"). Readers only
    report evidence; the release gate (release.py) alone reads a release from it."""

    kind: str
    text: str
    where: str = ""
    opaque: bool = False  # an image reference with a part that is not literal (`${TAG}`)


class Mount(NamedTuple):
    """A path of the container's file system that the repo provides: a file or folder
    (`source` a repo path), or a ConfigMap's keys (`source` the manifest that names it;
    `key` one key at exactly `container`, else every key as a file in the folder)."""

    container: str
    source: str
    configmap: str = ""
    key: str = ""


class GpuGrant(NamedTuple):
    """What the carrier of a launch says of the GPUs its node gives it (schemas/hardware.json):
    `number` GPUs at most (None: stated but not countable, `--gpus all`), of `vendor`
    ("nvidia", "amd"), written at `span` as `how` (`nvidia.com/gpu limit`, `#SBATCH --gres`)."""

    number: int | None
    span: Span
    how: str
    vendor: str = "nvidia"


class Invocation(NamedTuple):
    """One launch of the vLLM server found in a file.

    `argv` holds the server's own arguments (after `vllm serve` or the api_server module),
    `env` the environment the process gets, with the span where each variable is set.
    """

    path: str
    argv: tuple[Token, ...]
    env: dict[str, Token]
    origin: str  # e.g. "Deployment/vllm container 'server'"
    image: Token | None = None
    # what the launch's file says about its release, most specific first (release.py reads it;
    # the launch's `image` is read after it)
    release_evidence: tuple[ReleaseEvidence, ...] = ()
    base_dir: str = "."  # folder that relative `--config` paths are resolved from
    partial: bool = False  # some words were opaque (templated or unknown variables)
    anchor: Span | None = None  # where the launch is written (`vllm serve`, a values entry…)
    # what starts the server: "vllm serve", "vllm" (no subcommand), a `python -m` module, or
    # "image" (arguments to an image whose entrypoint is the server)
    entrypoint: str = "vllm serve"
    mounts: tuple[Mount, ...] = ()  # what the container sees of the repo (`--config` files)
    workdir: str | None = None  # the container's working directory, when known

    # Started in-process through vLLM's Python API: the class as imported (`vllm.LLM`,
    # `vllm.engine.arg_utils.AsyncEngineArgs`, `lmcache_vllm.vllm.LLM`); the argv then
    # stands for its keyword arguments, judged as that class of the release takes them.
    api: str | None = None
    # the GPUs the carrier grants the launch's node or container (a pod's limits, `docker run
    # --gpus`, `#SBATCH --gres`): evidence only, each an upper bound of what vLLM will count
    gpus: tuple[GpuGrant, ...] = ()


class Edit(NamedTuple):
    """Replace the text written at `span` (1-based, end column exclusive) with `replacement`.

    `expected` is the text the file must hold there: an edit whose text cannot be found
    exactly where the span says is never applied. A `word` edit deletes a whole argv word:
    the fixer widens it to the word's quotes and one separator (`fixer.locate`)."""

    span: Span
    expected: str
    replacement: str
    word: bool = False


class Autofix(NamedTuple):
    """What `--fix` may do about a finding: edits of one file, applied together or not at all.

    Safe fixes keep what the launch means (the same setting under vLLM's new spelling); unsafe
    ones may change it (a removed setting dropped) and need `--unsafe-fixes`, as in ruff."""

    title: str
    edits: tuple[Edit, ...]
    safe: bool = True

    @property
    def applicability(self) -> str:
        return "safe" if self.safe else "unsafe"


class Related(NamedTuple):
    span: Span
    note: str


class Problem(NamedTuple):
    """What a reader, the argv grammar or a suppression met, under a built-in rule id.

    Stages report problems; `rules.findings` turns them into findings (the rule's message
    filled from `values`) at one boundary, so no stage needs the rule registry.
    """

    rule: str
    span: Span
    release: ReleaseChoice | None = None
    values: tuple[tuple[str, Any], ...] = ()
    autofix: Autofix | None = None  # made where the problem is found (the argv grammar)
    unfixable: str = ""  # why there is no autofix, where one was looked for
    # The vLLM check a generic (mined) problem stands for, `field:Class.field` or
    # `registry:name`: a rule that cites the same site reports it instead (rules/findings.py)
    site: str = ""
    # other places that take part: the flag whose JSON value holds the key at `span`
    related: tuple[Related, ...] = ()


def problem(
    rule: str,
    span: Span,
    release: ReleaseChoice | None = None,
    autofix: Autofix | None = None,
    *,
    site: str = "",
    related: tuple[Related, ...] = (),
    **values: Any,
) -> Problem:
    """A problem whose message fields are given as keywords."""
    return Problem(rule, span, release, tuple(values.items()), autofix, site=site, related=related)


def input_problem(path: str, rule: str, what: str, line: int = 1, col: int = 1) -> Problem:
    """A problem about the input itself (syntax, encoding, templates), at one place."""
    return problem(rule, Span(path, line, col, line, col + 1), None, problem=what)


class Finding(NamedTuple):
    rule: str  # stable id, e.g. "VL101"
    slug: str
    severity: Severity
    message: str
    span: Span
    fix: str = ""
    related: tuple[Related, ...] = ()
    release: ReleaseChoice | None = None
    help_uri: str = ""
    autofix: Autofix | None = None  # located in the file's text (`fixer.vet`), or None
    # The vLLM raise sites the finding stands for in its release (`vllm/x.py:N`, or a mined
    # constraint `field:Class.field`), and whether a generic check made it (a mined
    # constraint) rather than a rule written for the site: one site, one finding
    # (rules/findings.py, `one_per_site`). Not shown; reporters never see it (report/gate.py).
    sites: tuple[str, ...] = ()
    generic: bool = False

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.span.path, self.span.line, self.span.col, self.rule)


class FileResult:
    """What linting one file produced (filled in as the file is read and checked)."""

    __slots__ = (
        "configs_named",
        "findings",
        "invocations",
        "path",
        "settings",
        "standalone_config",
        "suppressions",
    )

    def __init__(self, path: str, findings: list[Finding] | None = None) -> None:
        self.path = path
        self.findings: list[Finding] = [] if findings is None else findings
        self.invocations: list[Invocation] = []
        self.settings: list[Settings] = []  # each invocation's effective settings, in order
        self.standalone_config = False  # the file is a vLLM config on its own
        self.configs_named: list[str] = []  # `--config` files its launches name
        self.suppressions: list[Any] = []  # inline `# vllm-lint: ignore[…]`

    def __repr__(self) -> str:
        return f"FileResult({self.path!r}, {len(self.findings)} finding(s))"
