"""Property tests: any YAML shape, any bytes, any argv — a result, never an exception."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vllm_lint.options import Options
from vllm_lint.pipeline import lint_bytes

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits

KEYS = st.sampled_from(
    [
        "containers",
        "args",
        "command",
        "image",
        "env",
        "name",
        "value",
        "services",
        "entrypoint",
        "environment",
        "spec",
        "template",
        "kind",
        "model",
        "use-replayssm",
        "<<",
        "valueFrom",
    ]
)
SCALARS = st.one_of(
    st.sampled_from(
        [
            "vllm",
            "serve",
            "vllm/vllm-openai:v0.33.0",
            "--use-replayssm",
            "-c",
            "/bin/sh",
            "vllm serve m --max-model-len 4k",
            "$(X)",
            "${Y:-1}",
            "--speculative-config",
            "{",
            "",
        ]
    ),
    st.integers(),
    st.booleans(),
    st.none(),
    st.text(max_size=20),
)
TREES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(KEYS, children, max_size=5)
    ),
    max_leaves=30,
)
OPTIONS = Options(vllm_version="0.33.0")


def _check(path: str, data: bytes) -> None:
    result = lint_bytes(path, data, OPTIONS)
    for finding in result.findings:
        assert finding.span.line >= 1 and finding.span.col >= 1 and finding.message


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=TREES)
def test_any_yaml_shape(tree: Any) -> None:
    _check("t.json", ("# vllm\n" + json.dumps(tree)).encode())


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300))
def test_any_bytes(data: bytes) -> None:
    _check("t.yaml", b"vllm " + data)


@settings(max_examples=200, deadline=None)
@given(
    script=st.text(alphabet=st.sampled_from(list("vlm serv-'\"\\$`(){}#;&|<>\n =ab")), max_size=80)
)
def test_any_shell_script_in_a_pod(script: str) -> None:
    doc = {
        "kind": "Pod",
        "spec": {
            "containers": [
                {
                    "image": "vllm/vllm-openai:v0.33.0",
                    "command": ["sh", "-c", "vllm serve m " + script],
                }
            ]
        },
    }
    _check("p.json", json.dumps(doc).encode())
