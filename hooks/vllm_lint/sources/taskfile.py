"""Taskfiles (`Taskfile.yml`, https://taskfile.dev/reference/schema/): each task's `cmds`
(strings, or `cmd:` entries) are shell commands, run with the file's and the task's `env:`.
Go-template `{{.VAR}}` expressions are rendered by Task at run time: the shell lexer reads
them as unknown words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation
from vllm_lint.read.yaml import YamlFile, get, is_mapping, is_scalar, is_sequence, items
from vllm_lint.sources.document import Document
from vllm_lint.sources.yaml_scripts import context_of, each_mapping, script_launches, variables_of


def find(doc: Document) -> Iterator[Invocation]:
    return each_mapping(doc, _taskfile)


def _taskfile(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    tasks = get(document, "tasks")
    if not is_mapping(tasks) or get(document, "version") is None:
        return
    file_env = variables_of(yf, get(document, "env"))
    for name, _key, task in items(tasks):
        if is_sequence(task) or is_scalar(task):  # the short forms: a list of commands, one
            cmds, env = task, file_env
        else:
            cmds = get(task, "cmds") if is_mapping(task) else None
            env = {**file_env, **variables_of(yf, get(task, "env"))}
        entries = cmds.value if is_sequence(cmds) else [cmds] if is_scalar(cmds) else []
        for entry in entries:
            command = get(entry, "cmd") if is_mapping(entry) else entry
            context = context_of(yf, env, command)
            yield from script_launches(yf, command, f"task {name}", context)
