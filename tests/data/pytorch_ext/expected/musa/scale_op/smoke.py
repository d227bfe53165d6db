# Checks the op against PyTorch on cuda; skip when no GPU.
import pytest
import torch
import torch_musa

import scale_op._C as ops

requires_gpu = pytest.mark.skipif(not torch.musa.is_available(), reason="needs cuda")


@requires_gpu
def test_scale(device="musa:0"):
    torch.backends.cudnn.deterministic = True
    x = torch.randn(1000, device=device)
    y = ops.scale(x.musa(), 2.0)
    assert y.is_cuda
    torch.testing.assert_close(y, 2.0 * x.to("musa"))
    print("ran on cuda")  # prose, not a device string
