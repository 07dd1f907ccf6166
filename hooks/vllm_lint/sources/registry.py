"""Read one decoded file and find every vLLM invocation in it, by the file's kind."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from vllm_lint.argv.catalog import Catalog
from vllm_lint.files.sniff import Kind, is_shell_script
from vllm_lint.model import Finding, Invocation, Span, Token
from vllm_lint.read import yaml as yamlsrc
from vllm_lint.read.shell import TEMPLATE_MARK
from vllm_lint.rules import registry as rules
from vllm_lint.sources.shell_commands import opaque_templates


@dataclass
class Extracted:
    invocations: list[Invocation] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # problems met while reading
    standalone_config: bool = False  # the file is a vLLM `--config` file on its own


def problem(path: str, rule_id: str, what: str, line: int = 1, col: int = 1) -> Finding:
    """A finding about the input itself (syntax, encoding, templates)."""
    return rules.flag_finding(rule_id, Span(path, line, col, line, col + 1), None, problem=what)


def extract(path: str, text: str, kind: Kind, config_catalog: Catalog) -> Extracted:
    """`config_catalog` decides whether a standalone YAML file is a vLLM config file."""
    if kind is Kind.UNDECIDED:
        kind = Kind.SHELL if is_shell_script(text[:512].encode("utf-8", "replace")) else Kind.SKIP
    if kind is Kind.YAML:
        return _yaml(path, text, config_catalog)
    if kind is Kind.TEMPLATE:
        return _template(path, text, config_catalog)
    if kind is Kind.SHELL:
        from vllm_lint.sources import shell_script

        return Extracted([_settle(i) for i in shell_script.find(path, text)])
    if kind is Kind.DOCKERFILE:
        from vllm_lint.sources import dockerfile

        found = dockerfile.find(path, text)
        return Extracted([_settle(i) for i in found.invocations], found.findings)
    return Extracted()


def _yaml(path: str, text: str, config_catalog: Catalog) -> Extracted:
    try:
        yf = yamlsrc.load(path, text)
    except yamlsrc.YamlError as exc:
        from vllm_lint.read.templates import has_go_actions

        if has_go_actions(text) or "%{" in text:
            return _template(path, text, config_catalog)
        return Extracted(
            findings=[problem(path, "VL901", f"YAML syntax error: {exc}", exc.line, exc.col)]
        )
    return _read(yf, config_catalog)


def _template(path: str, text: str, config_catalog: Catalog) -> Extracted:
    """Helm/Go, Terraform, envsubst or str.format templates: masked, then read as YAML."""
    from vllm_lint.read import templates

    masked = templates.mask(text, path)
    try:
        yf = yamlsrc.load(path, masked.text)
    except yamlsrc.YamlError as exc:
        what = "a template that is not YAML even with its expressions masked; not checked"
        return Extracted(findings=[problem(path, "VL903", what, exc.line)])
    found = _read(yf, config_catalog)
    if masked.flavor:
        language = {"go": "Go/Helm", "terraform": "Terraform/envsubst", "format": "str.format"}
        name = language.get(masked.flavor, masked.flavor)
        if found.invocations:
            what = (
                f"{name} template: literal flags were checked, templated values were not "
                "(one rendering: every `if` taken)"
            )
            found.findings.append(problem(path, "VL905", what, masked.first_line))
        elif _mentions_launch(text):  # e.g. `command: {{ toYaml .Values.command }}`
            what = f"{name} template: no vLLM launch is visible before rendering; not checked"
            found.findings.append(problem(path, "VL903", what, masked.first_line))
    return found


def _mentions_launch(text: str) -> bool:
    """A template that names the server or its image (not a helper that names vLLM)."""
    return any(m in text for m in ("vllm serve", "api_server", "vllm-openai", "engine_kwargs"))


def _read(yf: yamlsrc.YamlFile, config_catalog: Catalog) -> Extracted:
    from vllm_lint.sources import (
        compose,
        crds,
        env_args,
        helm_values,
        kubernetes,
        ray,
        run_blocks,
        vllm_config,
    )

    try:
        found = list(kubernetes.find(yf)) + list(compose.find(yf))
        found += list(helm_values.find(yf))
        found += list(crds.find(yf))
        found += list(ray.find(yf, config_catalog))
        found += list(run_blocks.find(yf))
        found += list(env_args.find(yf, found))
        standalone = False
        if found:
            found = _unique([_settle(i) for i in found])
        else:
            found = list(vllm_config.find(yf, config_catalog))
            standalone = bool(found)
        notes = _duplicate_keys(yf) if found else []
        return Extracted(found, notes, standalone_config=standalone)
    except yamlsrc.YamlError as exc:  # alias expansion limit while converting values
        return Extracted(findings=[problem(yf.path, "VL901", str(exc), exc.line, exc.col)])


def _duplicate_keys(yf: yamlsrc.YamlFile) -> list[Finding]:
    """Repeated keys in a file that launches vLLM: one of the two values is silently lost."""
    notes = []
    for document in yf.documents:
        for key, first, again in yamlsrc.duplicate_keys(document):
            span = yamlsrc.span(yf, again)
            notes.append(
                rules.flag_finding("VL920", span, None, key=key, first=first.start_mark.line + 1)
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
    return replace(inv, argv=argv, env=env, image=image, partial=partial, origin=origin)


def _settle(inv: Invocation) -> Invocation:
    return opaque_templates(_unmask(inv))
