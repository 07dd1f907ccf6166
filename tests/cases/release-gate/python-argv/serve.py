import subprocess

subprocess.run(["docker", "run", "--gpus", "all", "%IMAGE%", "--model", "org/m", "--max-model-len", "4096"])
