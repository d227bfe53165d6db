# Checks the op against PyTorch on cuda; skip when no GPU.
import pytest
import torch

import scale_op._C as ops

requires_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs cuda")


@requires_gpu
def test_scale(device="cuda:0"):
    torch.backends.cudnn.deterministic = True
    x = torch.randn(1000, device=device)
    y = ops.scale(x.cuda(), 2.0)
    assert y.is_cuda
    torch.testing.assert_close(y, 2.0 * x.to("cuda"))
    print("ran on cuda")  # prose, not a device string
