"""Project configuration: `.vllm-lint.yaml` or `[tool.vllm-lint]` in pyproject.toml.

As with ruff, each file is governed by the configuration nearest to it: the first folder at or
above the file that has one (`.vllm-lint.yaml` wins over pyproject.toml), the search stopping at
the top of the git work tree. `--config FILE` governs every file instead, `--no-config` none.
Paths in a configuration (`exclude`, `per-path-ignores`) are relative to its folder, with
.gitignore semantics, and never reach files outside it. Validated against
`schemas/config.schema.json`: an unknown key, a bad value or an unknown rule selector is a usage
error (exit 2) naming the file, the line and the nearest valid word.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vllm_lint.files.layout import SKIPPED_FOLDERS, config_files
from vllm_lint.files.memo import FolderMemo
from vllm_lint.files.sniff import DOCS, Kind
from vllm_lint.resources import shipped_json
from vllm_lint.rules.registry import BUILTIN, RuleSet

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

# What a folder walk leaves out unless `exclude` says otherwise (`extend-exclude` adds to it).
DEFAULT_EXCLUDE = tuple(f"{name}/" for name in SKIPPED_FOLDERS)

_DEFAULT_FOLDERS = frozenset(SKIPPED_FOLDERS)


class ConfigError(Exception):
    """A configuration problem, as one line naming the file (and the line, when known)."""


class Config:
    """One configuration file's settings (or none: `Config()`). Treated as immutable; a
    plain class, not a dataclass: the cold start pays for every class a dataclass makes."""

    _FIELDS = (
        "path",
        "vllm_version",
        "select",
        "ignore",
        "per_path_ignores",
        "exclude",
        "fail_on",
        "extra_rules",
        "max_file_size",
        "lint_docs",
        "lint_python",
        "base",
        "rules",
    )

    def __init__(
        self,
        *,
        path: Path | None = None,  # None: no configuration file
        vllm_version: str | None = None,
        select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
        per_path_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (),
        exclude: tuple[str, ...] = DEFAULT_EXCLUDE,
        fail_on: str | None = None,
        extra_rules: tuple[Path, ...] = (),
        max_file_size: int | None = None,
        lint_docs: bool = True,  # Markdown, MDX, reStructuredText and notebooks
        lint_python: bool = True,
        base: Path | None = None,  # paths are relative to this folder (default: the cwd)
        rules: RuleSet = BUILTIN,  # the built-in rules and this configuration's rule packs
    ) -> None:
        self.path = path
        self.vllm_version = vllm_version
        self.select = select
        self.ignore = ignore
        self.per_path_ignores = per_path_ignores
        self.exclude = exclude
        self.fail_on = fail_on
        self.extra_rules = extra_rules
        self.max_file_size = max_file_size
        self.lint_docs = lint_docs
        self.lint_python = lint_python
        self.base = Path.cwd() if base is None else base
        self.rules = rules

    def replace(self, **changes: Any) -> Config:
        """A copy with some settings changed (as `dataclasses.replace`)."""
        return Config(**{name: getattr(self, name) for name in self._FIELDS} | changes)

    def __repr__(self) -> str:
        return f"Config(path={self.path!r})"

    def selects(self, rule_id: str, slug: str, path: str) -> bool:
        """Whether a finding of this rule in this file is reported."""
        if self.select and not matches(self.select, rule_id, slug):
            return False
        if matches(self.ignore, rule_id, slug):
            return False
        if not self.per_path_ignores:
            return True
        relative = self._relative(path)
        return relative is None or not any(
            spec.match_file(relative) and matches(ids, rule_id, slug)
            for spec, ids in self._per_path_specs
        )

    def reads(self, kind: Kind) -> bool:
        """Whether files of this kind are linted at all (`lint-docs`, `lint-python`)."""
        if kind in DOCS:
            return self.lint_docs
        return self.lint_python or kind is not Kind.PYTHON

    def excludes(self, path: str) -> bool:
        """Whether a path (a file or a folder, written as the user gave it) is excluded."""
        if not self.exclude:
            return False
        relative = self._relative(path)
        if relative is None or relative == ".":
            return False
        if self.exclude is DEFAULT_EXCLUDE:  # the common case, without loading pathspec
            return not _DEFAULT_FOLDERS.isdisjoint(relative.split("/")[:-1])
        return self._exclude_spec.match_file(relative) or (
            os.path.isdir(path) and self._exclude_spec.match_file(relative + "/")
        )

    @cached_property
    def _exclude_spec(self) -> GitIgnoreSpec:
        return _spec(self.exclude)

    @cached_property
    def _per_path_specs(self) -> tuple[tuple[GitIgnoreSpec, tuple[str, ...]], ...]:
        return tuple((_spec([pattern]), ids) for pattern, ids in self.per_path_ignores)

    @cached_property
    def _base(self) -> str:
        return os.path.abspath(self.base)

    @cached_property
    def _relative_folders(self) -> FolderMemo[str, str | None]:
        return FolderMemo()  # a folder as written → its relative path, for its files

    def _relative(self, path: str) -> str | None:
        """The path relative to the configuration's folder, `/`-separated; None outside it."""
        folder, name = os.path.split(path)
        if name in ("", ".", ".."):
            return self._relative_uncached(path)
        if folder not in self._relative_folders:
            self._relative_folders[folder] = self._relative_uncached(folder or ".")
        above = self._relative_folders[folder]
        if above is None:
            return None
        return name if above == "." else f"{above}/{name}"

    @cached_property
    def _base_is_cwd(self) -> bool:
        return self._base == os.getcwd()

    def _relative_uncached(self, path: str) -> str | None:
        if self._base_is_cwd and not os.path.isabs(path):  # as pre-commit passes paths
            relative = os.path.normpath(path)
        else:
            relative = os.path.relpath(os.path.abspath(path), self._base)
        if relative == ".." or relative.startswith(".." + os.sep):
            return None
        return relative.replace(os.sep, "/")


