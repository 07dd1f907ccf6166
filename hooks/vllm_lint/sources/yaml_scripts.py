"""Scripts held in YAML outside a pod spec, read as shell with the variables the file declares.

Shared by the formats that carry such scripts (GitHub Actions, SkyPilot, dstack, Baseten,
KubeRay RayJob, ConfigMap scripts, GitLab CI / Tekton / Argo `script:`): each script is
lexed with the variables its file declares (`env:` / `envs:`), literal values only (a GitHub
`${{ … }}` expression is opaque); an image the file names gives the release.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from vllm_lint.model import Invocation, ReleaseEvidence, Span, Token
from vllm_lint.read.shell import Value, VarValue
from vllm_lint.read.yaml import (
    YamlFile,
    is_mapping,
    is_scalar,
    is_sequence,
    items,
    scalar_positions,
    text_of,
    token,
)
from vllm_lint.sources.commandline import located
from vllm_lint.sources.document import Document
from vllm_lint.sources.shell_commands import ScriptContext, invocation, launches_in


def variables_of(yf: YamlFile, node: Any) -> dict[str, VarValue]:
    """`env:` as a mapping (GitHub, SkyPilot) or a list of `NAME=value` (dstack)."""
    found: dict[str, VarValue] = {}
    if is_mapping(node):
        for name, _key, value in items(node):
            text = text_of(value)
            if text is None or "${{" in text or not is_scalar(value):
                found[name] = None
            else:
                found[name] = located(yf, token(yf, value))
    elif is_sequence(node):
        for item in node.value:
            text = text_of(item)
            if text is None:
                continue
            name, eq, value = text.partition("=")
            if not eq or "${{" in value:
                found[name] = None  # passed through from the environment
                continue
            tok = token(yf, item)
            whole = located(yf, tok)
            found[name] = Value(value, whole.points[len(name) + 1 :])
    return found


def script_launches(
    yf: YamlFile,
    node: Any,
    origin: str,
    context: ScriptContext,
    image: Token | None = None,
    evidence: Sequence[ReleaseEvidence] = (),
) -> Iterator[Invocation]:
    if not is_scalar(node) or text_of(node) is None:
        return
    text = str(node.value)
    if "vllm" not in text:
        return
    base = str(Path(yf.path).parent)
    env = {
        name: tok
        for name, tok in context.exported.items()
        if not tok.opaque or name.startswith("VLLM")
    }
    for launch in launches_in(text, scalar_positions(yf, node), context):
        yield invocation(yf.path, launch, origin, base, image, evidence, extra_env=env)


def _exported(yf: YamlFile, variables: dict[str, VarValue], anchor: Any) -> dict[str, Token]:
    """The declared variables as the server's environment (a step exports its `env:`)."""
    env: dict[str, Token] = {}
    fallback = token(yf, anchor).span if is_scalar(anchor) else Span(yf.path, 1, 1, 1, 2)
    for name, value in variables.items():
        if isinstance(value, Value) and value.points:
            first, last = min(value.points), max(value.points)
            env[name] = Token(value.text, Span(yf.path, *first, last[0], last[1] + 1))
        else:
            env[name] = Token("", fallback, opaque=True)
    return env


def context_of(yf: YamlFile, variables: dict[str, VarValue], anchor: Any) -> ScriptContext:
    return ScriptContext(dict(variables), {}, _exported(yf, variables, anchor))


def each_mapping(
    doc: Document, read: Callable[[YamlFile, Any], Iterator[Invocation]]
) -> Iterator[Invocation]:
    """`read` on every YAML document of the file that is a mapping."""
    yf = doc.yf
    for document in yf.documents:
        if is_mapping(document):
            yield from read(yf, document)
