"""Findings: the one place where what the stages met becomes what users read.

A violated schema rule becomes a finding with its message filled from the settings; a
`Problem` (met by a reader, the argv grammar or the suppressions, under a built-in rule id)
becomes one with the rule's message filled from the problem's values. Each finding carries
the vLLM raise sites it stands for, and a launch reports one finding per site
(`one_per_site`): the precedence of the three kinds of check.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from vllm_lint.effective.settings import Settings
from vllm_lint.model import Finding, Problem, Related, ReleaseChoice, Severity, Span
from vllm_lint.rules.registry import Rule, builtin

_PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.]+)\}")


def render(template: str, settings: Settings, mark_defaults: bool = True) -> str:
    """Fill `{path}` placeholders with the settings' values; defaults say so."""

    def value(match: re.Match[str]) -> str:
        path = match.group(1)
        if path == "release":
            return settings.release.version
        found = settings.get(path)
        text = (
            json.dumps(found)
            if isinstance(found, (dict, list, bool)) or found is None
            else str(found)
        )
        return f"{text} (default)" if mark_defaults and path in settings.defaulted else text

    return _PLACEHOLDER.sub(value, template)


def violation(rule: Rule, settings: Settings) -> Finding | None:
    """The finding of a schema rule the settings violate, on the first flag the file wrote
    (the others as related places); None when the file wrote none of them."""
    located = [(path, where(rule, path, settings)) for path in rule.flags]
    spans = [(p, span) for p, span in located if span is not None and p not in settings.defaulted]
    if not spans:
        return None
    primary = spans[0][1]
    related: list[Related] = []
    top = spans[0][0].partition(".")[0]
    flag = settings.spans.get(top)
    if flag is not None and flag != primary:  # a key inside the flag's value: the flag related
        related.append(Related(flag, f"{settings.label(top)} is given here"))
    for path, span in spans[1:]:
        if span != primary and all(r.span != span for r in related):
            related.append(Related(span, f"{_named(path, span, settings)} is set here"))
    message = render(rule.message, settings)
    vllm_error = rule.vllm_error_for(settings.release.version)
    if vllm_error:
        quoted = render(vllm_error, settings, mark_defaults=False)
        message += f' (vLLM {settings.release.version}: "{quoted}")'
    bounded = rule.since is not None or rule.before is not None
    return Finding(
        rule=rule.id,
        slug=rule.slug,
        severity=_severity(rule, settings.release, bounded),
        message=message,
        span=primary,
        fix=render(rule.fix, settings),
        related=tuple(related),
        release=settings.release,
        help_uri=rule.help_uri,
        sites=rule.sites_for(settings.release.version),
    )


def _named(path: str, span: Span, settings: Settings) -> str:
    """A path as users know it; a key at a place of its own inside a flag's value with its
    key (`--speculative-config num_speculative_tokens`)."""
    top, _, key = path.partition(".")
    label = settings.label(path)
    if key and label == settings.label(top) and span != settings.spans.get(top):
        return f"{label} {key}"
    return label


def where(rule: Rule, path: str, settings: Settings) -> Span | None:
    """Where a rule's flag takes part: the keys of its value the rule's schema names, where
    the file wrote them at places of their own (a JSON value's keys, a `--config` file's nested
    mapping), else the flag."""
    inner = [
        settings.spans[key]
        for key in rule.nested_paths
        if key.startswith(path + ".") and key in settings.spans and key not in settings.defaulted
    ]
    inner = [span for span in inner if span.path == inner[0].path] if inner else []
    if not inner:
        return settings.span(path)
    first = min(inner, key=lambda s: (s.line, s.col))
    last = max(inner, key=lambda s: (s.end_line, s.end_col))
    return first._replace(end_line=last.end_line, end_col=last.end_col)


def from_problem(problem: Problem) -> Finding:
    """A problem under a built-in flag or input check, its message filled from its values."""
    rule = builtin(problem.rule)
    values = dict(problem.values)
    release = problem.release
    values.setdefault("release", release.version if release is not None else "")
    hint = rule.fix.format(**values)
    if problem.unfixable:
        hint += f" (no automatic fix: {problem.unfixable})"
    return Finding(
        rule=rule.id,
        slug=rule.slug,
        severity=_severity(rule, release, True),
        message=rule.message.format(**values),
        span=problem.span,
        fix=hint,
        release=release,
        help_uri=rule.help_uri,
        autofix=problem.autofix,
        related=problem.related,
        sites=(problem.site,) if problem.site else (),
        generic=bool(problem.site),
    )


def _severity(rule: Rule, release: ReleaseChoice | None, per_release: bool) -> Severity:
    """An error judged on a guessed release (release.py: nothing names one this linter knows)
    is a warning when it holds for some releases only (`per_release`: a rule bounded to a
    range, or a flag check of the release's catalog): the release that runs may accept it."""
    if rule.severity is Severity.ERROR and per_release and release is not None and release.guessed:
        return Severity.WARNING
    return rule.severity


def from_problems(problems: Iterable[Problem]) -> list[Finding]:
    return [from_problem(p) for p in problems]


def one_per_site(findings: Iterable[Finding]) -> list[Finding]:
    """The findings of one launch, one per vLLM raise site and place.

    vLLM refuses a launch at one site per check; the linter may describe that check twice:
    a rule written for the site, and the generic check of a mined constraint (VL005, VL006,
    VL012, VL014, VL024) whose constraint the rule names in `preempts` (vLLM raises at the
    rule's site first). On one span, a
    finding that shares a site with one kept there is dropped; the specific one
    (a rule's, citing vLLM's file:line and quoting its error) is kept before a generic one,
    then the lower rule id. Findings with no known site, or distinct sites (two vLLM checks
    on one flag), are each kept.
    """
    findings = list(findings)
    ranked = sorted((f for f in findings if f.sites), key=lambda f: (f.generic, f.rule))
    claimed: set[tuple[Span, str]] = set()
    dropped: set[int] = set()
    for finding in ranked:  # specific first
        keys = {(finding.span, site) for site in finding.sites}
        if claimed.isdisjoint(keys):
            claimed |= keys
        else:
            dropped.add(id(finding))
    return [f for f in findings if id(f) not in dropped]
