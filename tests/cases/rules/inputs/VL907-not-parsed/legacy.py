# Python 2: the linter's `ast` does not read it, so its launch is not looked for
import os
print "starting vllm"
os.system("vllm serve Qwen/Qwen3-8B --swap-space 4")
