"""Python (sources/python_argv.py, python_api.py, effective/python_api.py): argv lists,
command strings and vLLM's Python API read with `ast` (never imported or run), each word
at the line and column where the code writes it, judged as each release takes it."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli, write
from sources_helpers import launches, lint, rules_at, where, words
from vllm_lint.pipeline import check_python
from vllm_lint.release import evidence_choice


def test_argv_lists_and_what_the_function_adds(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "serve.py",
        """
        import subprocess

        MODEL = "Qwen/Qwen3-8B"


        def start(port, extra):
            cmd = ["vllm", "serve", MODEL, "--port", str(port)]
            cmd += ["--max-num-seqs", "64"]
            cmd.extend(["--seed", "0"])
            cmd.append("--enable-prefix-caching")
            cmd.extend(extra)
            return subprocess.Popen(cmd)
        """,
    )
    [inv] = launches(code)
    assert where(inv) == (7, 13)
    assert words(inv) == [
        ("Qwen/Qwen3-8B", 3, 10),  # where the constant is written
        ("--port", 7, 37),
        ("--max-num-seqs", 8, 14),
        ("64", 8, 32),
        ("--seed", 9, 18),
        ("0", 9, 28),
        ("--enable-prefix-caching", 10, 17),
    ]
    assert [t.text for t in inv.argv if t.opaque] == ["str(port)", "*extra"]


def test_the_arms_of_an_if_and_an_early_return(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "serve.py",
        """
        def command(kind, lora):
            cmd = [] if kind else ["srun"]
            cmd.extend(["vllm", "serve", "m"])
            if lora:
                cmd += ["--enable-lora"]
            else:
                cmd += ["--max-loras", "0"]
            if kind == "vllm":
                cmd.append("--headless")
                return cmd
            cmd.extend(["--seed", "1"])
            return cmd
        """,
    )
    found = launches(code)
    texts = sorted(tuple(t.text for t in i.argv) for i in found)
    # either arm of the if/else is unknown; the flags after the early return are another path
    assert texts == [("m", "*cmd (if/else)", "--headless")]


def test_command_strings_f_strings_and_docstrings(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "run.py",
        '''
        """Usage:
            CUDA_VISIBLE_DEVICES=1 vllm serve m --max-model-len 4096

        It runs `vllm serve`, don't worry.
        """
        import os
        import shlex
        import subprocess


        def run(port):
            os.system(f"vllm serve {MODEL} --port={port} --dtype half &")
            subprocess.Popen(shlex.split("vllm serve m --seed 3"))
            subprocess.run("python -m vllm.entrypoints.openai.api_server --model %s --seed 4" % port, shell=True)
            print("Troubleshooting: vllm serve m --port 8000")
            subprocess.run(["pkill", "-f", "vllm serve"])
        ''',
    )
    found = launches(code)
    # not `pkill -f "vllm serve"`: a word of an argv list is no command of its own
    assert [where(i) for i in found] == [(2, 28), (12, 17), (13, 35), (14, 21), (15, 29)]
    docstring, fstring, split, percent, hint = found
    assert docstring.env["CUDA_VISIBLE_DEVICES"].text == "1"
    assert words(fstring) == [("--dtype", 12, 50), ("half", 12, 58)]
    assert [t.text for t in fstring.argv if t.opaque] == ["{MODEL}", "--port={port}"]
    assert words(split) == [("m", 13, 46), ("--seed", 13, 48), ("3", 13, 55)]
    assert words(percent) == [("--model", 14, 66), ("--seed", 14, 77), ("4", 14, 84)]
    assert words(hint)[:2] == [("m", 15, 40), ("--port", 15, 42)]


def test_nested_shell_strings_and_docker_keep_their_places(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "run.py",
        """
        import subprocess
        import sys

        subprocess.run(["bash", "-c", "exec vllm serve m \\\\\\n  --swap-space 4"])
        subprocess.run([sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", "m"])
        subprocess.run(["docker", "run", "--gpus", "all", "vllm/vllm-openai:v0.9.2", "--model", "m"])
        """,
    )
    nested, module, docker = launches(code)
    assert where(nested) == (4, 37)
    assert words(nested) == [("m", 4, 48), ("--swap-space", 4, 56), ("4", 4, 69)]
    assert where(module) == (5, 17)
    assert evidence_choice(docker) is not None and evidence_choice(docker).version == "0.9.2"
    assert rules_at(lint(code, version="0.18.0"))[0] == ("VL002", 4, 56)


def test_not_vllm(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "client.py",
        """
        import subprocess
        from openai import OpenAI
        from bespokelabs.curator import LLM


        class Engine:
            pass


        subprocess.run(["trl", "vllm-serve", "--model", "m"])
        client = OpenAI(base_url="http://vllm:8000/v1")
        llm = LLM(model_name="hosted_vllm/m")
        """,
    )
    assert launches(code) == []


def test_names_are_resolved_through_the_import_that_binds_them(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "engines.py",
        """
        import vllm as v
        from vllm import LLM
        from tensorrt_llm import LLM
        from vllm.engine.arg_utils import EngineArgs as EA
        from vllm import LLMEngine, LLM as Engine


        def trt():
            return LLM(model="m", backend="pytorch")  # TensorRT-LLM's: the last import wins


        def vllm_local():
            from vllm import LLM

            return LLM(model="m", max_model_len=8)


        def sglang_local():
            from sglang import Engine

            return Engine(model_path="m")


        def branches(backend):
            if backend == "vllm":
                from vllm import SamplingParams as Run
            else:
                from lmdeploy import pipeline as Run
            return Run(temperature=0)


        def no_import():
            return SamplingParams(n=1)


        v.LLM(model="m", seed=1)
        Engine(model="m", seed=2)
        LLMEngine.from_engine_args(EA(model="m", seed=3))
        """,
    )
    found = sorted((inv.anchor.line, inv.api) for inv in launches(code) if inv.anchor)
    assert found == [
        (15, "vllm.LLM"),
        (36, "vllm.LLM"),
        (37, "vllm.LLM"),
        (38, "vllm.engine.arg_utils.EngineArgs"),
    ]


def test_keywords_are_judged_whatever_their_value(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "offline.py",
        """
        from vllm import LLM

        LLM("m", enforce_eager=False, seed=None, hf_token=None, use_v2=False, no_such=None, typo=x)
        """,
    )
    result = lint(code)
    # an unknown keyword is a TypeError in vLLM whether it is False, None or a variable
    assert rules_at(result) == [("VL023", 3, 57), ("VL023", 3, 71), ("VL023", 3, 85)]
    assert [t.text for t in result.invocations[0].argv if not t.opaque][:2] == [
        "m",
        "--no-enforce-eager",
    ]


def test_llm_keyword_arguments_are_the_flags(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "offline.py",
        """
        from vllm import LLM

        def build(draft):
            kwargs = {"max_model_len": 8192}
            kwargs["gpu_memory_utilization"] = 0.85
            kwargs.update(max_num_seqs=16)
            return LLM(
                "Qwen/Qwen3-8B",
                enforce_eager=False,
                enable_prefix_caching=True,
                seed=None,
                speculative_config={"method": "eagle", "model": draft, "num_speculative_tokens": 3},
                **kwargs,
            )
        """,
    )
    [inv] = launches(code)
    assert where(inv) == (7, 12)
    assert inv.api == "vllm.LLM"
    assert words(inv) == [
        ("Qwen/Qwen3-8B", 8, 10),
        ("--no-enforce-eager", 9, 9),
        ("--enable-prefix-caching", 10, 9),
        ("--speculative-config.method", 12, 9),
        ('"eagle"', 12, 28),
        ("--speculative-config.model", 12, 9),
        ("--speculative-config.num_speculative_tokens", 12, 9),
        ("3", 12, 28),
        ("--max-model-len", 4, 15),
        ("8192", 4, 32),
        ("--gpu-memory-utilization", 5, 12),
        ("0.85", 5, 40),
        ("--max-num-seqs", 6, 19),
        ("16", 6, 32),
    ]
    assert [t.text for t in inv.argv if t.opaque] == ["draft"]


def test_engine_args_count_where_an_engine_starts(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "engine.py",
        """
        from vllm import AsyncEngineArgs, AsyncLLMEngine, EngineArgs

        config = EngineArgs(model="m").create_model_config()  # starts nothing

        def start():
            args = AsyncEngineArgs(model="m", max_model_len=4096)
            return AsyncLLMEngine.from_engine_args(args)
        """,
    )
    [inv] = launches(code)
    assert inv.origin == "AsyncLLMEngine.from_engine_args(...) of AsyncEngineArgs(...)"
    assert inv.anchor is not None
    assert (inv.anchor.line, inv.anchor.end_line) == (6, 7)  # from the arguments to the start
    assert inv.api == "vllm.AsyncEngineArgs"


def test_keywords_each_release_refuses(tmp_path: Path) -> None:
    code = """
from vllm import LLM, AsyncEngineArgs
LLM("m", port=8000)
AsyncEngineArgs  # request logging: disable_log_requests until 0.10, enable_log_requests from 0.10
from vllm import AsyncLLMEngine
AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model="m", disable_log_requests=True))
"""
    new = [(f.rule, f.span.line) for f in check_python(code, "0.34.0")]
    old = [(f.rule, f.span.line) for f in check_python(code, "0.9.2")]
    assert new == [("VL023", 3), ("VL023", 6)]
    assert old == [("VL023", 3)]  # 0.9.2's AsyncEngineArgs has disable_log_requests


def test_what_llm_does_with_its_arguments() -> None:
    unknown_key = "from vllm import LLM\nLLM('m', compilation_config={'no_such_key': 1})"
    # LLM drops keys its CompilationConfig does not know (is_init_field); the CLI refuses them
    assert [f.rule for f in check_python(unknown_key, "0.34.0")] == []
    serve = "from vllm import EngineArgs, LLMEngine\nLLMEngine.from_engine_args(EngineArgs(model='m', compilation_config={'no_such_key': 1}))"
    assert [f.rule for f in check_python(serve, "0.34.0")] == ["VL006"]
    dp = "from vllm import LLM\nLLM('m', data_parallel_size=2)"
    assert [f.rule for f in check_python(dp, "0.34.0")] == ["VL360"]
    assert [
        f.rule for f in check_python(dp, "0.10.2")
    ] == []  # before 0.11.1 LLM took it (0.11.0 llm.py has no such check)


def test_a_module_that_wraps_llm_may_take_more(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "rollout.py",
        """
        from verl.third_party.vllm import LLM

        llm = LLM(model="m", model_hf_config=cfg, max_model_len="long")
        """,
    )
    result = lint(code)
    assert result.invocations[0].api == "verl.third_party.vllm.LLM"
    assert rules_at(result) == [("VL004", 3, 57)]  # its own keyword is not refused


def test_ray_serve_llm_engine_kwargs(tmp_path: Path) -> None:
    code = write(
        tmp_path,
        "serve.py",
        """
        from ray.serve.llm import LLMConfig

        LLMConfig(
            model_loading_config={"model_id": "q", "model_source": "Qwen/Qwen3-8B"},
            engine_kwargs={"tensor_parallel_size": 2, "port": 8000},
        )
        """,
    )
    result = lint(code)
    [inv] = result.invocations
    assert words(inv)[:3] == [
        ("Qwen/Qwen3-8B", 4, 26),
        ("--tensor-parallel-size", 5, 20),
        ("2", 5, 44),
    ]
    assert rules_at(result) == [("VL023", 5, 47)]


def test_the_release_a_program_installs(tmp_path: Path) -> None:
    write(tmp_path, "requirements.txt", "vllm==0.10.2\n")
    code = write(
        tmp_path,
        "app.py",
        """
        import subprocess

        image = Image.debian_slim().pip_install("vllm==0.9.2")
        subprocess.run(["docker", "run", "vllm/vllm-openai:v0.8.5", "--model", "m"])
        subprocess.run(["vllm", "serve", "m"])
        """,
    )
    docker, local = launches(code)
    assert evidence_choice(docker) is not None and evidence_choice(docker).version == "0.8.5"
    assert evidence_choice(local) is not None  # the image tag of the other launch does not count
    assert (evidence_choice(local).version, evidence_choice(local).reason) == (
        "0.9.2",
        "vllm==0.9.2 (line 3)",
    )


def test_python_that_does_not_parse_is_said_so(tmp_path: Path) -> None:
    code = write(tmp_path, "old.py", 'print "vllm serve m"\n')
    run = run_cli("--format", "json", "--fail-on", "error", "old.py", cwd=tmp_path)
    assert run.code == 0
    assert [(f["rule"], f["severity"]) for f in run.findings()] == [("VL907", "info")]
    assert code.is_file()


def test_the_release_a_lock_file_pins(tmp_path: Path) -> None:
    write(
        tmp_path,
        "uv.lock",
        """
        [[package]]
        name = "torch"
        version = "2.8.0"

        [[package]]
        name = "vllm"
        version = "0.11.2"
        source = { registry = "https://pypi.org/simple" }
        """,
    )
    code = write(tmp_path, "src/app/run.py", "import os\nos.system('vllm serve m')\n")
    [inv] = launches(code, root=tmp_path)
    run = run_cli("--show-invocations", "src/app/run.py", cwd=tmp_path)
    assert evidence_choice(inv) is None  # the repo's pin: found when the launch is checked
    assert "release: 0.11.2 (vllm==0.11.2 pinned in uv.lock:6)" in run.out


def test_the_python_api_of_every_catalogued_release_is_known() -> None:
    """tools/extract_python_api.py ran for every release the flag catalogs hold."""
    import json

    from vllm_lint.argv.catalog import known_releases
    from vllm_lint.effective.python_api import api_of
    from vllm_lint.resources import schemas_dir

    data = json.loads((schemas_dir() / "python-api.json").read_text(encoding="utf-8"))
    assert list(known_releases()) == sorted(
        data["releases"], key=lambda r: [int(x) for x in r.replace("post", "").split(".")]
    )
    assert set(data["per_release"]) == set(known_releases())
    assert "enable_log_requests" in api_of("0.34.0").async_engine_args
    assert "disable_log_requests" in api_of("0.9.2").async_engine_args
    assert "tensor_parallel_size" in api_of("0.33.1").engine_args  # a patch not extracted


def test_usage_in_docstrings_placeholders_and_json_over_lines(tmp_path: Path) -> None:
    """From vLLM's own sources (0.34.0 vllm/benchmarks/serve.py:7, decode_bench_connector.py:13):
    a placeholder with a space, and a JSON value whose quote spans lines."""
    code = write(
        tmp_path,
        "bench.py",
        '''
        r"""Benchmark.

        On the server side, run:
            vllm serve <your_model> <engine arguments>

        Example:
                vllm serve <model> --kv-transfer-config '{
                    "kv_connector": "DecodeBenchConnector",
                    "kv_role": "kv_both"
                }'
        It's all.
        """
        ''',
    )
    result = lint(code)
    assert [where(i) for i in result.invocations] == [(4, 5), (7, 9)]
    assert [t.text for t in result.invocations[0].argv] == ["<your_model>", "<engine arguments>"]
    assert result.findings == []
    kv = result.invocations[1].argv[-1]
    assert (kv.span.line, kv.span.end_line) == (7, 10) and '"kv_role": "kv_both"' in kv.text


def test_the_release_a_pipfile_lock_pins(tmp_path: Path) -> None:
    write(
        tmp_path,
        "Pipfile.lock",
        '{"_meta": {}, "default": {"vllm": {"hashes": ["sha256:00"], "version": "==0.9.2"}}}\n',
    )
    write(tmp_path, "run.py", "import os\nos.system('vllm serve m')\n")
    run = run_cli("--show-invocations", "run.py", cwd=tmp_path)
    assert "release: 0.9.2 (vllm==0.9.2 pinned in Pipfile.lock:1)" in run.out, run.out
