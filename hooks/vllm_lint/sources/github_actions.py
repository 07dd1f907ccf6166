"""GitHub Actions workflows and composite actions: the `run:` steps, with the workflow's,
job's and step's `env:`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation
from vllm_lint.read.shell import VarValue
from vllm_lint.read.yaml import YamlFile, get, is_mapping, is_sequence, items, text_of
from vllm_lint.sources.document import Document
from vllm_lint.sources.yaml_scripts import context_of, each_mapping, script_launches, variables_of


def find(doc: Document) -> Iterator[Invocation]:
    return each_mapping(doc, _github)


def _github(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    workflow_env = variables_of(yf, get(document, "env"))
    jobs = get(document, "jobs")
    if is_mapping(jobs):
        for job_name, _key, job in items(jobs):
            job_env = {**workflow_env, **variables_of(yf, get(job, "env"))}
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
        variables = {**env, **variables_of(yf, get(step, "env"))}
        context = context_of(yf, variables, run)
        yield from script_launches(yf, run, f"{owner} step '{name}'", context)
