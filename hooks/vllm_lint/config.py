"""Project configuration: `.vllm-lint.yaml` or `[tool.vllm-lint]` in pyproject.toml.

Found upward from the linted paths (the first folder that has either file; `.vllm-lint.yaml` wins
over pyproject.toml), unless `--config FILE` names one. Validated against
`schemas/config.schema.json`: an unknown key or bad value is a usage error (exit 2).
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from vllm_lint.resources import schemas_dir

CONFIG_NAMES = (".vllm-lint.yaml", ".vllm-lint.yml", "pyproject.toml")


class ConfigError(Exception):
    """A configuration problem, as one line naming the file."""


@dataclass(frozen=True)
class Config:
    path: Path | None = None  # None: no configuration file
    vllm_version: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_path_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    fail_on: str | None = None
    extra_rules: tuple[Path, ...] = ()
    max_file_size: int | None = None
    base: Path = field(default_factory=Path.cwd)  # globs are relative to this folder

    def selects(self, rule_id: str, slug: str, path: str) -> bool:
        """Whether a finding of this rule in this file is reported."""
        if self.select and not _matches(self.select, rule_id, slug):
            return False
        if _matches(self.ignore, rule_id, slug):
            return False
        relative = self._relative(path)
        return not any(
            _glob(relative, pattern) and _matches(ids, rule_id, slug)
            for pattern, ids in self.per_path_ignores
        )

    def excludes(self, path: str) -> bool:
        relative = self._relative(path)
        return any(_glob(relative, pattern) for pattern in self.exclude)

    def _relative(self, path: str) -> str:
        try:
            return Path(path).resolve().relative_to(self.base.resolve()).as_posix()
        except ValueError:
            return Path(path).as_posix()


def _matches(selectors: Iterable[str], rule_id: str, slug: str) -> bool:
    return any(s == slug or rule_id.startswith(s) for s in selectors)


def _glob(relative: str, pattern: str) -> bool:
    path = PurePosixPath(relative)
    return (
        path.match(pattern)
        or fnmatch.fnmatch(relative, pattern)
        or (pattern.startswith("**/") and fnmatch.fnmatch(relative, pattern[3:]))
    )


def discover(paths: Sequence[str], explicit: str | None) -> Config:
    if explicit is not None:
        path = Path(explicit)
        if not path.is_file():
            raise ConfigError(f"{explicit}: no such configuration file")
        return load(path)
    start = Path(paths[0] if paths else ".").resolve()
    folder = start if start.is_dir() else start.parent
    for candidate in (folder, *folder.parents):
        for name in CONFIG_NAMES:
            path = candidate / name
            if path.is_file():
                config = load(path, required=name != "pyproject.toml")
                if config.path is not None:
                    return config
        if (candidate / ".git").exists():
            break
    return Config()


def load(path: Path, required: bool = True) -> Config:
    """Read one configuration file; pyproject.toml without a [tool.vllm-lint] table is skipped."""
    data = _read(path)
    if data is None:
        if required:
            raise ConfigError(f"{path}: no [tool.vllm-lint] table")
        return Config()
    _validate(path, data)
    base = path.resolve().parent
    ignores = data.get("per-path-ignores", {})
    return Config(
        path=path,
        vllm_version=data.get("vllm-version"),
        select=tuple(data.get("select", ())),
        ignore=tuple(data.get("ignore", ())),
        per_path_ignores=tuple((glob, tuple(ids)) for glob, ids in ignores.items()),
        exclude=tuple(data.get("exclude", ())),
        fail_on=data.get("fail-on"),
        extra_rules=tuple(base / p for p in data.get("extra-rules", ())),
        max_file_size=data.get("max-file-size"),
        base=base,
    )


def _read(path: Path) -> dict[str, Any] | None:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    if path.name == "pyproject.toml":
        return _toml_table(path, raw)
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        data = YAML(typ="safe", pure=True).load(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8") from None
    except MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 1
        raise ConfigError(f"{path}:{line}: invalid YAML: {exc.problem}") from None
    except YAMLError as exc:
        raise ConfigError(f"{path}: invalid YAML: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the configuration must be a mapping")
    return data


def _toml_table(path: Path, raw: bytes) -> dict[str, Any] | None:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        document = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    table = document.get("tool", {}).get("vllm-lint")
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.vllm-lint] must be a table")
    return table


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    return json.loads((schemas_dir() / "config.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _fast_check() -> Callable[[Any], bool] | None:
    from vllm_lint.rules.fastschema import compile_schema

    return compile_schema(schema())


def _validate(path: Path, data: dict[str, Any]) -> None:
    fast = _fast_check()
    if fast is not None and fast(data):
        return  # valid: jsonschema (about 90 ms to import) is needed only to word an error
    from jsonschema import Draft202012Validator

    errors = sorted(
        Draft202012Validator(schema()).iter_errors(data), key=lambda e: list(e.absolute_path)
    )
    if errors:
        first = errors[0]
        where = ".".join(str(p) for p in first.absolute_path) or "(top level)"
        message = re.sub(r"\s+", " ", first.message)
        raise ConfigError(f"{path}: {where}: {message}")
