"""The lifter's shapes (tools/lift_raises.py) on small synthetic vLLM sources, and VL600's
three-valued evaluation of them (rules/lifted.py).

No wheel: the sources are written to a temporary folder laid out like vLLM's (`vllm/config/`,
`vllm/engine/arg_utils.py`), with the flag/field tables given by hand.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Any

import pytest
from tools import lift_raises as lr
from tools import mine_raises as mr
from tools.conformance import lifted as conformance

from vllm_lint.effective.settings import Settings
from vllm_lint.model import Span
from vllm_lint.rules.lifted import UNKNOWN, Judge

pytestmark = pytest.mark.tools

SPAN = Span("<test>", 1, 1, 1, 2)

CONFIG = """
from dataclasses import field
from typing import Literal, get_args
from vllm.config.registry import BACKENDS

Fast = Literal["fast", "slow"]
Mode = Literal[Fast, "slow"]  # nested: flattened and deduplicated, as typing does
_KINDS = {"a": 1, "b": 2}


class FooConfig:
    enabled: bool = False
    size: int = 0
    mode: str = "off"
    items: list = field(default_factory=list)
    name: str = "x"
    derived: bool = field(default=False, init=False)

    def __post_init__(self):
        if self.mode == "skip":
            return
        if self.enabled:
            self._check_size()
        self._check_items()
        if self.enabled and self._helper():
            pass
        self._check_kinds()

    def _check_size(self):
        if self.size < 0:
            raise ValueError("size must be non-negative")

    def _check_items(self):
        for item in self.items:
            if not item:
                continue
            if item.startswith("-"):
                raise ValueError("no negative items")
        if len(self.items) != len(set(self.items)):
            raise ValueError("duplicate items")
        if any(isinstance(i, int) for i in self.items):
            raise ValueError("items are names")

    def _helper(self):
        if self.size > 10:
            raise ValueError("helper reached only when enabled")
        return True

    def _check_kinds(self):
        if self.name not in _KINDS:
            raise ValueError("unknown kind")
        if self.mode not in get_args(Mode):
            raise ValueError("unknown mode")
        if self.name not in BACKENDS:
            raise ValueError("unknown backend")
        if self.derived and self.size > 1:
            raise ValueError("never: derived keeps its default")

    def _unreached(self):
        if self.size > 3:
            raise ValueError("no root calls this")

    def early(self):
        pass
"""

REGISTRY = """
BACKENDS = ("x", "y")
"""


def _fields() -> lr.Fields:
    names = ["enabled", "size", "mode", "items", "name"]
    types = {"enabled": "bool", "size": "int", "mode": "str", "items": "list", "name": "str"}
    classes = {
        "FooConfig": {
            "fields": {
                **{n: {"type": types[n]} for n in names},
                "derived": {"type": "bool", "default": False, "init": False},
            }
        }
    }
    return lr.Fields(
        flags=types,
        choices={},
        by_field={f"FooConfig.{n}": n for n in names},
        json_class={},
        classes=classes,
    )


def _vllm_tree(root: Path, config_files: dict[str, str]) -> Path:
    """A release's source as the lifter reads it: `vllm/config/<name>` files and an empty
    `vllm/engine/arg_utils.py`."""
    (root / "vllm" / "config").mkdir(parents=True)
    (root / "vllm" / "engine").mkdir(parents=True)
    for name, text in config_files.items():
        (root / "vllm" / "config" / name).write_text(text, encoding="utf-8")
    (root / "vllm" / "engine" / "arg_utils.py").write_text("", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def lifted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, lr.Lifted | str]:
    """message -> Lifted or the reason, for every site of the synthetic config."""
    root = _vllm_tree(tmp_path_factory.mktemp("src"), {"foo.py": CONFIG, "registry.py": REGISTRY})
    fields = _fields()
    fields.stored = lr.stored_attributes(root, fields.on_path)
    tree = ast.parse(CONFIG)
    constants = {**lr.imported_constants(tree, root, {}), **lr.module_constants(tree)}
    sites, _, _ = mr.collect(root)
    return {
        s.message: lr.lift_site(s, tree, constants, fields)
        for s in sites
        if s.file == "vllm/config/foo.py"
    }


def _condition(found: lr.Lifted | str) -> Any:
    assert isinstance(found, lr.Lifted), found
    return found.condition


def test_a_method_reached_under_a_condition_gets_the_call_guard_and_early_exits(
    lifted: dict[str, Any],
) -> None:
    assert _condition(lifted["size must be non-negative"]) == [
        "and",
        [
            "and",
            ["not", ["truth", ["==", ["f", "mode"], ["c", "skip"]]]],
            ["truth", ["f", "enabled"]],
        ],
        ["truth", ["<", ["f", "size"], ["c", 0]]],
    ]


def test_a_call_inside_an_expression_does_not_reach() -> None:
    """`if self.enabled and self._helper()`: the helper runs only when enabled; the call is not
    a statement of its own, so the lifter does not claim to know when it runs."""
    tree = ast.parse(textwrap.dedent(CONFIG))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    assert "_helper" not in lr.reach_paths(cls)
    assert "_unreached" not in lr.reach_paths(cls)


def test_a_call_an_evaluated_expression_makes_reaches() -> None:
    """A call in a constructor's arguments or an `if` test runs whenever its statement does;
    one after `and`/`or` or in a conditional expression's branch may not."""
    tree = ast.parse(
        textwrap.dedent(
            """
            class EngineArgs:
                def create_engine_config(self):
                    config = ParallelConfig(ids=self._ids(), n=len(self._n()))
                    if self._test():
                        pass
                    x = self._maybe() if self.flag else None
                    y = self.flag or self._other()
                    return config

                def _ids(self): pass
                def _n(self): pass
                def _test(self): pass
                def _maybe(self): pass
                def _other(self): pass
            """
        )
    )
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    reached = lr.reach_paths(cls)
    assert {"_ids", "_n", "_test"} <= set(reached)
    assert not {"_maybe", "_other"} & set(reached)


