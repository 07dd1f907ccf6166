"""Readers that find vLLM server invocations in one kind of file each."""
