"""docs/configuration.md, generated from schemas/config.schema.json (a test keeps it fresh):
`python -m vllm_lint.config_docs > docs/configuration.md`."""

from __future__ import annotations

import json
import sys

from vllm_lint.config import schema

HEADER = """# Configuration reference

Generated from [`schemas/config.schema.json`](../schemas/config.schema.json) by
`python -m vllm_lint.config_docs > docs/configuration.md`; do not edit by hand.

Each file is governed by the configuration nearest to it, as in ruff: `.vllm-lint.yaml` (or
`.vllm-lint.yml`), else the `[tool.vllm-lint]` table of `pyproject.toml`, in the file's folder or
the first folder above it that has one (the search stops at the top of the git work tree). A
configuration's paths are relative to its own folder and never reach files outside it. The run's
own settings (`fail-on`) come from the configuration of the current folder. `--config FILE`
governs every file instead; `--no-config` ignores them all. Unknown keys, bad values and rule
selectors that select no rule are a usage error (exit 2) naming the file, the line and the
nearest valid word. Command-line options win: `--vllm-version`, `--fail-on`, `--select`
(replaces `select`), `--ignore` (adds to `ignore`). Selectors are ids, id prefixes (`VL1`) or
slugs, in any case.

`exclude`, `extend-exclude` and the keys of `per-path-ignores` are .gitignore patterns: `k8s`
(a file or folder of that name at any depth), `k8s/` (a folder), `/k8s/x.yaml` (only at the
top of the configuration's folder), `k8s/*.yaml` (not in subfolders), `**/*.tpl` (any depth).

```yaml
# .vllm-lint.yaml
vllm-version: 0.33.0          # for files whose image names no release
ignore: [VL008]               # ids, id prefixes (VL1) or slugs
per-path-ignores:
  "legacy/": [replayssm-no-spec-decode]
extend-exclude: ["vendor/"]
fail-on: error
extra-rules: [policies/org.json]
```

```toml
# pyproject.toml
[tool.vllm-lint]
vllm-version = "0.33.0"
ignore = ["VL008"]
```

| key | type | default | meaning |
|---|---|---|---|
"""

FOOTER = """
## Inline suppressions

A comment `# vllm-lint: ignore[ID-or-slug, …] reason` silences the listed rules on its own line
and on the line below it, in YAML files and in shell scripts (also inside `sh -c` blocks).
A bare `# vllm-lint: ignore reason` silences every rule there. A suppression without a reason is
reported as VL950 (warning); one that silences nothing as VL951 (info).
`--ignore-suppressions PATH` (repeatable; `.` for every file) makes the suppressions in the files
at or under PATH hide nothing, as ruff's `--ignore-noqa`: the action uses it to see what
suppressions hide.

## Rule packs

`extra-rules` lists JSON files of rules in the same form as the built-in ones
(`schemas/rules/<area>/*.json`), validated by the same meta-schema
([`schemas/rule-pack.schema.json`](../schemas/rule-pack.schema.json)); a broken pack is a usage
error naming the file and the JSON pointer. Their findings appear in every output format like
built-in ones. Three organisation policies ship as examples in
[`examples/rule-packs/`](../examples/rule-packs): forbid `--trust-remote-code`, require
`--max-model-len`, require a release tag on vLLM images. Try them:
`vllm-lint --config examples/rule-packs/vllm-lint.yaml examples/`.

A rule's `rejects` is JSON Schema (Draft 2020-12) over the effective settings, plus three
keywords of the rules' own, for what vLLM checks and JSON Schema cannot say:

- `"compare": {"left": P, "op": O, "right": Q, "add": N}` (or `"value": V` instead of
  `right`): the numbers at paths P and Q hold `P O Q + N`; O is `<`, `<=`, `>`, `>=`, `==`,
  `!=` or `not-divisible-by` (a missing or non-numeric operand: it does not hold);
- `"pairwise": O`: every two neighbours `a, b` of an array hold `a O b` (`"<"`: strictly
  increasing); a pair that is not two numbers holds;
- `"pythonRegex": true` (or `{"after": "re:"}`): a string compiles as a Python regular
  expression (with `after`, only a string that starts with it is tested, without it).
"""


def _type(spec: dict[str, object]) -> str:
    if "enum" in spec:
        return " \\| ".join(f"`{v}`" for v in spec["enum"])  # type: ignore[attr-defined]
    kind = spec.get("type", "")
    if kind == "array":
        return "list of strings"
    if kind == "object":
        return "map of glob → list"
    return str(kind)


def reference() -> str:
    rows = []
    for key, spec in schema()["properties"].items():
        default = json.dumps(spec["default"]) if "default" in spec else "—"
        rows.append(f"| `{key}` | {_type(spec)} | {default} | {spec['description']} |")
    return HEADER + "\n".join(rows) + "\n" + FOOTER


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(reference())