def _spec(patterns: Iterable[str]) -> GitIgnoreSpec:
    from pathspec import GitIgnoreSpec  # only configurations with path patterns need it

    return GitIgnoreSpec.from_lines(patterns)


def matches(selectors: Iterable[str], rule_id: str, slug: str) -> bool:
    """A selector is a slug, or an id or id prefix (`VL1`); case does not matter."""
    upper = rule_id.upper()
    return any(s.lower() == slug or upper.startswith(s.upper()) for s in selectors)


def selector_problem(selector: str, rules: RuleSet) -> str | None:
    """Why a selector selects no rule (with the nearest valid one), or None when it is valid."""
    if any(matches([selector], r.id, r.slug) for r in rules.all):
        return None
    names = sorted({r.id for r in rules.all} | {r.slug for r in rules.all})
    close = difflib.get_close_matches(selector.upper(), [n.upper() for n in names], n=1)
    close = close or difflib.get_close_matches(selector.lower(), names, n=1)
    hint = f"; did you mean {_spelled(close[0], names)}?" if close else ""
    return f"{selector!r} is no rule id, id prefix or slug{hint} (see `vllm-lint rules`)"


def _spelled(found: str, names: Sequence[str]) -> str:
    return next((n for n in names if n.upper() == found.upper()), found)


# -- which configuration governs a file --------------------------------------------------------


