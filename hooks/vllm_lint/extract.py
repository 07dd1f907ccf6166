"""Read one decoded file and find every vLLM invocation in it, by the file's kind."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import rules, yamlsrc
from .catalog import Catalog
from .model import Finding, Invocation, Span
from .sniff import Kind


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
    if kind is Kind.YAML:
        return _yaml(path, text, config_catalog)
    return Extracted()


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


def _yaml(path: str, text: str, config_catalog: Catalog) -> Extracted:
    from .sources import compose, kubernetes, vllm_config

    try:
        yf = yamlsrc.load(path, text)
        found = list(kubernetes.find(yf)) + list(compose.find(yf))
        standalone = False
        if not found:
            found = list(vllm_config.find(yf, config_catalog))
            standalone = bool(found)
        notes = _duplicate_keys(yf) if found else []
        return Extracted(found, notes, standalone_config=standalone)
    except yamlsrc.YamlError as exc:
        if "{{" in text:
            return Extracted(
                findings=[problem(path, "VL903", "a template, not YAML; not checked", exc.line)]
            )
        return Extracted(
            findings=[problem(path, "VL901", f"YAML syntax error: {exc}", exc.line, exc.col)]
        )
