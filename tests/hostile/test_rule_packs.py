"""A rule pack from the repository (a pull request can add one) fetches nothing, reads nothing
outside the repo, cannot loop, and cannot make a pattern run in more than linear time."""

from __future__ import annotations

import http.server
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from childrun import lint

pytestmark = pytest.mark.slow  # each input is linted in a child process with time and memory limits

MANIFEST = (
    "services:\n  s:\n    image: vllm/vllm-openai:v0.33.0\n    command: [m, --tokenizer, {name}]\n"
)


def _rule(rejects: Any, **extra: Any) -> dict[str, Any]:
    return {
        "id": "ORG100",
        "slug": "org-name",
        "severity": "error",
        "summary": "a served model name the organisation refuses",
        "message": "refused name",
        "flags": ["tokenizer"],
        "rejects": rejects,
        "examples": {"fail": [], "pass": ["m"]},
        **extra,
    }


def _repo(root: Path, *rules: dict[str, Any], name: str = "ok") -> Path:
    (root / ".git").mkdir(parents=True)  # the repository's top: packs must be inside it
    (root / "policy.json").write_text(json.dumps({"rules": list(rules)}))
    (root / ".vllm-lint.yaml").write_text("extra-rules: [policy.json]\n")
    (root / "d.yaml").write_text(MANIFEST.format(name=name))
    return root