class Configs:
    """The configuration of each linted file, found once per folder.

    `fixed` governs every file (`--config FILE`, or none with `--no-config`); otherwise the
    nearest configuration above the file does. `adjust` applies the command line's overrides
    (`--select`, `--ignore`) to whichever configuration is found.
    """

    def __init__(
        self,
        fixed: Config | None = None,
        discover: bool = False,
        adjust: Callable[[Config], Config] | None = None,
    ) -> None:
        self._fixed = None if fixed is None else _checked(adjust(fixed) if adjust else fixed)
        self._discover = discover and fixed is None
        self._adjust = adjust
        self._by_folder: dict[str, Config] = {}
        self._by_file: dict[Path, Config] = {}
        self._by_dirname: FolderMemo[str, Config] = FolderMemo()  # a file's folder as written

    def for_path(self, path: str) -> Config:
        """The configuration governing `path` (a file or a folder)."""
        if os.path.isdir(path) and self._discover:
            return self._in_folder(os.path.abspath(path))
        return self.for_file(path)

    def for_file(self, path: str) -> Config:
        """The configuration governing the file `path` (no stat: called for every file)."""
        if self._fixed is not None:
            return self._fixed
        if not self._discover:
            return self._by_folder.setdefault("", _checked(self._adjusted(Config())))
        dirname = os.path.dirname(path)
        config = self._by_dirname.get(dirname)
        if config is None:
            config = self._in_folder(os.path.abspath(dirname or "."))
            self._by_dirname[dirname] = config
        return config

    def _in_folder(self, folder: str) -> Config:
        found = self._by_folder.get(folder)
        if found is not None:
            return found
        candidates, top = config_files(folder)
        config = self._own(candidates)
        if config is None:
            parent = os.path.dirname(folder)
            stop = parent == folder or top
            config = _checked(self._adjusted(Config())) if stop else self._in_folder(parent)
        self._by_folder[folder] = config
        return config

    def _own(self, candidates: list[str]) -> Config | None:
        """The configuration of a folder, from its configuration files (nearest first)."""
        for candidate in candidates:
            path = Path(candidate)
            if path not in self._by_file:
                # found in the repo, so the repo's: a link out of it is refused, not read
                inside = _repository_around(os.path.dirname(os.path.abspath(candidate)))
                loaded = load(path, required=path.name != "pyproject.toml", inside=inside)
                if loaded.path is None:
                    continue  # a pyproject.toml without [tool.vllm-lint]
                self._by_file[path] = _checked(self._adjusted(loaded))
            return self._by_file[path]
        return None

    def _adjusted(self, config: Config) -> Config:
        return self._adjust(config) if self._adjust else config

    def used(self) -> list[Config]:
        """The configurations that governed some file so far, each once."""
        seen: dict[int, Config] = {}
        for config in [self._fixed, *self._by_folder.values()]:
            if config is not None:
                seen.setdefault(id(config), config)
        return list(seen.values())

    def rules_seen(self) -> RuleSet:
        """The built-in rules and every pack of the configurations used (for reporters that
        describe the rules of the findings)."""
        packs: dict[str, Any] = {}
        for config in self.used():
            for rule in config.rules.packs:
                packs.setdefault(rule.id, rule)
        if not packs:
            return BUILTIN
        try:
            return RuleSet(tuple(packs.values()))
        except Exception:  # two packs' variants of one id in different configs
            return BUILTIN


def _checked(config: Config) -> Config:
    """Every selector of the configuration (and of the command line) must select a rule."""
    listed = [*config.select, *config.ignore]
    listed += [i for _pattern, ids in config.per_path_ignores for i in ids]
    for selector in listed:
        problem = selector_problem(selector, config.rules)
        if problem is not None:
            where = f"{config.path}: " if config.path is not None else ""
            raise ConfigError(f"{where}{problem}")
    return config


# -- reading one file ---------------------------------------------------------------------------


def load(path: Path, required: bool = True, inside: Path | None = None) -> Config:
    """Read one configuration file; pyproject.toml without a [tool.vllm-lint] table is skipped.
    With `inside`, a file whose real location is outside that folder is an error."""
    raw = _read_bytes(path, inside)
    data = _read(path, raw)
    if data is None:
        if required:
            raise ConfigError(f"{path}: no [tool.vllm-lint] table")
        return Config()
    _validate(path, raw, data)
    base = path.resolve().parent
    ignores = data.get("per-path-ignores", {})
    exclude = tuple(data.get("exclude", DEFAULT_EXCLUDE)) + tuple(data.get("extend-exclude", ()))
    packs = tuple(base / p for p in data.get("extra-rules", ()))
    config = Config(
        path=path,
        vllm_version=data.get("vllm-version"),
        select=tuple(data.get("select", ())),
        ignore=tuple(data.get("ignore", ())),
        per_path_ignores=tuple((glob, tuple(ids)) for glob, ids in ignores.items()),
        exclude=exclude,
        fail_on=data.get("fail-on"),
        extra_rules=packs,
        max_file_size=data.get("max-file-size"),
        lint_docs=data.get("lint-docs", True),
        lint_python=data.get("lint-python", True),
        base=base,
    )
    if config.vllm_version:
        from vllm_lint import release

        if not release.is_supported(config.vllm_version):
            line = _line_of(raw, "vllm-version")
            raise ConfigError(f"{path}{line}: vllm-version {config.vllm_version}: unknown release")
    return config.replace(rules=_packs(packs, path)) if packs else config


