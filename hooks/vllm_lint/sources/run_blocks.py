"""Scripts held in YAML outside a pod spec: GitHub Actions and composite-action `run:` steps,
SkyPilot `run:`, dstack `commands:`, Baseten `start_command`, KubeRay RayJob `entrypoint`,
GitLab CI / Tekton / Argo `script:`, and script files carried in a ConfigMap's `data`.

Each script is lexed with the variables its file declares (`env:` / `envs:`), literal values
only: a GitHub `${{ … }}` expression is opaque. An image the file names (`image_id:
docker:vllm/vllm-openai:v…`, dstack `image:`) gives the release.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from vllm_lint.model import Invocation, ReleaseChoice, Span, Token
from vllm_lint.read.shell import Value, VarValue
from vllm_lint.read.yaml import (
    YamlFile,
    get,
    is_mapping,
    is_scalar,
    is_sequence,
    items,
    scalar_positions,
    text_of,
    token,
    walk,
)
from vllm_lint.release import from_image, normalize
from vllm_lint.sources.commandline import located
from vllm_lint.sources.programs import is_server_image
from vllm_lint.sources.shell_commands import ScriptContext, invocation, launches_in

_PIP_PIN = re.compile(
    r"pip3?\s+install\b[^\n]*?(?<![\w.-])[\"']?vllm(?:\[[^\]]*\])?\s*===?\s*v?(\d+\.\d+\.\d+)"
)
_SCRIPT_KEYS = ("script", "source")


def find(yf: YamlFile) -> Iterator[Invocation]:
    for document in yf.documents:
        if not is_mapping(document):
            continue
        yield from _github(yf, document)
        yield from _skypilot(yf, document)
        yield from _dstack(yf, document)
        yield from _baseten(yf, document)
        yield from _rayjob(yf, document)
        yield from _configmap(yf, document)
        yield from _ci_scripts(yf, document)


# -- helpers --------------------------------------------------------------------------------


def _variables(yf: YamlFile, node: Any) -> dict[str, VarValue]:
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


def _script(
    yf: YamlFile,
    node: Any,
    origin: str,
    context: ScriptContext,
    image: Token | None = None,
    hint: ReleaseChoice | None = None,
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
        yield invocation(yf.path, launch, origin, base, image, hint, extra_env=env)


def _image_hint(image: Token | None) -> ReleaseChoice | None:
    if image is None or image.opaque or not is_server_image(image.text):
        return None
    return from_image(image.text)


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


def _context(yf: YamlFile, variables: dict[str, VarValue], anchor: Any) -> ScriptContext:
    return ScriptContext(dict(variables), {}, _exported(yf, variables, anchor))


# -- GitHub Actions -------------------------------------------------------------------------


def _github(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    workflow_env = _variables(yf, get(document, "env"))
    jobs = get(document, "jobs")
    if is_mapping(jobs):
        for job_name, _key, job in items(jobs):
            job_env = {**workflow_env, **_variables(yf, get(job, "env"))}
            yield from _steps(yf, get(job, "steps"), job_env, f"job {job_name}")
    runs = get(document, "runs")
    if is_mapping(runs):  # a composite action
        yield from _steps(yf, get(runs, "steps"), workflow_env, "composite action")


def _steps(yf: YamlFile, steps: Any, env: dict[str, VarValue], owner: str) -> Iterator[Invocation]:
    if not is_sequence(steps):
        return
    for index, step in enumerate(steps.value):
        run = get(step, "run")
        if run is None:
            continue
        name = text_of(get(step, "name")) or f"step {index + 1}"
        variables = {**env, **_variables(yf, get(step, "env"))}
        context = _context(yf, variables, run)
        yield from _script(yf, run, f"{owner} step '{name}'", context)


# -- SkyPilot, dstack, Baseten, RayJob ------------------------------------------------------


def _skypilot(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    run = get(document, "run")
    if not is_scalar(run) or get(document, "jobs") is not None:
        return
    variables = _variables(yf, get(document, "envs"))
    image_node = get(get(document, "resources"), "image_id")
    image = None
    if is_scalar(image_node) and text_of(image_node):
        raw = token(yf, image_node)
        text = raw.text.removeprefix("docker:")
        image = Token(text, raw.span, raw.opaque)
    hint = _image_hint(image) or _setup_pin(yf, get(document, "setup"))
    yield from _script(yf, run, "SkyPilot run", _context(yf, variables, run), image, hint)


def _setup_pin(yf: YamlFile, setup: Any) -> ReleaseChoice | None:
    text = text_of(setup)
    match = _PIP_PIN.search(text or "")
    if not match:
        return None
    line = token(yf, setup).span.line
    return ReleaseChoice(
        normalize(match.group(1)), f"pip install vllm=={match.group(1)} in setup (line {line})"
    )


def _dstack(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    commands = get(document, "commands")
    if not is_sequence(commands):
        return
    variables = _variables(yf, get(document, "env"))
    image_node = get(document, "image")
    image = token(yf, image_node) if is_scalar(image_node) and text_of(image_node) else None
    context = _context(yf, variables, commands.value[0] if commands.value else None)
    for item in commands.value:  # one shell session: variables carry over
        yield from _script(yf, item, "dstack commands", context, image, _image_hint(image))


def _baseten(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    start = get(get(document, "docker_server"), "start_command")
    if start is None:
        return
    image_node = get(get(document, "base_image"), "image")
    image = token(yf, image_node) if is_scalar(image_node) and text_of(image_node) else None
    context = _context(yf, _variables(yf, get(document, "environment_variables")), start)
    yield from _script(yf, start, "Baseten start_command", context, image, _image_hint(image))


def _rayjob(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    if text_of(get(document, "kind")) != "RayJob":
        return
    spec = get(document, "spec")
    entry = get(spec, "entrypoint")
    head = get(get(get(get(spec, "rayClusterSpec"), "headGroupSpec"), "template"), "spec")
    containers = get(head, "containers")
    image = None
    if is_sequence(containers) and containers.value:
        image_node = get(containers.value[0], "image")
        if is_scalar(image_node) and text_of(image_node):
            image = token(yf, image_node)
    context = ScriptContext()
    yield from _script(yf, entry, "RayJob entrypoint", context, image, _image_hint(image))


# -- ConfigMap scripts, CI `script:` ----------------------------------------------------------


def _configmap(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    if text_of(get(document, "kind")) != "ConfigMap":
        return
    data = get(document, "data")
    name = text_of(get(get(document, "metadata"), "name")) or "?"
    for key, _knode, value in items(data):
        text = text_of(value) or ""
        if key.endswith((".sh", ".bash")) or text.startswith("#!"):
            yield from _script(yf, value, f"ConfigMap/{name} {key}", ScriptContext())


def _ci_scripts(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    """GitLab CI jobs (`script:` lists), Tekton steps and Argo script templates."""
    if not any(f"{key}:" in yf.text for key in _SCRIPT_KEYS):
        return
    for node in walk(document):
        if not is_mapping(node) or get(node, "containers") is not None:
            continue
        for key in _SCRIPT_KEYS:
            script = get(node, key)
            if script is None:
                continue
            image_node = get(node, "image")
            image = token(yf, image_node) if is_scalar(image_node) and text_of(image_node) else None
            variables = _variables(yf, get(node, "variables") or get(node, "env"))
            context = _context(yf, variables, script)
            lines = script.value if is_sequence(script) else [script]
            for line in lines:
                yield from _script(yf, line, f"{key}:", context, image, _image_hint(image))