def _org(root: Path) -> list[str]:
    data = json.loads(lint(root, "--format", "json", ".").out)
    return [f["rule"] for f in data["findings"] if f["rule"].startswith("ORG")]


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Recorder.seen.append(self.path)
        body = json.dumps({"type": "string"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/schema+json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    """A schema server on localhost that records every request it gets."""
    _Recorder.seen = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_recording_server_sees_a_request(server: str) -> None:
    """The test below can fail: jsonschema on its own does fetch the reference."""
    import warnings

    from jsonschema import Draft202012Validator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # jsonschema warns that it retrieves automatically
        Draft202012Validator({"$ref": f"{server}/s.json"}).is_valid("x")
    assert _Recorder.seen == ["/s.json"]


@pytest.mark.parametrize(
    ("rejects", "says"),
    [
        ({"$ref": "{server}/s.json"}, r"\$ref .*only a JSON pointer inside the rule's schema"),
        (
            {"properties": {"tokenizer": {"$ref": "{server}/s.json#/x"}}},
            r"/rules/0/rejects/properties/tokenizer/\$ref: \$ref",
        ),
        ({"$id": "{server}/base.json", "$ref": "other.json"}, r"/rules/0/rejects/\$id: "),
        ({"$ref": "file:///etc/passwd"}, r"only a JSON pointer"),
        ({"$dynamicRef": "#x"}, r"\$dynamicRef is not supported"),
    ],
)
def test_no_reference_is_fetched_or_read(
    tmp_path: Path, server: str, rejects: dict[str, Any], says: str
) -> None:
    text = json.dumps(rejects).replace("{server}", server)
    _repo(tmp_path / "repo", _rule(json.loads(text)))
    lint(tmp_path / "repo", ".", error=rf"policy\.json: .*{says}")
    assert _Recorder.seen == []


@pytest.mark.parametrize(
    ("rejects", "says"),
    [
        ({"$ref": "#/$defs/missing"}, r"points at nothing"),
        ({"$ref": "#"}, r"without descending into the value"),
        (
            {"allOf": [{"$ref": "#/$defs/a"}], "$defs": {"a": {"anyOf": [{"$ref": "#"}]}}},
            r"without descending into the value",
        ),
        ({"not": {"$ref": "#/not"}}, r"without descending"),
    ],
)
def test_references_must_resolve_and_end(tmp_path: Path, rejects: Any, says: str) -> None:
    _repo(tmp_path, _rule(rejects))
    lint(tmp_path, ".", error=says)


def test_a_reference_that_descends_is_fine(tmp_path: Path) -> None:
    rejects = {
        "$defs": {"bad": {"type": "string", "pattern": "^evil"}},
        "properties": {"tokenizer": {"$ref": "#/$defs/bad"}},
        "required": ["tokenizer"],
    }
    _repo(tmp_path, _rule(rejects), name="evil-model")
    assert _org(tmp_path) == ["ORG100"]
    (tmp_path / "d.yaml").write_text(MANIFEST.format(name="good-model"))
    assert _org(tmp_path) == []


def test_an_exponential_pattern_runs_in_linear_time(tmp_path: Path) -> None:
    # with Python's re, 40 characters of this take hours
    rejects = {
        "properties": {"tokenizer": {"pattern": "^(a|a)*b$"}},
        "required": ["tokenizer"],
    }
    _repo(tmp_path, _rule(rejects), name="a" * 50_000 + "c")
    assert _org(tmp_path) == []
    (tmp_path / "d.yaml").write_text(MANIFEST.format(name="a" * 50_000 + "b"))
    assert _org(tmp_path) == ["ORG100"]


@pytest.mark.parametrize(
    ("pattern", "says"),
    [
        (r"(a)\1", "groupref"),
        (r"(?=a)b", "assert"),
        (r"(?i)evil", "inline flags"),
        (r"a{1000}{1000}", "(not a valid pattern|is not a 'regex')"),
        ("x" * 3000, "longer than"),
    ],
)
def test_patterns_that_cannot_run_in_linear_time_are_refused(
    tmp_path: Path, pattern: str, says: str
) -> None:
    rejects = {"properties": {"tokenizer": {"pattern": pattern}}}
    _repo(tmp_path, _rule(rejects))
    lint(tmp_path, ".", error=rf"tokenizer/pattern: .*{says}")


def test_pattern_properties_are_refused(tmp_path: Path) -> None:
    _repo(tmp_path, _rule({"patternProperties": {"^(a|a)*$": {"type": "string"}}}))
    lint(tmp_path, ".", error="patternProperties is not supported")


def test_the_rule_id_pattern_of_the_meta_schema_is_linear(tmp_path: Path) -> None:
    # `^[A-Z][A-Z0-9]*[0-9]+$` took quadratic time on digits ending in a non-digit
    rule = _rule({"properties": {"tokenizer": {"const": "x"}}})
    rule["id"] = "A" + "1" * 200_000 + "!"
    _repo(tmp_path, rule)
    lint(tmp_path, ".", error=r"/rules/0/id: .* does not match")


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", "http://example.com/x", "https://x.example/a b", "data:,x"]
)
def test_a_rule_url_must_be_https(tmp_path: Path, url: str) -> None:
    _repo(tmp_path, _rule({"required": ["tokenizer"]}, url=url))
    lint(tmp_path, ".", error=r"/rules/0/url: only an https:// address is allowed")


@pytest.mark.parametrize(
    "where", ["/etc/passwd", "../outside.json", "/dev/zero", "fifo.json", "link.json"]
)
def test_packs_are_regular_files_inside_the_repo(tmp_path: Path, where: str) -> None:
    root = _repo(tmp_path / "repo", _rule({"required": ["tokenizer"]}))
    (tmp_path / "outside.json").write_text(json.dumps({"rules": []}))
    os.mkfifo(root / "fifo.json")
    os.symlink(tmp_path / "outside.json", root / "link.json")
    (root / ".vllm-lint.yaml").write_text(f"extra-rules: [{json.dumps(where)}]\n")
    lint(root, ".", error=r"cannot read rule file: .*(outside the linted folder|not a regular)")


def test_broken_packs_are_one_line_errors(tmp_path: Path) -> None:
    root = _repo(tmp_path, _rule({"required": ["tokenizer"]}))
    pack = root / "policy.json"
    pack.write_text('{"rules": ' + "[" * 100_000 + "]" * 100_000 + "}")
    lint(root, ".", error=r"policy\.json: (invalid JSON|nested more than)")
    pack.write_text('{"rules": [], "x": ' + "9" * 5000 + "}")
    lint(root, ".", error=r"policy\.json: invalid JSON")
    pack.write_bytes(b'{"rules": []}' + b" " * (2 << 20))
    lint(root, ".", error=r"policy\.json: larger than")
    pack.write_bytes(b'{"rules": ["\xff"]}')
    lint(root, ".", error=r"policy\.json: cannot read rule file: not UTF-8")
