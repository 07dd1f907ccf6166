"""Shell scripts: every construct that can carry a vLLM launch, each word at its exact line
and column, variables resolved only when literal (never a finding built on a guess)."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import run_cli, write
from sources_helpers import launches, lint, rules_at, where, words
from vllm_lint.release import evidence_choice

SCRIPT = r"""#!/usr/bin/env bash
set -euo pipefail
MODEL=Qwen/Qwen3-8B
TP=2
export VLLM_USE_V1=1
cat > extra.yaml <<EOF
vllm serve not/a-launch --no-such-flag
EOF
# first server: env prefix, continuation, redirection, background
CUDA_VISIBLE_DEVICES=0 vllm serve "$MODEL" \
  --tensor-parallel-size "$TP" \
  --max-model-len 4096 > s1.log 2>&1 &
ARGS=(--port 8002
      --enable-prefix-caching)   # an array, then appended to
ARGS+=(--max-num-seqs 8)
cd /srv && nohup python3 -m vllm.entrypoints.openai.api_server --model "$MODEL" "${ARGS[@]}" &
if [ "${RANK:-0}" = "0" ]; then
  EXTRA="--enforce-eager"
fi
exec vllm serve m2 $EXTRA --swap-space 4 ${UNKNOWN}
"""


def test_every_construct_at_its_exact_place(tmp_path: Path) -> None:
    path = write(tmp_path, "serve.sh", SCRIPT)
    first, second, third = launches(path)
    assert where(first) == (10, 24)  # the `vllm` after the env prefix
    assert words(first) == [
        ("Qwen/Qwen3-8B", 3, 7),  # "$MODEL": where its literal value is written
        ("--tensor-parallel-size", 11, 3),
        ("2", 4, 4),
        ("--max-model-len", 12, 3),
        ("4096", 12, 19),
    ]
    assert first.env["CUDA_VISIBLE_DEVICES"].text == "0"
    assert first.env["VLLM_USE_V1"].text == "1"  # exported before the launch
    assert where(second) == (16, 18)
    assert words(second) == [
        ("--model", 16, 64),
        ("Qwen/Qwen3-8B", 3, 7),
        ("--port", 13, 7),
        ("8002", 13, 14),
        ("--enable-prefix-caching", 14, 7),
        ("--max-num-seqs", 15, 8),
        ("8", 15, 23),
    ]
    # EXTRA is set on one branch only: unknown after the `if`, so opaque, as is ${UNKNOWN}
    assert words(third) == [("m2", 20, 17), ("--swap-space", 20, 27), ("4", 20, 40)]
    assert [t.text for t in third.argv if t.opaque] == ["$EXTRA", "${UNKNOWN}"]
    assert third.partial


def test_heredoc_bodies_are_not_commands(tmp_path: Path) -> None:
    path = write(tmp_path, "serve.sh", SCRIPT)
    assert all(t.text != "not/a-launch" for inv in launches(path) for t in inv.argv)


def test_a_removed_flag_is_reported_at_its_column(tmp_path: Path) -> None:
    path = write(tmp_path, "serve.sh", SCRIPT)
    assert ("VL002", 20, 27) in rules_at(lint(path, version="0.34.0"))
    assert all(rule != "VL002" for rule, *_ in rules_at(lint(path, version="0.17.1")))


def test_bash_array_built_over_lines_and_run_with_exec(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "entry.sh",
        """\
        ARGS=(
          "vllm"
          "serve"
          "org/model"   # the model
          "--host" "0.0.0.0"
        )
        ARGS+=("--enable-lora")
        ARGS+=("--kv-transfer-config" "{\\"kv_connector\\":\\"LMCacheConnectorV1\\"}")
        echo "Executing: ${ARGS[@]}"
        exec "${ARGS[@]}"
        """,
    )
    [inv] = launches(path)
    assert where(inv) == (2, 4)  # inside its quotes
    assert words(inv) == [
        ("org/model", 4, 4),
        ("--host", 5, 4),  # inside its quotes
        ("0.0.0.0", 5, 13),
        ("--enable-lora", 7, 9),
        ("--kv-transfer-config", 8, 9),
        ('{"kv_connector":"LMCacheConnectorV1"}', 8, 32),
    ]


def test_elements_added_on_one_branch_are_never_judged(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "entry.sh",
        """\
        ARGS=(vllm serve m)
        [ -n "$LORA" ] && ARGS+=(--enable-lora --max-loras 4)
        exec "${ARGS[@]}"
        """,
    )
    [inv] = launches(path)
    assert words(inv) == [("m", 1, 18)]
    assert [t.text for t in inv.argv if t.opaque] == ["--enable-lora", "--max-loras", "4"]


def test_eval_and_nested_shells_are_read_again_with_positions(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "run.sh",
        """\
        EXTRA="--max-model-len 2048"
        eval "exec vllm serve m1 \\
          ${EXTRA} \\
          --port 8000"
        bash -lc "uv run vllm serve m2 --max-num-seqs 4"
        timeout 600 vllm serve m3 --seed 1
        """,
    )
    first, second, third = launches(path)
    assert words(first) == [
        ("m1", 2, 23),
        ("--max-model-len", 1, 8),  # where the value of EXTRA is written
        ("2048", 1, 24),
        ("--port", 4, 3),
        ("8000", 4, 10),
    ]
    assert words(second) == [("m2", 5, 29), ("--max-num-seqs", 5, 32), ("4", 5, 47)]
    assert words(third) == [("m3", 6, 24), ("--seed", 6, 27), ("1", 6, 34)]


def test_several_servers_on_one_line_and_after_separators(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "two.sh",
        "vllm serve a --port 1 & vllm serve b --port 2; true && vllm serve c || exit 1\n",
    )
    assert [words(inv)[0] for inv in launches(path)] == [("a", 1, 12), ("b", 1, 36), ("c", 1, 67)]


def test_a_comment_ends_a_continued_command(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "c.sh",
        """\
        vllm serve m \\
          --max-num-seqs 4 \\
        # --swap-space 4
          --enforce-eager
        """,
    )
    [inv] = launches(path)
    assert words(inv) == [("m", 1, 12), ("--max-num-seqs", 2, 3), ("4", 2, 18)]


def test_docker_run_gives_the_release_from_its_image_tag(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "docker.sh",
        """\
        docker run --gpus all -p 8000:8000 -e HF_TOKEN=x --ipc=host \\
          vllm/vllm-openai:v0.10.1 --model org/m --swap-space 4
        docker run --rm --entrypoint vllm my/image:1 serve org/n --seed 2
        """,
    )
    first, second = launches(path)
    assert evidence_choice(first) is not None and evidence_choice(first).version == "0.10.1"
    assert words(first) == [
        ("--model", 2, 28),
        ("org/m", 2, 36),
        ("--swap-space", 2, 42),
        ("4", 2, 55),
    ]
    assert first.env["HF_TOKEN"].text == "x"
    assert evidence_choice(second) is None
    assert words(second) == [("org/n", 3, 52), ("--seed", 3, 58), ("2", 3, 65)]


def test_a_server_image_given_a_shell_to_run_is_not_a_launch(tmp_path: Path) -> None:
    script = write(
        tmp_path,
        "debug.sh",
        """
        #!/bin/bash
        docker run --gpus all -it vllm/vllm-openai:v0.8.5 /bin/bash
        docker run -d --gpus all vllm/vllm-openai:v0.8.5 sleep infinity
        docker run --rm vllm/vllm-openai:v0.8.5 tail -f /dev/null
        docker run --entrypoint /bin/bash vllm/vllm-openai:v0.8.5 -c "vllm serve m --nope-a"
        docker run vllm/vllm-openai:v0.8.5 bash -c "vllm serve m --nope-b"
        docker run vllm/vllm-openai:v0.8.5 --model m --nope-c
        """,
    )
    found = launches(script)
    # a shell, `sleep`, `tail` after the image: what runs is not the server's arguments; a
    # server the shell's string starts is (the --entrypoint shell's `-c` string included)
    assert [(inv.anchor.line, inv.entrypoint) for inv in found if inv.anchor] == [
        (5, "vllm serve"),
        (6, "vllm serve"),
        (7, "image"),
    ]
    assert [(f.rule, f.span.line, f.span.col) for f in lint(script).findings] == [
        ("VL001", 5, 76),
        ("VL001", 6, 58),
        ("VL001", 7, 46),
    ]


def test_xargs_and_parallel_run_the_command_once_per_input_item(tmp_path: Path) -> None:
    script = write(
        tmp_path,
        "fanout.sh",
        """
        #!/bin/bash
        xargs -I % vllm serve % --port 8000 --max-num-seqs 64 < models.txt
        xargs -n1 vllm serve --port nope < models.txt
        parallel -j2 vllm serve {} --port 8001 ::: Qwen/Qwen3-8B Qwen/Qwen3-4B
        """,
    )
    found = launches(script)
    # `%` and `{}` stand for an item (unknown); xargs -n1 adds the item after the words;
    # `:::` ends parallel's command (its items are never the server's arguments)
    assert [words(inv, opaque=True) for inv in found] == [
        [
            ("%", 2, 23),
            ("--port", 2, 25),
            ("8000", 2, 32),
            ("--max-num-seqs", 2, 37),
            ("64", 2, 52),
        ],
        [("--port", 3, 22), ("nope", 3, 29), ("{input}", 3, 1)],
        [("{}", 4, 25), ("--port", 4, 28), ("8001", 4, 35)],
    ]
    assert [t.opaque for t in found[0].argv][:1] == [True]
    assert rules_at(lint(script)) == [("VL004", 3, 29)]


def test_shebang_files_without_a_suffix_are_scripts(tmp_path: Path) -> None:
    write(tmp_path, "start", "#!/bin/sh\nvllm serve m --swap-space 4\n")
    write(tmp_path, "notes", "vllm serve m --swap-space 4\n")  # no shebang: not a script
    run = run_cli("--vllm-version", "0.34.0", "--format", "json", ".", cwd=tmp_path)
    assert [(f["path"], f["line"], f["rule"]) for f in run.findings()] == [("start", 2, "VL002")]
    assert run.code == 1


def test_no_launch_in_an_ordinary_script(tmp_path: Path) -> None:
    path = write(
        tmp_path, "build.sh", "echo vllm serve is documented elsewhere\npip install vllm\n"
    )
    assert launches(path) == []
    os.chmod(path, 0o755)
    assert run_cli(str(path)).code == 0


def test_a_command_string_keeps_what_is_known_of_it(tmp_path: Path) -> None:
    """`CMD="vllm serve $MODEL …"`: only `$MODEL` is unknown, also through `eval` and `bash -c`;
    a flag appended on one branch of an `if` may be there or not: unknown, the rest known."""
    path = write(
        tmp_path,
        "run.sh",
        """\
        CMD="vllm serve $1 --port 9000"
        if [ -n "$TP" ]; then
          CMD="$CMD --tensor-parallel-size 2"
        fi
        eval "$CMD"
        bash -c "$CMD --max-num-seqs 8"
        """,
    )
    first, second = launches(path)
    assert [(t.text, t.opaque) for t in first.argv] == [
        ("$1", True),
        ("--port", False),
        ("9000", False),
        ("--tensor-parallel-size", True),
        ("2", True),
    ]
    assert [t.text for t in second.argv if not t.opaque] == [
        "--port",
        "9000",
        "--max-num-seqs",
        "8",
    ]
    assert where(first) == (1, 6)  # `vllm` as written in the string


def test_a_value_on_every_branch_keeps_what_the_branches_share(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "run.sh",
        """\
        if [ "$BIG" = 1 ]; then
          ARGS="--max-model-len 32768"
        else
          ARGS="--max-model-len 4096"
        fi
        vllm serve m $ARGS
        for i in 1 2; do PORT=800$i; done
        vllm serve m --port $PORT
        """,
    )
    first, second = launches(path)
    assert [(t.text, t.opaque) for t in first.argv[1:]] == [
        ("--max-model-len", False),
        ("32768", True),  # 4096 or 32768: the characters they share are known, not the value
    ]
    assert second.argv[-1].opaque  # the loop may not run: PORT from the environment


def test_a_launcher_prefix_in_a_variable_and_a_sourced_file(tmp_path: Path) -> None:
    write(tmp_path, "env.sh", "MODEL=Qwen/Qwen3-8B\nARGS=(--max-model-len 4096)\n")
    path = write(
        tmp_path,
        "run.sh",
        """\
        source ./env.sh
        PROFILE=""
        if [ -n "$NSYS" ]; then PROFILE="nsys profile -o /tmp/p"; fi
        $PROFILE vllm serve "$MODEL" "${ARGS[@]}"
        """,
    )
    [inv] = launches(path)
    assert [t.text for t in inv.argv] == ["Qwen/Qwen3-8B", "--max-model-len", "4096"]
    model, flag, _value = inv.argv
    assert (model.span.path, model.span.line) == (str(path), 4)  # a value: where it is used
    assert (flag.span.path, flag.span.line) == (
        str(tmp_path / "env.sh"),
        2,
    )  # a word: where written