def test_unreached_methods_keep_their_reason(lifted: dict[str, Any]) -> None:
    assert lifted["helper reached only when enabled"] == "not run whenever the config is built"
    assert lifted["no root calls this"] == "not run whenever the config is built"


def test_a_loop_is_any_over_its_iterable_with_continue_negated(lifted: dict[str, Any]) -> None:
    cond = _condition(lifted["no negative items"])
    assert cond == [
        "and",
        SKIP,
        [
            "any",
            "item",
            ["f", "items"],
            [
                "and",
                ["not", ["truth", ["not", ["v", "item"]]]],
                ["truth", ["m", "startswith", ["v", "item"], ["c", "-"]]],
            ],
        ],
    ]


SKIP = ["not", ["truth", ["==", ["f", "mode"], ["c", "skip"]]]]  # __post_init__'s early return


def test_pure_helpers_len_set_isinstance_any(lifted: dict[str, Any]) -> None:
    assert _condition(lifted["duplicate items"]) == [
        "and",
        SKIP,
        ["truth", ["!=", ["len", ["f", "items"]], ["len", ["set", ["f", "items"]]]]],
    ]
    assert _condition(lifted["items are names"]) == [
        "and",
        SKIP,
        ["truth", ["any", "i", ["f", "items"], ["isinstance", ["v", "i"], ["int"]]]],
    ]


def test_registries_dict_keys_literal_aliases_and_imported_constants(
    lifted: dict[str, Any],
) -> None:
    def test_of(message: str) -> Any:
        cond = _condition(lifted[message])
        assert cond[:2] == ["and", SKIP]
        return cond[2]

    assert test_of("unknown kind") == ["truth", ["notin", ["f", "name"], ["c", ["a", "b"]]]]
    assert test_of("unknown mode") == ["truth", ["notin", ["f", "mode"], ["c", ["fast", "slow"]]]]
    assert test_of("unknown backend") == ["truth", ["notin", ["f", "name"], ["c", ["x", "y"]]]]


def test_an_init_false_field_nothing_assigns_keeps_its_default(lifted: dict[str, Any]) -> None:
    assert lifted["never: derived keeps its default"] == "never holds"


def test_fold() -> None:
    x = ["truth", ["f", "x"]]
    assert lr.fold(["and", ["not", ["truth", ["c", False]]], x]) == x
    assert lr.fold(["and", ["truth", ["c", False]], x]) == ["c", False]
    assert lr.fold(["or", ["c", False], ["f", "x"]]) == ["truth", ["f", "x"]]
    assert lr.fold(["and", x, ["truth", ["f", "y"]]]) == ["and", x, ["truth", ["f", "y"]]]


def test_path_guards_refuse_a_return_in_the_loop_before_the_site() -> None:
    fn = ast.parse(
        textwrap.dedent(
            """
            def f(self):
                for x in self.items:
                    if x == "stop":
                        return
                    if x == "bad":
                        raise ValueError("bad")
            """
        )
    ).body[0]
    assert lr.path_guards(fn, 7)[1] == "after an early return"


