from vllm_lint.cli import run

run()
