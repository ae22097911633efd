"""A tilec kernel as a PyTorch custom operator, so that it works inside
``torch.compile``: ``torch.library.custom_op`` registers ``tilec::softmax``
(the launch of examples/softmax.tile on torch's current stream), and
``register_fake`` tells the compiler the shape and dtype of its result
without running it. Dynamo then keeps the op as one opaque call in the
graph instead of tracing into the launcher.

    python3 examples/python/softmax_custom_op.py   # needs torch with CUDA

test/python/gpu/test_gpu.py (CustomOpTest) runs it eagerly and under
torch.compile against torch.softmax.
"""

from pathlib import Path

import torch

import tilec

SOFTMAX = Path(__file__).resolve().parents[1] / "softmax.tile"
BLOCK = 1024  # the kernel handles rows of up to BLOCK columns
_kernel = None


def _softmax_kernel():
    global _kernel
    if _kernel is None:
        _kernel = tilec.compile(SOFTMAX, constexprs={"BLOCK": BLOCK})
    return _kernel


@torch.library.custom_op("tilec::softmax", mutates_args=())
def softmax(x: torch.Tensor) -> torch.Tensor:
    """Row-wise softmax of a 2-D float32 CUDA tensor (rows of up to 1024)."""
    if x.dim() != 2 or x.dtype != torch.float32 or not x.is_cuda:
        raise ValueError("tilec::softmax takes a 2-D float32 CUDA tensor")
    if x.shape[1] > BLOCK:
        raise ValueError("tilec::softmax: rows of at most %d columns" % BLOCK)
    x = x.contiguous()
    y = torch.empty_like(x)
    rows, cols = x.shape
    if rows:
        _softmax_kernel()[(rows,)](y, x, x.stride(0), y.stride(0), cols)
    return y


@softmax.register_fake
def _(x):
    return torch.empty_like(x)


def main():
    x = torch.randn(512, 1000, device="cuda")

    def model(t):
        return softmax(t * 2.0) + 1.0

    compiled = torch.compile(model)
    ref = torch.softmax(x * 2.0, dim=1) + 1.0
    torch.testing.assert_close(model(x), ref, atol=1e-6, rtol=1e-5)
    torch.testing.assert_close(compiled(x), ref, atol=1e-6, rtol=1e-5)
    print("tilec::softmax: eager and torch.compile match torch.softmax")


if __name__ == "__main__":
    main()