def test_path_guards_ignore_a_break_of_a_loop_that_ended() -> None:
    fn = ast.parse(
        textwrap.dedent(
            """
            def f(self):
                for x in self.items:
                    if x:
                        break
                if self.size < 0:
                    raise ValueError("bad")
            """
        )
    ).body[0]
    steps, problem = lr.path_guards(fn, 7)
    assert problem == "" and [k for k, _, _ in steps] == ["test"]


# --------------------------------------------------------------------------
# rules/lifted.py: three-valued evaluation of the new shapes
# --------------------------------------------------------------------------


def _judge(**values: Any) -> Judge:
    s = Settings(None)  # type: ignore[arg-type]  # the judge reads no release
    for path, value in values.items():
        s.set(path, value, SPAN)
        s.spans.setdefault(path, SPAN)
    return Judge(s)


ANY_NEG = ["any", "b", ["f", "items"], ["<=", ["v", "b"], ["c", 0]]]


def test_any_all_over_a_known_list() -> None:
    assert _judge(items=[1, -1]).eval(ANY_NEG) is True
    assert _judge(items=[1, 2]).eval(ANY_NEG) is False
    assert _judge(items=[]).eval(ANY_NEG) is False
    assert _judge(items=[1, 2]).eval(["all", "b", ["f", "items"], [">", ["v", "b"], ["c", 0]]])


def test_any_is_unknown_on_an_unknown_list_or_element() -> None:
    assert _judge().eval(ANY_NEG) is UNKNOWN  # never written: vLLM derives it
    assert _judge(items=["x"]).eval(ANY_NEG) is UNKNOWN  # not a number: not judged
    assert _judge(items=["x", -1]).eval(ANY_NEG) is True  # one element decides


def test_isinstance_set_sorted_and_str_methods() -> None:
    j = _judge(items=["a", "a"], name="FlashInfer", n=True)
    assert j.eval(["!=", ["len", ["f", "items"]], ["len", ["set", ["f", "items"]]]]) is True
    assert j.eval(["==", ["sorted", ["f", "items"]], ["c", ["a", "a"]]]) is True
    assert j.eval(["isinstance", ["f", "name"], ["str"]]) is True
    assert j.eval(["isinstance", ["f", "n"], ["int"]]) is True  # bool is an int, as in Python
    assert j.eval(["==", ["m", "lower", ["f", "name"]], ["c", "flashinfer"]]) is True
    assert j.eval(["m", "startswith", ["f", "name"], ["c", "Flash"]]) is True
    assert _judge(name=3).eval(["m", "lower", ["f", "name"]]) is UNKNOWN
    assert _judge().eval(["isinstance", ["f", "name"], ["str"]]) is UNKNOWN
    assert _judge(items=[[1], [1]]).eval(["set", ["f", "items"]]) is UNKNOWN  # unhashable


def test_the_generator_finds_both_sides_of_a_quantified_condition() -> None:
    entry = {
        "condition": ["truth", ANY_NEG],
        "paths": ["items"],
        "types": {"items": "list"},
    }
    found = conformance.boundary(entry)
    assert found is not None
    inside, outside = found
    assert conformance.judged(entry, inside) is True
    assert conformance.judged(entry, outside) is False


def test_outside_cases_are_the_nearest_first() -> None:
    """The boundary's outside cases: the same type next to the boundary first, then another
    value; a field left out is no outside case when its default is unknown to the judge."""
    entry = {
        "condition": ["truth", ["and", ["f", "on"], ["<", ["f", "size"], ["c", 0]]]],
        "paths": ["on", "size"],
        "types": {"on": "bool", "size": "int"},
    }
    found = conformance.boundaries(entry)
    assert found is not None
    inside, outsides = found
    assert inside == {"on": True, "size": -1}
    assert outsides[0] == {"on": False, "size": -1}
    assert {"on": True, "size": 0} in outsides
    assert len(outsides) <= conformance.MAX_OUTSIDE
    assert all(conformance.judged(entry, o) is False for o in outsides)


def _lift(source: str) -> Any:
    fn = ast.parse("def f(self): pass").body[0]
    ctx = lr.Context("FooConfig", fn, 1, {}, _fields())  # type: ignore[arg-type]
    return lr.lift_expr(ast.parse(source, mode="eval").body, ctx)


