#!/bin/bash
docker run --gpus all -p 8000:8000 %IMAGE% --model org/m --max-model-len 4096
