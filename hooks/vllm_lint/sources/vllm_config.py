"""vLLM `--config` YAML files: top-level keys are flag names, turned into argv as vLLM does.

vLLM (FlexibleArgumentParser._load_config_file) turns `key: value` into `--key value`,
`true` into `--key`, `false` into `--no-key`, lists into repeated values and (0.20+) nested
mappings into a JSON value; the command line's own flags come after, so they win.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from vllm_lint.argv.catalog import Catalog
from vllm_lint.model import Invocation, Span, Token
from vllm_lint.read.yaml import (
    YamlError,
    YamlFile,
    is_mapping,
    is_sequence,
    items,
    span,
    to_python,
    token,
)
from vllm_lint.sources.document import Document

# A standalone file is taken for a vLLM config when most of its keys are flags of the release.
_MIN_KEYS = 2
_MIN_SHARE = 0.6


def argv_of(yf: YamlFile, document: Any) -> list[Token]:
    """The argv words a config document stands for, each spanning its key or value."""
    words: list[Token] = []
    for key, key_node, value in items(document):
        flag = Token(f"--{key}", span(yf, key_node))
        if is_mapping(value):
            try:
                text = json.dumps(to_python(value))
            except YamlError:
                text = "{}"
            words += [flag, Token(text, span(yf, value), parts=tuple(_parts(yf, value, "")))]
        elif is_sequence(value):
            words.append(flag)
            words += [token(yf, item) for item in value.value if not is_mapping(item)]
        else:
            data = to_python(value)
            if data is True:
                words.append(flag)
            elif data is False:
                words.append(Token(f"--no-{key}", span(yf, key_node)))
            elif data is not None:
                words += [flag, token(yf, value)]
    return words


def _parts(yf: YamlFile, mapping: Any, prefix: str) -> Iterator[tuple[str, Span]]:
    """Where each key of a nested mapping is written, dotted as in the JSON value it becomes:
    a key and its scalar value, or the key alone above a mapping or a list."""
    for key, key_node, value in items(mapping):
        path = f"{prefix}.{key}" if prefix else str(key)
        where = span(yf, key_node)
        if is_mapping(value):
            yield path, where
            yield from _parts(yf, value, path)
        elif is_sequence(value):
            yield path, where
        else:
            end = span(yf, value)
            yield path, where._replace(end_line=end.end_line, end_col=end.end_col)


def looks_like_config(yf: YamlFile, cat: Catalog) -> bool:
    if len(yf.documents) != 1 or not is_mapping(yf.documents[0]):
        return False
    keys = [key for key, _k, _v in items(yf.documents[0])]
    if len(keys) < _MIN_KEYS:
        return False
    known = sum(1 for key in keys if cat.resolve(f"--{key}") is not None)
    return known / len(keys) >= _MIN_SHARE


def find(doc: Document) -> Iterator[Invocation]:
    """A standalone config file is one invocation of its own (without a model on a command line)."""
    yf = doc.yf
    if looks_like_config(yf, doc.catalog):
        from pathlib import Path

        yield Invocation(
            path=yf.path,
            argv=tuple(argv_of(yf, yf.documents[0])),
            env={},
            origin="vLLM --config file",
            base_dir=str(Path(yf.path).parent),
        )
