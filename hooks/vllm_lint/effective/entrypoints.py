"""Is the launch a start of one of vLLM's engine parsers at all, for its release?

The readers record what starts each launch (`Invocation.entrypoint`); the release's flag
catalog lists the server's entry points (`schemas/flags/index.json`, `entrypoints`: the
`python -m` modules with a `__main__`, and `--omni`, which from 0.30 hands the whole command
line to vllm-omni's own CLI), and `schemas/commands/` the other commands that build the engine
parser (`vllm bench latency`, `vllm run-batch`, `python -m vllm.entrypoints.openai.run_batch`).
A launch that cannot reach a parser gets its own problem (rules in `schemas/rules/launch/`) and
no flag checks.
"""

from __future__ import annotations

from vllm_lint import release as releases
from vllm_lint.argv import commands
from vllm_lint.model import Invocation, Problem, ReleaseChoice, Span, problem

_ALWAYS = frozenset({"vllm serve", "image"})  # the CLI's `serve` and server images
SHELL_FORM_CMD = "shell-form CMD"  # Invocation.entrypoint of a Dockerfile's `CMD cmd args`


def launch_problems(
    invocation: Invocation, release: ReleaseChoice, catalogued: str
) -> tuple[list[Problem], bool]:
    """The problems of how the launch starts, and whether its flags reach vLLM's parser
    (`catalogued`: the release whose flag catalog stands for the launch's)."""
    entry = invocation.entrypoint
    anchor = invocation.anchor or (invocation.argv[0].span if invocation.argv else None)
    if anchor is None:
        return [], True
    if entry == SHELL_FORM_CMD:
        command = " ".join(t.text for t in invocation.argv[2:])[:80]
        return [problem("VL502", anchor, release, command=command)], False
    if entry == "vllm":
        first = invocation.argv[0].text if invocation.argv else ""
        return [problem("VL501", anchor, release, first=first)], False
    available = releases.entrypoints_of(release.version)
    if "--omni" in available and any(t.text == "--omni" and not t.opaque for t in invocation.argv):
        return [], False  # vllm-omni's own CLI reads these flags
    if entry in _ALWAYS or entry in available:
        return [], True
    if entry in commands.known_commands():
        if entry in commands.commands_of(catalogued):
            return [], True
        return [_missing_command(entry, anchor, release, catalogued)], False
    last = releases.last_with_entrypoint(entry, release.version)
    where = f" (last in {last})" if last else ""
    return [problem("VL500", anchor, release, module=entry, last=where)], False


def _missing_command(entry: str, anchor: Span, release: ReleaseChoice, catalogued: str) -> Problem:
    """A command of other releases that this one lacks (not yet, or no longer): VL504 for the
    CLI's subcommands, VL500 for a `python -m` module."""
    last = commands.last_with_command(entry, catalogued)
    first = commands.first_with_command(entry)
    if last is not None:
        when = f" (last in {last})"
    elif first is not None:
        when = f" (first in {first})"
    else:
        when = ""
    if not entry.startswith("vllm "):  # a module: the same verdict as any absent module
        return problem("VL500", anchor, release, module=entry, last=when)
    return problem("VL504", anchor, release, command=entry, when=when)
