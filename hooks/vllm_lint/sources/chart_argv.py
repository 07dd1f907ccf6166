"""Building an argv the way a chart or an operator renders it from values, with spans.

A word the chart writes itself (`--enable-lora`, the default `--no-enable-prefix-caching`)
points at the values key that decides it; a word taken from a value points at that value.
Values are formatted as Helm's `quote` prints them: through Go's `%v` (Helm reads values as
JSON, so numbers are float64: `1048576` renders as `1.048576e+06`).
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from vllm_lint.model import Span, Token
from vllm_lint.read.yaml import (
    YamlError,
    YamlFile,
    get,
    is_mapping,
    is_scalar,
    is_sequence,
    span,
    text_of,
    to_python,
    token,
)


def key_node(mapping: Any, name: str) -> Any:
    """The key node of `name` in a mapping (for spans of words the chart writes)."""
    if is_mapping(mapping):
        for key, _value in mapping.value:
            if is_scalar(key) and key.value == name:
                return key
    return None


def has_key(mapping: Any, name: str) -> bool:
    return key_node(mapping, name) is not None


def truthy(node: Any) -> bool:
    """Go template truth: false, 0, "", null, empty collections are false."""
    if node is None:
        return False
    if is_mapping(node) or is_sequence(node):
        return bool(node.value)
    try:
        value = to_python(node)
    except YamlError:
        return True
    return bool(value) if value is not None else False


def go_value(node: Any) -> str | None:
    """What `{{ .x | quote }}` prints for a scalar (None for collections)."""
    if not is_scalar(node):
        return None
    value = to_python(node)
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int | float):
        return go_float(float(value))
    return str(value)


def go_float(value: float) -> str:
    """Go's `%v` of a float64 (strconv 'g', shortest digits): exponent form when the
    exponent is < -4 or >= 6, so 1000000 prints as `1e+06`."""
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "+Inf" if value > 0 else "-Inf"
    if value == 0:
        return "0"
    dec = Decimal(repr(value)).normalize()
    sign, digits, exponent = dec.as_tuple()
    assert isinstance(exponent, int)
    exp = len(digits) + exponent - 1
    text_digits = "".join(str(d) for d in digits)
    prefix = "-" if sign else ""
    if exp < -4 or exp >= 6:
        mantissa = text_digits[0] + ("." + text_digits[1:] if len(text_digits) > 1 else "")
        return f"{prefix}{mantissa}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    return prefix + format(abs(dec), "f")


class ArgvBuilder:
    def __init__(self, yf: YamlFile) -> None:
        self.yf = yf
        self.words: list[Token] = []

    def at(self, node: Any) -> Span:
        return span(self.yf, node)

    def flag(self, text: str, where: Any) -> None:
        """A word the chart writes; `where` is the key (or node) that decides it."""
        self.words.append(Token(text, self.at(where)))

    def value(self, node: Any, text: str | None = None) -> None:
        """A word taken from a value, as the template quotes it."""
        if node is None:
            return
        rendered = go_value(node) if text is None else text
        if rendered is None:  # a list or mapping where a word was expected
            self.words.append(Token(json.dumps(to_python(node)), self.at(node), opaque=True))
            return
        where = token(self.yf, node).span if is_scalar(node) else self.at(node)
        self.words.append(Token(rendered, where))

    def opaque(self, text: str, where: Any) -> None:
        """A word the chart computes from something not in this file."""
        self.words.append(Token(text, self.at(where), opaque=True))

    def option(self, flag: str, mapping: Any, name: str) -> None:
        """`--flag <value>` when the key is present (`hasKey`)."""
        node = get(mapping, name)
        if has_key(mapping, name):
            self.flag(flag, key_node(mapping, name))
            self.value(node)

    def items(self, node: Any) -> None:
        """Each item of a list, verbatim (`range … | quote`)."""
        if is_sequence(node):
            for item in node.value:
                self.value(item)

    def text(self, node: Any) -> str | None:
        return text_of(node)
