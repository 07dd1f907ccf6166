#!/bin/sh
# FlexibleArgumentParser (vllm/utils.py, 0.5.1+) reads --max_model_len as --max-model-len;
# 0.5.0 parses with argparse.ArgumentParser, which knows no such option
python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --max_model_len 4096