def test_power_and_constant_index() -> None:
    assert _lift("self.size > 2 ** 64 - 1") == [
        ">",
        ["f", "size"],
        ["-", ["**", ["c", 2], ["c", 64]], ["c", 1]],
    ]
    assert _lift("self.name[0] not in {'+', '-'}") == [
        "notin",
        ["idx", ["f", "name"], 0],
        ["c", ["+", "-"]],
    ]
    j = _judge(size=2**64, name="+x", empty="")
    assert j.eval(_lift("self.size > 2 ** 64 - 1")) is True
    assert j.eval(["in", ["idx", ["f", "name"], 0], ["c", ["+", "-"]]]) is True
    assert j.eval(["idx", ["f", "empty"], 0]) is UNKNOWN  # vLLM raises IndexError there
    assert j.eval(["**", ["c", 2], ["f", "size"]]) is UNKNOWN  # no huge power of a user's number


def test_a_string_is_not_iterated_where_a_list_is_read() -> None:
    """`--device-ids 0,0` may stay a string in the settings where vLLM parses a list: its
    characters are not the elements vLLM sees."""
    assert _judge(items="0,0").eval(ANY_NEG) is UNKNOWN
    assert _judge(items="0,0").eval(["set", ["f", "items"]]) is UNKNOWN


CROSS = """
import vllm.envs as envs


def _check_pair(size, mode):
    if size > 5 and mode == "x":
        raise ValueError("pair")


class FooConfig:
    def __post_init__(self):
        _check_pair(self.size, mode=self.mode)

    def verify_with(self, other):
        if self.size > other.limit:
            raise ValueError("over the limit")


class BarConfig:
    pass


class VllmConfig:
    def __post_init__(self):
        def helper():
            return 1

        if envs.VLLM_MODE != "strict":
            return
        self.foo_config.verify_with(self.bar_config)
        self.qux_config.verify_with(self.bar_config)
"""


@pytest.fixture(scope="module")
def followed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, lr.Lifted | str]:
    """message -> Lifted or the reason, for the sites reached only through calls."""
    root = _vllm_tree(tmp_path_factory.mktemp("cross"), {"vllm.py": CROSS})
    fields = lr.Fields(
        flags={"size": "int", "mode": "str", "limit": "int"},
        choices={},
        by_field={"FooConfig.size": "size", "FooConfig.mode": "mode", "BarConfig.limit": "limit"},
        json_class={},
        classes={
            "FooConfig": {"fields": {"size": {"type": "int"}, "mode": {"type": "str"}}},
            "BarConfig": {"fields": {"limit": {"type": "int"}}},
            "QuxConfig": {"fields": {}},
        },
        built={"foo_config", "bar_config"},  # not qux_config: it may be None
        envs={"VLLM_MODE": {"kind": "choice", "case_sensitive": True, "choices": ["strict"]}},
    )
    fields.stored = lr.stored_attributes(root, fields.on_path)
    tree = ast.parse(CROSS)
    constants = lr.module_constants(tree)
    calls = lr.index_calls({"vllm/config/vllm.py": (tree, constants)}, fields)
    sites, _, _ = mr.collect(root)
    return {s.message: lr.lift_site(s, tree, constants, fields, calls) for s in sites}


def test_a_module_function_is_followed_with_its_arguments_bound(followed: dict[str, Any]) -> None:
    assert _condition(followed["pair"]) == [
        "truth",
        ["and", [">", ["f", "size"], ["c", 5]], ["==", ["f", "mode"], ["c", "x"]]],
    ]


def test_another_configs_method_is_followed_from_vllm_config(followed: dict[str, Any]) -> None:
    """`self.foo_config.verify_with(self.bar_config)`: `self` is the receiver, `other` the
    argument; the caller's early return on `envs.VLLM_MODE` (a nested def's return is not an
    exit) is conjoined; the call on `qux_config`, which may be None, is not followed."""
    found = followed["over the limit"]
    assert _condition(found) == [
        "and",
        ["not", ["truth", ["!=", ["f", "env.VLLM_MODE"], ["c", "strict"]]]],
        ["truth", [">", ["f", "size"], ["f", "limit"]]],
    ]
    assert found.types["env.VLLM_MODE"] == '["strict"]'


def test_an_environment_variable_is_known_only_where_the_launch_writes_it() -> None:
    expr = ["==", ["f", "env.VLLM_MODE"], ["c", "strict"]]
    s = Settings(None)  # type: ignore[arg-type]
    assert Judge(s).eval(expr) is UNKNOWN
    s.set("env.VLLM_MODE", "strict", SPAN)
    s.spans.setdefault("env", SPAN)
    assert Judge(s).eval(expr) is True


