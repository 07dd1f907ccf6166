"""The `VLLM_*` environment variables of a launch, judged against the release's table.

`schemas/envs/<release>.json` (tools/mine_envs.py) lists every variable of
`vllm/envs.py:environment_variables`, its kind and choices, and how the release checks the
environment at startup (`environ_check`): from 0.17 `validate_environ` logs every `VLLM_*`
variable the table lacks, and refuses it with `--fail-on-environ-validation`; 0.34 refuses the
variables it removed, with a migration hint, whatever the flag says.

Findings: VL015 (an unknown variable vLLM ignores: a warning), VL017 (one vLLM refuses: an
unknown one with `--fail-on-environ-validation`, a removed one in 0.34), VL016 (a value outside
a variable's choices, or not a number where vLLM converts one: vLLM raises when it reads the
variable, which may be late or never: a warning).
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from functools import cache
from typing import Any

from vllm_lint.effective.settings import Settings
from vllm_lint.model import Problem, problem


@cache
def envs_for(release: str) -> Mapping[str, Any] | None:
    from vllm_lint import release_data  # keyframes and differences (release_data.py)

    return release_data.load("envs", release)


def check(
    settings: Settings, release: str, hints: MutableMapping[tuple[str, ...], Any]
) -> list[Problem]:
    """The problems of the launch's `VLLM_*` variables (others are not vLLM's to judge);
    `hints`: the run's memo of "did you mean" answers (Options.hints)."""
    names = [
        n
        for n in settings.document.get("env", {})
        if n.startswith("VLLM_") and f"env.{n}" not in settings.opaque
    ]
    if not names:
        return []
    data = envs_for(release)
    if data is None:
        return []
    table: Mapping[str, Any] = data["variables"]
    check_ = data.get("environ_check") or {}
    hard = bool(check_) and settings.get("fail_on_environ_validation") is True
    problems: list[Problem] = []
    for name in names:
        span = settings.span(f"env.{name}")
        if span is None:
            continue
        removed = (check_.get("removed") or {}).get(name)
        if any(r["message"].startswith(f"{name}=") for r in check_.get("raises", ())):
            continue  # judged by its value (0.34 VLLM_USE_V2_MODEL_RUNNER: VL120)
        if removed is not None:
            problems.append(_unknown(settings, name, span, release, f": {removed}", True, hints))
        elif name not in table:
            refused = hard and check_.get("unknown_with_flag") == "error"
            problems.append(_unknown(settings, name, span, release, "", refused, hints))
        else:
            said = _bad_value(table[name], settings.get(f"env.{name}"))
            if said:
                problems.append(
                    problem(
                        "VL016",
                        span,
                        settings.release,
                        name=name,
                        value=settings.get(f"env.{name}"),
                        expected=said,
                        line=table[name].get("line", "?"),
                    )
                )
    return problems


def _unknown(
    settings: Settings,
    name: str,
    span: Any,
    release: str,
    note: str,
    refused: bool,
    hints: MutableMapping[tuple[str, ...], Any],
) -> Problem:
    if note:
        hint, last = "", ""
    else:
        found = hints.get(("env", name, release))
        if found is None:
            found = hints[("env", name, release)] = _hint(name, release)
        hint, last = found
    if refused:
        effect = "vLLM refuses to start"
    elif (envs_for(release) or {}).get("environ_check"):
        effect = "vLLM warns and ignores it"
    else:
        effect = "vLLM ignores it"
    return problem(
        "VL017" if refused else "VL015",
        span,
        settings.release,
        name=name,
        effect=effect,
        note=note + hint + (f" (last in vLLM {last})" if last else ""),
    )


def _hint(name: str, release: str) -> tuple[str, str]:
    """ "did you mean" and the last release that had the variable (memoized per run by
    `_unknown`: the same stale variables, VLLM_USE_V1 …, recur in every manifest of a repo)."""
    import difflib  # only for a variable the release lacks

    close = difflib.get_close_matches(name, list(_table(release)), n=1, cutoff=0.8)
    return (f"; did you mean {close[0]}?" if close else ""), _last_release_with(name, release)


def _table(release: str) -> Mapping[str, Any]:
    return (envs_for(release) or {}).get("variables", {})


def _last_release_with(name: str, release: str) -> str:
    """The newest catalogued release before `release` whose table has `name` ("" if none):
    read only for a variable the release does not know."""
    from vllm_lint.release import key, known_releases

    older = [r for r in known_releases() if key(r) < key(release)]
    for candidate in reversed(older):
        from vllm_lint.release import catalog_release

        if name in _table(catalog_release(candidate)):
            return candidate
    return ""


def _bad_value(rec: Mapping[str, Any], value: Any) -> str:
    """What vLLM expects where it would refuse `value` when it reads the variable, else ""."""
    if not isinstance(value, str):
        return ""
    kind = rec.get("kind")
    if kind == "choice" and rec.get("choices") and not rec.get("choices_dynamic"):
        choices = rec["choices"]
        seen = value if rec.get("case_sensitive", True) else value.lower()
        allowed = choices if rec.get("case_sensitive", True) else [c.lower() for c in choices]
        if seen not in allowed:
            return "one of " + ", ".join(choices)
    elif kind == "choice_list" and rec.get("choices") and not rec.get("choices_dynamic"):
        sensitive = rec.get("case_sensitive", True)
        allowed = set(rec["choices"] if sensitive else [c.lower() for c in rec["choices"]])
        items = [v.strip() for v in value.split(",") if v.strip()]
        if any((i if sensitive else i.lower()) not in allowed for i in items):
            return "a comma-separated list of " + ", ".join(rec["choices"])
    elif kind in ("int", "bool_int"):
        try:
            int(value)
        except ValueError:
            return "an integer" + (" (0 or 1)" if kind == "bool_int" else "")
    elif kind == "float":
        try:
            float(value)
        except ValueError:
            return "a number"
    return ""
