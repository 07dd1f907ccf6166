"""Rule behaviour that a rule's own examples cannot show because vLLM would refuse the launch
for another reason on the oracle's models (docs/conformance.md): checked against the linter only."""

from __future__ import annotations

import pytest

from vllm_lint.pipeline import check_command_line


@pytest.mark.parametrize("release", ["0.23.0", "0.33.0", "0.34.0"])
def test_allow_deprecated_quantization_silences_vl321(release: str) -> None:
    # an FBGEMM FP8 checkpoint is what vLLM accepts here; Llama 3.1 8B has no such config
    # (vllm/model_executor/model_loader/weight_utils.py:368 in 0.33), so no rule example uses it
    line = "meta-llama/Llama-3.1-8B-Instruct --quantization fbgemm_fp8"
    assert "VL321" in {f.rule for f in check_command_line(line, release)}
    allowed = {
        f.rule for f in check_command_line(line + " --allow-deprecated-quantization", release)
    }
    assert "VL321" not in allowed