def _packs(paths: Sequence[Path], config: Path) -> RuleSet:
    from vllm_lint.rules.registry import RuleFileError, load_rule_file

    inside = _project_of(config)
    try:
        rules = (rule for path in paths for rule in load_rule_file(path, True, inside))
        return RuleSet(tuple(rules))
    except RuleFileError as exc:
        raise ConfigError(str(exc)) from None


def _project_of(config: Path) -> Path:
    """The repository a configuration file belongs to (the folder holding `.git` above it, else
    its own folder): its rule packs must lie inside, never `../../elsewhere` or `/dev/zero`."""
    return _repository_around(os.path.dirname(os.path.realpath(config)))


MAX_CONFIG_BYTES = 1 << 20


def _repository_around(folder: str) -> Path:
    """The repository a folder belongs to by its spelling (links not resolved): the nearest
    folder at or above it holding `.git`, else the folder itself."""
    current = folder
    while not os.path.exists(os.path.join(current, ".git")):
        parent = os.path.dirname(current)
        if parent == current:
            return Path(folder)
        current = parent
    return Path(current)


def _read_bytes(path: Path, inside: Path | None = None) -> bytes:
    """A configuration may come with the repo: read like a linted file (a regular file,
    never blocking, inside `inside`), capped."""
    from vllm_lint.files.reader import read_bytes

    try:
        raw = read_bytes(path, MAX_CONFIG_BYTES + 1, inside)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES} bytes")
    return raw


def _read(path: Path, raw: bytes) -> dict[str, Any] | None:
    if path.name == "pyproject.toml":
        return _toml_table(path, raw)
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from vllm_lint.read.yaml import MAX_FLOW_DEPTH, too_deep

    try:
        text = raw.decode("utf-8")
        deep = too_deep(text)
        if deep is not None:
            raise ConfigError(f"{path}:{deep}: nested more than {MAX_FLOW_DEPTH} levels deep")
        data = YAML(typ="safe", pure=True).load(text)
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8") from None
    except MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 1
        raise ConfigError(f"{path}:{line}: invalid YAML: {exc.problem}") from None
    except YAMLError as exc:
        raise ConfigError(f"{path}: invalid YAML: {exc}") from None
    except (RecursionError, ValueError, OverflowError) as exc:  # 5,000 digits; deep nesting
        raise ConfigError(f"{path}: invalid YAML: {str(exc) or 'nested too deeply'}") from None
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
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError) as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None
    tool = document.get("tool")  # any type: `tool = 1` configures nothing here
    table = tool.get("vllm-lint") if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.vllm-lint] must be a table")
    return table


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    data: dict[str, Any] = shipped_json("config.schema.json")
    return data


@lru_cache(maxsize=1)
def _fast_check() -> Callable[[Any], bool] | None:
    from vllm_lint.fastschema import compile_schema

    return compile_schema(schema())


def _validate(path: Path, raw: bytes, data: dict[str, Any]) -> None:
    fast = _fast_check()
    if fast is not None and fast(data):
        return  # valid: jsonschema (about 90 ms to import) is needed only to word an error
    unknown = [key for key in data if key not in schema()["properties"]]
    if unknown:
        close = difflib.get_close_matches(str(unknown[0]), list(schema()["properties"]), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        line = _line_of(raw, str(unknown[0]))
        raise ConfigError(f"{path}{line}: unknown key {unknown[0]!r}{hint}")
    from jsonschema import Draft202012Validator

    errors = sorted(
        Draft202012Validator(schema()).iter_errors(data), key=lambda e: list(e.absolute_path)
    )
    if errors:
        first = errors[0]
        where = ".".join(str(p) for p in first.absolute_path) or "(top level)"
        line = _line_of(raw, str(first.absolute_path[0])) if first.absolute_path else ""
        message = re.sub(r"\s+", " ", first.message)
        raise ConfigError(f"{path}{line}: {where}: {message}")


def _line_of(raw: bytes, key: str) -> str:
    """`:N` for the first line that sets `key` (YAML `key:` or TOML `key =`), else ``."""
    pattern = re.compile(rf"^[ \t]*[\"']?{re.escape(key)}[\"']?[ \t]*[:=]", re.M)
    text = raw.decode("utf-8", errors="replace")
    match = pattern.search(text)
    return f":{text.count(chr(10), 0, match.start()) + 1}" if match else ""
