"""Every format vllm-lint reads, in one table, and finding the launches of one file.

A format is one module under `sources/` with `find(doc) -> Iterable[Invocation]`, and one
line in `SOURCES`: its id, the kind of file it reads (by name and shebang, `files/sniff.py`),
the words one of which the file must contain for the reader to run (a cheap test before any
walk of the parsed file), and whether it runs only when no other reader found a launch.
The modules are imported when a file of their kind is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import import_module
from pathlib import Path
from typing import NamedTuple, Protocol

from vllm_lint.argv.catalog import Catalog
from vllm_lint.argv.commands import markers
from vllm_lint.files.sniff import Kind, kind_for
from vllm_lint.model import Invocation, Problem, Token, input_problem, problem
from vllm_lint.read import yaml
from vllm_lint.read.shell import TEMPLATE_MARK
from vllm_lint.sources.document import Document


class _Reader(Protocol):
    def find(self, doc: Document) -> Iterable[Invocation]: ...


class Source(NamedTuple):
    id: str
    kind: Kind  # YAML readers also read templates, once masked
    module: str  # under vllm_lint.sources
    markers: tuple[str, ...] = ()  # the text holds one of them, or the reader is not run
    fallback: bool = False  # runs only when no other reader of the file found a launch

    def reader(self) -> _Reader:
        module: _Reader = import_module(f"vllm_lint.sources.{self.module}")
        return module

    def may_read(self, text: str) -> bool:
        return not self.markers or any(marker in text for marker in self.markers)


_PYTHON_ARGV: tuple[str, ...] = (
    '"serve"',
    "'serve'",
    "vllm serve",
    "api_server",
    "vllm-openai",
    "vllm.entrypoints",
)
# the engine commands' words (`"bench"`, `run_batch`: schemas/commands/, argv/commands.py)
_PYTHON_ARGV += (*(f'"{w}"' for w in markers()), *(f"'{w}'" for w in markers()), "vllm.benchmarks")
# `LLM as`: `from vllm import LLM as VLLModel` then `VLLModel(...)` holds no `LLM(` (the names are
# resolved through the imports by read/pyscope.py; the marker only lets the file be parsed)
_PYTHON_API = ("LLM(", "LLM as", "EngineArgs", "from_engine_args", "engine_kwargs", "run_server")

# In this order: a reader sees what the readers above it found (`Document.found`).
SOURCES: tuple[Source, ...] = (
    Source("kubernetes", Kind.YAML, "kubernetes", ("containers", "initContainers")),
    Source("compose", Kind.YAML, "compose", ("services",)),
    Source("helm-values", Kind.YAML, "helm_values"),
    Source(
        "operator-crds", Kind.YAML, "crds", ("Model", "BackendRuntime", "VLLMRuntime", "catalog")
    ),
    Source("ray-engine-kwargs", Kind.YAML, "ray", ("engine_kwargs", "engine_args")),
    Source("github-actions", Kind.YAML, "github_actions", ("run",)),
    Source("skypilot", Kind.YAML, "skypilot", ("run",)),
    Source("dstack", Kind.YAML, "dstack", ("commands",)),
    Source("baseten", Kind.YAML, "baseten", ("start_command",)),
    Source("kuberay-job", Kind.YAML, "rayjob", ("RayJob",)),
    Source("configmap-scripts", Kind.YAML, "configmap_scripts", ("ConfigMap",)),
    Source("ci-scripts", Kind.YAML, "ci_scripts", ("script:", "source:")),
    Source("env-args", Kind.YAML, "env_args", ("VLLM_ADDITIONAL_ARGS",)),
    Source("taskfile", Kind.YAML, "taskfile", ("tasks",)),
    Source("beaker", Kind.YAML, "beaker", ("tasks",)),
    Source("vllm-config", Kind.YAML, "vllm_config", fallback=True),
    Source("shell", Kind.SHELL, "shell_script"),
    Source("dockerfile", Kind.DOCKERFILE, "dockerfile"),
    Source("make", Kind.MAKE, "make_recipes"),
    Source("just", Kind.JUST, "justfile"),
    Source("markdown", Kind.MARKDOWN, "markdown"),
    Source("rst", Kind.RST, "rst"),
    Source("notebook", Kind.NOTEBOOK, "notebook", ("cells",)),
    # Python that names vLLM mostly imports it: only a launch-like word makes it worth a parse
    Source("python-argv", Kind.PYTHON, "python_argv", _PYTHON_ARGV),
    Source("python-api", Kind.PYTHON, "python_api", _PYTHON_API),
)


class Extracted:
    """What the readers found in one file."""

    __slots__ = ("invocations", "problems", "standalone_config")

    def __init__(
        self,
        invocations: list[Invocation] | None = None,
        problems: list[Problem] | None = None,  # met while reading
        standalone_config: bool = False,  # the file is a vLLM `--config` file on its own
    ) -> None:
        self.invocations: list[Invocation] = [] if invocations is None else invocations
        self.problems: list[Problem] = [] if problems is None else problems
        self.standalone_config = standalone_config


def extract(
    path: str,
    text: str,
    kind: Kind,
    catalog: Callable[[], Catalog],
    root: Path | None = None,
) -> Extracted:
    """Every launch of a decoded file. `catalog` gives the flag catalog of the release the
    file is read for: it decides whether a standalone YAML file is a vLLM config file; `root`
    bounds the other files a reader may read (a Dockerfile's entrypoint script). Each JSON
    word is given where its keys are written (`json_parts`), whichever reader found it."""
    from vllm_lint.sources.json_parts import located

    found = _extract(path, text, kind, catalog, root)
    found.invocations = located(found.invocations, path, text)
    return found


def _extract(
    path: str,
    text: str,
    kind: Kind,
    catalog: Callable[[], Catalog],
    root: Path | None = None,
) -> Extracted:
    if kind is Kind.UNDECIDED:
        kind = kind_for(path, text[:512].encode("utf-8", "replace"))
    if kind is Kind.YAML:
        return _yaml(path, text, catalog, root)
    if kind is Kind.TEMPLATE:
        return _template(path, text, catalog, root)
    if kind is Kind.SKIP:
        return Extracted()
    doc = Document(path, text, catalog, root=root)
    found, _fallback = _run(doc, kind)
    return Extracted([_settle(i) for i in found], _not_parsed(doc, kind))


def _not_parsed(doc: Document, kind: Kind) -> list[Problem]:
    """Python or a notebook that does not parse is said so (its launches were not looked
    for)."""
    path, text = doc.path, doc.text
    if kind is Kind.PYTHON:
        from vllm_lint.read import pysource

        if doc.python is not None:
            return []
        error = pysource.syntax_error(doc.text)
        line, what = error if error is not None else (1, "not parsed")
        return [input_problem(path, "VL907", f"Python syntax error ({what}); not checked", line)]
    if kind is Kind.NOTEBOOK:
        from vllm_lint.read import notebook

        try:
            notebook.parse(text)
        except notebook.NotJson as exc:
            line = text.count("\n", 0, exc.offset) + 1
            what = f"a notebook that is not JSON ({exc}); not checked"
            return [input_problem(path, "VL907", what, line)]
    return []


def _run(doc: Document, kind: Kind) -> tuple[list[Invocation], bool]:
    """The launches the readers of `kind` find, in the table's order, and whether a
    fallback reader found them (no other reader found any)."""
    for source in SOURCES:
        if source.kind is not kind or not source.may_read(doc.text):
            continue
        if source.fallback:
            if not doc.found:
                doc.found.extend(source.reader().find(doc))
                return doc.found, bool(doc.found)
            continue
        doc.found.extend(source.reader().find(doc))
    return doc.found, False


def _yaml(
    path: str, text: str, catalog: Callable[[], Catalog], root: Path | None = None
) -> Extracted:
    if "{{" in text:
        from vllm_lint.read.templates import bare_action_lines

        actions = bare_action_lines(text)
        if actions and not _all_in_block_scalars(path, text, actions):
            # a Helm template, even where it parses as YAML (`name: {{ .Release.Name }}` is a
            # flow mapping): read as plain YAML, its actions would be silently misread
            return _template(path, text, catalog, root)
    try:
        yf = yaml.load(path, text)
    except yaml.YamlError as exc:
        from vllm_lint.read.templates import has_go_actions

        if has_go_actions(text) or "%{" in text:
            return _template(path, text, catalog, root)
        return Extracted(
            problems=[input_problem(path, "VL901", f"YAML syntax error: {exc}", exc.line, exc.col)]
        )
    return _read_yaml(yf, catalog, root)


def _all_in_block_scalars(path: str, text: str, lines: list[int]) -> bool:
    """YAML that holds a template as text (a ConfigMap's Jinja chat template in a `|` block):
    every action line is inside a literal or folded scalar of a file that parses as YAML."""
    try:
        yf = yaml.load(path, text)
    except yaml.YamlError:
        return False
    blocks = []
    for document in yf.documents:
        for node in yaml.walk(document):
            if yaml.is_scalar(node) and getattr(node, "style", None) in ("|", ">"):
                blocks.append((node.start_mark.line + 1, node.end_mark.line + 1))
    return all(any(first <= line <= last for first, last in blocks) for line in lines)


def _template(
    path: str, text: str, catalog: Callable[[], Catalog], root: Path | None = None
) -> Extracted:
    """Helm/Go, Terraform, envsubst or str.format templates: masked, then read as YAML."""
    from vllm_lint.read import templates

    masked = templates.mask(text, path)
    try:
        yf = yaml.load(path, masked.text)
    except yaml.YamlError as exc:
        # a template of a command line (a Jinja macro that builds `vllm serve …`): read as
        # shell, where `{{ }}` are unknown words and `{% %}` are left out
        launches, _fallback = _run(Document(path, text, catalog, root=root), Kind.SHELL)
        if launches:
            what = "template read as a shell script: literal flags checked, templated values not"
            found = Extracted([_settle(i) for i in launches])
            found.problems.append(input_problem(path, "VL905", what, masked.first_line))
            return found
        what = "a template that is not YAML even with its expressions masked; not checked"
        return Extracted(problems=[input_problem(path, "VL903", what, exc.line)])
    found = _read_yaml(yf, catalog, root)
    if masked.flavor:
        language = {"go": "Go/Helm", "terraform": "Terraform/envsubst", "format": "str.format"}
        name = language.get(masked.flavor, masked.flavor)
        if found.invocations:
            what = (
                f"{name} template: literal flags were checked, templated values were not "
                "(one rendering: every `if` taken)"
            )
            found.problems.append(input_problem(path, "VL905", what, masked.first_line))
        elif _mentions_launch(text):  # e.g. `command: {{ toYaml .Values.command }}`
            what = f"{name} template: no vLLM launch is visible before rendering; not checked"
            found.problems.append(input_problem(path, "VL903", what, masked.first_line))
    return found


def _mentions_launch(text: str) -> bool:
    """A template that names the server or its image (not a helper that names vLLM)."""
    return any(m in text for m in ("vllm serve", "api_server", "vllm-openai", "engine_kwargs"))


def _read_yaml(
    yf: yaml.YamlFile, catalog: Callable[[], Catalog], root: Path | None = None
) -> Extracted:
    try:
        launches, standalone = _run(Document(yf.path, yf.text, catalog, yf, root=root), Kind.YAML)
        found = _unique([_settle(i) for i in launches])
        notes = _duplicate_keys(yf) if found else []
        return Extracted(found, notes, standalone_config=standalone)
    except yaml.YamlError as exc:  # alias expansion limit while converting values
        line, col = yaml.located(exc, yf)
        return Extracted(problems=[input_problem(yf.path, "VL901", str(exc), line, col)])


def _duplicate_keys(yf: yaml.YamlFile) -> list[Problem]:
    """Repeated keys in a file that launches vLLM: one of the two values is silently lost."""
    notes = []
    for document in yf.documents:
        for key, first, again in yaml.duplicate_keys(document):
            notes.append(
                problem("VL920", yaml.span(yf, again), key=key, first=yaml.line_of(yf, first))
            )
    return notes


def _unique(found: list[Invocation]) -> list[Invocation]:
    """Two readers may see the same launch (a pod spec inside a CRD): keep the first."""
    seen: set[tuple[object, ...]] = set()
    kept = []
    for inv in found:
        key = (inv.anchor, tuple((t.text, t.span) for t in inv.argv))
        if key not in seen:
            seen.add(key)
            kept.append(inv)
    return kept


def _unmask(inv: Invocation) -> Invocation:
    """Words with masked template characters are opaque; show them as `{{…}}`."""
    from vllm_lint.read.templates import display

    def fix(tok: Token) -> Token:
        if TEMPLATE_MARK in tok.text:
            return Token(display(tok.text), tok.span, opaque=True)
        return tok

    argv = tuple(fix(t) for t in inv.argv)
    env = {name: fix(t) for name, t in inv.env.items()}
    image = fix(inv.image) if inv.image is not None else None
    origin = display(inv.origin) if TEMPLATE_MARK in inv.origin else inv.origin
    if argv == inv.argv and env == inv.env and image == inv.image and origin == inv.origin:
        return inv
    partial = inv.partial or any(t.opaque for t in argv)
    return inv._replace(argv=argv, env=env, image=image, partial=partial, origin=origin)


def _settle(inv: Invocation) -> Invocation:
    """Template words are opaque (never judged), whichever reader found them."""
    from vllm_lint.sources.shell_commands import opaque_templates

    return opaque_templates(_unmask(inv))
