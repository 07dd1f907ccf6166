"""Operator custom resources whose controller builds the vLLM command line from fields.

- KubeAI `Model` (and the `catalog.<name>` entries of KubeAI's models chart, which render
  to Models): `python3 -m vllm.entrypoints.openai.api_server --model=<from url>
  --served-model-name=<name>` + `spec.args` (+ `--enable-lora` with adapters), per
  internal/modelcontroller/engine_vllm.go (corpus-notes §4.2).
- llmaz `BackendRuntime`: `spec.command` + each `recommendedConfigs[].args` (older: `args[]`
  of `{name, flags}`); `spec.image:spec.version` names the release.
- production-stack `VLLMRuntime` (operator vllmruntime_controller.go L441-565, corpus-notes
  §4.1): like the chart, but `--no-enable-chunked-prefill` and `--no-enable-prefix-caching`
  are written whenever the field is not true.

Fields filled in at run time (`{{ .ModelPath }}`, a non-HF url) stay opaque.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from vllm_lint.model import Invocation, Token
from vllm_lint.read.yaml import (
    YamlFile,
    get,
    is_mapping,
    is_scalar,
    is_sequence,
    items,
    span,
    text_of,
    token,
)
from vllm_lint.sources.chart_argv import ArgvBuilder, has_key, key_node, truthy
from vllm_lint.sources.document import Document
from vllm_lint.sources.kubernetes import env_list
from vllm_lint.sources.programs import server_args
from vllm_lint.sources.shell_commands import yaml_invocation


def find(doc: Document) -> Iterator[Invocation]:
    yf = doc.yf
    for document in yf.documents:
        if not is_mapping(document):
            continue
        kind = text_of(get(document, "kind"))
        if kind == "Model" and "kubeai" in (text_of(get(document, "apiVersion")) or ""):
            name = text_of(get(get(document, "metadata"), "name")) or "?"
            yield from _kubeai(yf, get(document, "spec"), name, f"KubeAI Model/{name}")
        elif kind == "BackendRuntime":
            yield from _llmaz(yf, document)
        elif kind == "VLLMRuntime":
            yield from _vllm_runtime(yf, document)
        elif is_mapping(get(document, "catalog")):
            for name, _k, entry in items(get(document, "catalog")):
                yield from _kubeai(yf, entry, name, f"KubeAI models chart catalog.{name}")


def _env_mapping(yf: YamlFile, node: Any) -> dict[str, Token]:
    env: dict[str, Token] = {}
    for name, _k, value in items(node):
        if is_scalar(value) and text_of(value) is not None:
            env[name] = token(yf, value)
    return env


# -- KubeAI ---------------------------------------------------------------------------------


def _kubeai(yf: YamlFile, spec: Any, name: str, origin: str) -> Iterator[Invocation]:
    if not is_mapping(spec) or (text_of(get(spec, "engine")) or "").upper() != "VLLM":
        return
    b = ArgvBuilder(yf)
    url = get(spec, "url")
    url_text = text_of(url) or ""
    if url_text.startswith("hf://"):
        b.value(url, f"--model={url_text[len('hf://') :]}")
    else:  # s3://, pvc://, oss://: the controller mounts or streams it somewhere
        b.opaque(f"--model=<{url_text or 'url'}>", url if url is not None else spec)
    b.flag(f"--served-model-name={name}", key_node(spec, "url") or spec)
    b.items(get(spec, "args"))
    if truthy(get(spec, "adapters")):
        b.flag("--enable-lora", key_node(spec, "adapters"))
    anchor = key_node(spec, "args") or key_node(spec, "engine")
    yield yaml_invocation(yf, b.words, origin, anchor, env=_env_mapping(yf, get(spec, "env")))


# -- llmaz ----------------------------------------------------------------------------------


def _llmaz(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    spec = get(document, "spec")
    command = get(spec, "command")
    if not is_sequence(command):
        return
    words = [token(yf, item) for item in command.value if is_scalar(item)]
    found = server_args(words)
    if found is None:
        return
    image = _llmaz_image(yf, spec)
    configs = get(spec, "recommendedConfigs")
    sets: list[tuple[str, Any]] = []
    if is_sequence(configs):
        sets += [(text_of(get(c, "name")) or "?", get(c, "args")) for c in configs.value]
    legacy = get(spec, "args")
    if is_sequence(legacy):
        sets += [(text_of(get(c, "name")) or "?", get(c, "flags")) for c in legacy.value]
    name = text_of(get(get(document, "metadata"), "name")) or "?"
    env = env_list(yf, get(spec, "envs") or get(spec, "env"))
    for config_name, args in sets:
        argv = list(words[found[0] :])
        if is_sequence(args):
            argv += [token(yf, item) for item in args.value if is_scalar(item)]
        anchor = key_node(spec, "command") or command  # the launch words, shared by each config
        origin = f"llmaz BackendRuntime/{name} config {config_name}"
        yield yaml_invocation(yf, argv, origin, anchor, image, env)


def _llmaz_image(yf: YamlFile, spec: Any) -> Token | None:
    image, version = get(spec, "image"), get(spec, "version")
    if text_of(image) is None:
        return None
    text = text_of(image) or ""
    if text_of(version):
        text = f"{text}:{text_of(version)}"
    return Token(text, token(yf, image).span, opaque="{{" in text)


# -- production-stack operator ----------------------------------------------------------------


def _field(sections: list[Any], key: str) -> tuple[Any, Any] | None:
    """The first section holding `key`: (its mapping, its value)."""
    for section in sections:
        if has_key(section, key):
            return section, get(section, key)
    return None


def _vllm_runtime(yf: YamlFile, document: Any) -> Iterator[Invocation]:
    spec = get(document, "spec")
    model = get(spec, "model")
    config = get(spec, "vllmConfig")
    # fields are read from spec.vllmConfig / spec.model, and from spec itself as older
    # samples write them
    runtime = [s for s in (config, spec) if is_mapping(s)]
    models = [s for s in (model, spec) if is_mapping(s)]
    b = ArgvBuilder(yf)
    url = _field(models, "modelURL")
    if url is not None:
        b.value(url[1])
    else:
        b.opaque("<modelURL>", spec)
    where = key_node(model, "modelURL") or spec
    port = _field(runtime, "port")
    b.flag("--host", where)
    b.flag("0.0.0.0", where)
    b.flag("--port", key_node(port[0], "port") if port else where)
    if port is not None:
        b.value(port[1])
    else:
        b.opaque("<port>", where)
    for key, flag in (("enableLoRA", "--enable-lora"), ("enableTool", "--enable-auto-tool-choice")):
        found = _field(models, key)
        if found is not None and truthy(found[1]):
            b.flag(flag, key_node(found[0], key))
    parser = _field(models, "toolCallParser")
    if parser is not None and truthy(parser[1]):
        b.flag("--tool-call-parser", key_node(parser[0], "toolCallParser"))
        b.value(parser[1])
    for key, on, off in (
        ("enableChunkedPrefill", "--enable-chunked-prefill", "--no-enable-chunked-prefill"),
        ("enablePrefixCaching", "--enable-prefix-caching", "--no-enable-prefix-caching"),
    ):
        found = _field(runtime, key)
        decided = key_node(found[0], key) if found else (key_node(spec, "vllmConfig") or spec)
        b.flag(on if found is not None and truthy(found[1]) else off, decided)
    for key, flag, sections in (
        ("maxModelLen", "--max-model-len", models),
        ("dtype", "--dtype", models),
        ("tensorParallelSize", "--tensor-parallel-size", runtime),
        ("maxNumSeqs", "--max-num-seqs", models),
        ("gpuMemoryUtilization", "--gpu_memory_utilization", runtime),
        ("maxLoras", "--max_loras", runtime),
    ):
        found = _field(sections, key)
        if found is not None and truthy(found[1]):
            b.flag(flag, key_node(found[0], key))
            b.value(found[1])
    extra = _field(runtime, "extraArgs")
    if extra is not None:
        b.items(extra[1])
    template = _field(models, "chatTemplate")
    if template is not None and truthy(template[1]):
        b.flag("--chat-template", key_node(template[0], "chatTemplate"))
        b.value(template[1], "/etc/chat-template.json")
    lmcache = get(spec, "lmCacheConfig")
    env: dict[str, Token] = {}
    v1 = _field(runtime, "v1")
    v1_on = v1 is not None and truthy(v1[1])
    if truthy(lmcache) and truthy(get(lmcache, "enabled")):
        where_lm = key_node(lmcache, "enabled")
        connector = "LMCacheConnectorV1" if v1_on else "LMCacheConnector"
        b.flag("--kv-transfer-config", where_lm)
        b.flag(json.dumps({"kv_connector": connector, "kv_role": "kv_both"}), where_lm)
    if v1 is not None:
        env["VLLM_USE_V1"] = Token("1" if v1_on else "0", span(yf, key_node(v1[0], "v1")))
    env.update(env_list(yf, get(config, "env")))
    image = _runtime_image(yf, spec)
    name = text_of(get(get(document, "metadata"), "name")) or "?"
    anchor = key_node(spec, "model") or key_node(spec, "vllmConfig") or spec
    yield yaml_invocation(yf, b.words, f"production-stack VLLMRuntime/{name}", anchor, image, env)


def _runtime_image(yf: YamlFile, spec: Any) -> Token | None:
    image = get(get(spec, "deploymentConfig"), "image") or get(spec, "image")
    name = get(image, "name")
    text = text_of(name)
    if not text:
        return None
    registry = text_of(get(image, "registry"))
    full = f"{registry}/{text}" if registry and "/" in text and registry != "docker.io" else text
    return Token(full, token(yf, name).span)
