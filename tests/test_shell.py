"""The shell lexer: words, positions, quoting, separators and expansions."""

from __future__ import annotations

from vllm_lint.files.textpos import FilePositions
from vllm_lint.read.shell import Lexer
from vllm_lint.sources.programs import server_args


def lex(text: str, **variables: str) -> list[list[tuple[str, int, int, bool]]]:
    lexer = Lexer(text, FilePositions("f.sh", text), variables)
    return [
        [(w.text, w.span.line, w.span.col, w.opaque) for w in command.words]
        for command in lexer.commands()
    ]


def test_words_keep_line_and_column_across_continuations() -> None:
    script = "vllm serve m \\\n  --use-replayssm \\\n  --max-model-len 4096\n"
    assert lex(script) == [
        [
            ("vllm", 1, 1, False),
            ("serve", 1, 6, False),
            ("m", 1, 12, False),
            ("--use-replayssm", 2, 3, False),
            ("--max-model-len", 3, 3, False),
            ("4096", 3, 19, False),
        ]
    ]


def test_quotes_join_and_keep_json_intact() -> None:
    [[*_, flag, value]] = lex("""vllm serve m --speculative-config '{"method": "ngram"}'""")
    assert flag[0] == "--speculative-config"
    assert value[0] == '{"method": "ngram"}'
    assert value[2] == 36  # the quote is at column 35; the value starts after it


def test_double_quotes_escape_and_expand() -> None:
    [[word]] = lex('"a \\"b\\" $X"', X="1")
    assert word[0] == 'a "b" 1'


def test_separators_comments_and_redirections() -> None:
    commands = lex("cd /app && exec vllm serve m > /tmp/log 2>&1 & # trailing\necho done; true")
    assert [c[0][0] for c in commands] == ["cd", "exec", "echo", "true"]
    assert [w[0] for w in commands[1]] == ["exec", "vllm", "serve", "m"]


def test_unknown_and_command_substitutions_are_opaque() -> None:
    [[*_, a, b]] = lex("vllm serve m $EXTRA $(cat args)")
    assert a == ("$EXTRA", 1, 14, True)
    assert b[0] == "$(cat args)" and b[3] is True


def test_script_assignments_resolve_later_words_and_split_unquoted() -> None:
    commands = lex('ARGS="--a 1"\nTP=4\nvllm serve m $ARGS -tp "$TP"\n')
    assert [w[0] for w in commands[0]] == ["vllm", "serve", "m", "--a", "1", "-tp", "4"]


def test_kubelet_variables_are_substituted_before_the_shell() -> None:
    text = "vllm serve $(MODEL) --port $(PORT)"
    lexer = Lexer(text, FilePositions("p", text), {}, {"MODEL": "org/m"})
    [command] = list(lexer.commands())
    assert [(w.text, w.opaque) for w in command.words] == [
        ("vllm", False),
        ("serve", False),
        ("org/m", False),
        ("--port", False),
        ("$(PORT)", True),
    ]


def test_server_args_after_env_prefix_and_wrappers() -> None:
    text = "VLLM_USE_V1=1 exec nohup python3 -u -m vllm.entrypoints.openai.api_server --model m"
    [command] = list(Lexer(text, FilePositions("p", text)).commands())
    found = server_args(command.words)
    assert found is not None
    start, env = found
    assert [w.text for w in command.words[start:]] == ["--model", "m"]
    assert list(env) == ["VLLM_USE_V1"]


def test_not_a_server() -> None:
    text = "python3 -m http.server; vllm --version; echo vllm serve"
    commands = list(Lexer(text, FilePositions("p", text)).commands())
    assert all(server_args(c.words) is None for c in commands)