BEFORE = """
from pydantic import field_validator

_NAMES = {"fp8": 1, "int8": 2}


class BazConfig:
    @field_validator("targets", mode="before")
    @classmethod
    def _validate_targets(cls, value):
        if value is None:
            return value
        for pattern, target in value.items():
            if target not in _NAMES:
                raise ValueError("unknown target")
        return {k: _NAMES[v] for k, v in value.items()}  # the field is rewritten here

    @field_validator("targets")
    @classmethod
    def _after(cls, value):
        for pattern, target in value.items():
            if target > 1:
                raise ValueError("after the rewrite")
        return value
"""


def test_a_before_validator_reads_the_written_value_over_items(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """`for k, v in value.items()` is `any` over the pairs; a `mode="before"` validator's value
    is what the launch wrote even where that validator rewrites the field (`rewritten` points
    into it); an after-validator of the rewritten field is not lifted."""
    root = _vllm_tree(tmp_path_factory.mktemp("before"), {"baz.py": BEFORE})
    line = BEFORE.splitlines().index(
        "        return {k: _NAMES[v] for k, v in value.items()}  # the field is rewritten here"
    )
    record = {"type": "dict", "rewritten": f"vllm/config/baz.py:{line + 1}"}
    fields = lr.Fields(
        flags={"targets": "dict"},
        choices={},
        by_field={"BazConfig.targets": "targets"},
        json_class={},
        classes={"BazConfig": {"fields": {"targets": record}}},
    )
    fields.stored = lr.stored_attributes(root, fields.on_path)
    tree = ast.parse(BEFORE)
    constants = lr.module_constants(tree)
    sites, _, _ = mr.collect(root)
    got = {s.message: lr.lift_site(s, tree, constants, fields) for s in sites}
    assert _condition(got["unknown target"]) == [
        "and",
        ["not", ["truth", ["is", ["f", "targets"], ["c", None]]]],
        [
            "any",
            ["pattern", "target"],
            ["items", ["f", "targets"]],
            ["truth", ["notin", ["v", "target"], ["c", ["fp8", "int8"]]]],
        ],
    ]
    assert got["after the rewrite"] == "field without one flag"


def test_any_over_the_pairs_of_a_mapping() -> None:
    expr = ["any", ["k", "v"], ["items", ["f", "d"]], ["truth", ["==", ["v", "v"], ["c", 1]]]]

    def judge(value: Any) -> Any:
        s = Settings(None)  # type: ignore[arg-type]
        s.set("d", value, SPAN)
        return Judge(s).eval(expr)

    assert judge({"a": 2, "b": 1}) is True
    assert judge({"a": 2}) is False
    assert judge("a=1") is UNKNOWN  # not a mapping: vLLM parses or refuses it first
    assert judge([1]) is UNKNOWN


SPEC = """
from pydantic import field_validator


class Spec:
    pass


class QuxConfig:
    @field_validator("targets", mode="before")
    @classmethod
    def _v(cls, value):
        for k, target in value.items():
            if isinstance(target, dict):
                target = Spec()
            elif not isinstance(target, Spec):
                raise ValueError("not a spec")
            if target == 1:
                raise ValueError("after a reassignment")
        return value

    @field_validator("targets")
    @classmethod
    def _after(cls, value):
        if not isinstance(value, Spec):
            raise ValueError("after: may be a Spec")
        return value
"""


def test_a_written_value_is_no_instance_of_a_vllm_class(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """In a before-validator, `isinstance(raw, Spec)` of a class the module defines is false
    (JSON or a command-line word is never one); a loop variable reassigned on the way to a
    site is not the element any more; an after-validator sees converted values."""
    root = _vllm_tree(tmp_path_factory.mktemp("spec"), {"qux.py": SPEC})
    fields = lr.Fields(
        flags={"targets": "dict"},
        choices={},
        by_field={"QuxConfig.targets": "targets"},
        json_class={},
        classes={"QuxConfig": {"fields": {"targets": {"type": "dict"}}}},
    )
    fields.stored = lr.stored_attributes(root, fields.on_path)
    tree = ast.parse(SPEC)
    constants = lr.module_constants(tree)
    assert isinstance(constants["Spec"], lr.VllmClass)
    sites, _, _ = mr.collect(root)
    got = {s.message: lr.lift_site(s, tree, constants, fields) for s in sites}
    assert _condition(got["not a spec"]) == [
        "any",
        ["k", "target"],
        ["items", ["f", "targets"]],
        [
            "and",
            ["not", ["truth", ["isinstance", ["v", "target"], ["dict"]]]],
            ["truth", ["not", ["isinstance", ["v", "target"], []]]],
        ],
    ]
    assert got["after a reassignment"] == "loop variable assigned before the site"
    assert got["after: may be a Spec"] == "isinstance of a non-builtin type"
