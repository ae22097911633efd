"""The Python package on a GPU, against torch: the four flagship kernels of
examples/ (matmul, softmax, gelu, conv2d) on torch tensors, argument
specialization, other array producers, a Triton kernel from its Python
source (given a signature, and typed by torch tensors), non-default
streams, CUDA graph capture with 100 replays equal to eager launches, a
torch.library custom op under torch.compile, autotune over matmul configs
(the function and the decorators), the interpreter on NumPy arrays against
the GPU, and the Python launch overhead next to Triton's, measured the same
way in the same process (the medians are printed).

    pip install --no-deps --no-index dist/tilec-*.whl
    python3 -m pytest -s test/python/gpu
    python3 -m unittest discover -s test/python/gpu     # without pytest

Needs torch with CUDA; Triton only for the overhead comparison.
TILEC_OVERHEAD_LIMIT_US (default 10) is the bound on tilec's median.
"""

import os
import statistics
import tempfile
import time
import unittest
from pathlib import Path

try:
    import torch
except ImportError:  # pragma: no cover - not a GPU machine
    torch = None

import tilec

try:
    import triton
    import triton.language as tl
except Exception:  # noqa: BLE001 - only the overhead comparison needs it
    triton = None

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
VECTOR_ADD_PY = ROOT / "test" / "Frontend" / "Inputs" / "python" / "vector_add.py"
HAS_GPU = torch is not None and torch.cuda.is_available()

# Every compile of this run goes to a fresh cache.
os.environ.setdefault("TILEC_CACHE_DIR", tempfile.mkdtemp(prefix="tilec-gpu-cache-"))


def cdiv(a, b):
    return (a + b - 1) // b


@unittest.skipUnless(HAS_GPU, "needs torch with a CUDA GPU")
class FlagshipTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)

    def test_matmul(self):
        k = tilec.compile(EXAMPLES / "matmul.tile", kernel="matmul")
        bm, bn = k.constexprs["BLOCK_M"], k.constexprs["BLOCK_N"]
        for m, n, kk in [(512, 512, 256), (500, 300, 200)]:
            a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
            b = torch.randn(kk, n, device="cuda", dtype=torch.float16)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
            grid = (cdiv(m, bm) * cdiv(n, bn),)
            k[grid](c, a, b, m, n, kk, *a.stride(), *b.stride(), *c.stride())
            ref = a.float() @ b.float()
            torch.testing.assert_close(c, ref, atol=2e-2, rtol=1e-2)
        self.assertGreaterEqual(k.num_variants, 2)

    def test_softmax(self):
        k = tilec.compile(EXAMPLES / "softmax.tile", constexprs={"BLOCK": 1024})
        for rows, cols in [(256, 1000), (64, 1024), (7, 1)]:
            x = torch.randn(rows, cols, device="cuda")
            y = torch.empty_like(x)
            k[(rows,)](y, x, x.stride(0), y.stride(0), cols)
            torch.testing.assert_close(y, torch.softmax(x, dim=1), atol=1e-6, rtol=1e-5)

    def test_gelu(self):
        k = tilec.compile(EXAMPLES / "gelu.tile", constexprs={"BLOCK": 1024})
        for n in (100_000, 4096, 1):
            x = torch.randn(n, device="cuda", dtype=torch.float16)
            y = torch.empty_like(x)
            k[lambda meta: (cdiv(meta["n"], meta["BLOCK"]),)](y, x, n)
            ref = torch.nn.functional.gelu(x.float(), approximate="tanh").half()
            torch.testing.assert_close(y, ref, atol=2e-3, rtol=2e-3)

    def test_conv2d(self):
        k = tilec.compile(EXAMPLES / "conv2d.tile")
        n, h, w, c, kk, r, s = 2, 16, 16, 32, 64, 3, 3
        stride, pad = 1, 1
        p = (h + 2 * pad - r) // stride + 1
        q = (w + 2 * pad - s) // stride + 1
        x = torch.randn(n, h, w, c, device="cuda", dtype=torch.float16)
        wt = torch.randn(kk, r, s, c, device="cuda", dtype=torch.float16)
        out = torch.empty(n, p, q, kk, device="cuda", dtype=torch.float32)
        bm, bn = k.constexprs["BLOCK_M"], k.constexprs["BLOCK_N"]
        grid = (cdiv(n * p * q, bm), cdiv(kk, bn))
        k[grid](out, x, wt, n, h, w, c, kk, p, q, stride, stride, pad, pad)
        ref = torch.nn.functional.conv2d(
            x.permute(0, 3, 1, 2).float(), wt.permute(0, 3, 1, 2).float(), stride=1, padding=1
        ).permute(0, 2, 3, 1)
        torch.testing.assert_close(out, ref, atol=5e-2, rtol=1e-2)


@unittest.skipUnless(HAS_GPU, "needs torch with a CUDA GPU")
class LaunchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.gelu = tilec.compile(EXAMPLES / "gelu.tile", constexprs={"BLOCK": 1024})
        cls.softmax = tilec.compile(EXAMPLES / "softmax.tile", constexprs={"BLOCK": 1024})

    def gelu_ref(self, x):
        return torch.nn.functional.gelu(x.float(), approximate="tanh").half()

    def test_unaligned_views(self):
        x = torch.randn(10_001, device="cuda", dtype=torch.float16)
        y = torch.zeros_like(x)
        self.gelu[(cdiv(10_000, 1024),)](y[1:], x[1:], 10_000)  # 2-byte offsets
        torch.testing.assert_close(y[1:], self.gelu_ref(x[1:]), atol=2e-3, rtol=2e-3)
        self.assertEqual(y[0].item(), 0.0)

    def test_other_producers(self):
        x = torch.randn(4096, device="cuda", dtype=torch.float16)
        y = torch.empty_like(x)

        class ArrayInterface:
            def __init__(self, t):
                self.__cuda_array_interface__ = t.__cuda_array_interface__

        class DLPack:
            def __init__(self, t):
                self.t = t

            def __dlpack__(self, stream=None):
                return self.t.__dlpack__()

            def __dlpack_device__(self):
                return self.t.__dlpack_device__()

        self.gelu[(4,)](ArrayInterface(y), DLPack(x), 4096)
        torch.testing.assert_close(y, self.gelu_ref(x), atol=2e-3, rtol=2e-3)
        y.zero_()
        self.gelu[(4,)](y.data_ptr(), x.data_ptr(), 4096)  # raw addresses
        torch.testing.assert_close(y, self.gelu_ref(x), atol=2e-3, rtol=2e-3)
        try:
            import cupy
        except ImportError:
            return
        cx = cupy.asarray(x)
        cy = cupy.empty_like(cx)
        self.gelu[(4,)](cy, cx, 4096)
        torch.cuda.synchronize()
        torch.testing.assert_close(
            torch.as_tensor(cy, device="cuda"), self.gelu_ref(x), atol=2e-3, rtol=2e-3
        )

    def test_triton_python_kernel(self):
        k = tilec.compile(VECTOR_ADD_PY, signature="*fp32, *fp32, *fp32, i32, 1024")
        x = torch.rand(98_432, device="cuda")
        y = torch.rand(98_432, device="cuda")
        out = torch.empty_like(x)
        k[(cdiv(x.numel(), 1024),)](x, y, out, x.numel())
        torch.testing.assert_close(out, x + y)

    def test_jit_typed_by_torch_tensors(self):
        # The unmodified tutorial file, typed by its arguments (tilec.JITFunction),
        # f32 then f16 (two signatures), ragged n (a specialization variant).
        add = tilec.JITFunction(str(VECTOR_ADD_PY), "add_kernel")
        for dtype in (torch.float32, torch.float16):
            for n in (98_432, 1_000):
                x = torch.rand(n, device="cuda", dtype=dtype)
                y = torch.rand(n, device="cuda", dtype=dtype)
                out = torch.empty_like(x)
                add[lambda meta: (cdiv(meta["n_elements"], meta["BLOCK_SIZE"]),)](
                    x, y, out, n, BLOCK_SIZE=1024
                )
                torch.testing.assert_close(out, x + y)
        self.assertEqual(add.num_kernels, 2)

    def test_dependent_launch(self):
        # launch_pdl=True: each kernel gdc_wait()s for the previous one's
        # writes; a chain of 20 dependent launches on one stream.
        import importlib.util

        spec = importlib.util.spec_from_file_location(
            "jit_kernels", ROOT / "test" / "python" / "Inputs" / "jit_kernels.py"
        )
        kernels = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(kernels)
        n = 1_000_003
        y = torch.rand(n, device="cuda")
        acc = [torch.zeros(n, device="cuda"), torch.empty(n, device="cuda")]
        for i in range(20):
            kernels.add_dependent[(cdiv(n, 1024),)](
                acc[i % 2], y, acc[(i + 1) % 2], n, BLOCK_SIZE=1024, launch_pdl=True
            )
        torch.testing.assert_close(acc[0], 20 * y, rtol=1e-5, atol=1e-5)

    def test_non_default_stream(self):
        s = torch.cuda.Stream()
        x = torch.randn(512, 1000, device="cuda")
        y = torch.empty_like(x)
        torch.cuda.synchronize()
        with torch.cuda.stream(s):
            x2 = x * 2  # made on s: the kernel must run after it, on s
            self.softmax[(512,)](y, x2, x2.stride(0), y.stride(0), 1000)
        s.synchronize()
        torch.testing.assert_close(y, torch.softmax(x * 2, dim=1), atol=1e-6, rtol=1e-5)
        # The same with an explicit stream= (a torch stream and a raw handle).
        z = torch.empty_like(x)
        with torch.cuda.stream(s):
            x3 = x * 3
        self.softmax[(512,)](z, x3, x3.stride(0), z.stride(0), 1000, stream=s)
        s.synchronize()
        torch.testing.assert_close(z, torch.softmax(x * 3, dim=1), atol=1e-6, rtol=1e-5)
        self.softmax[(512,)](z, x, x.stride(0), z.stride(0), 1000, stream=s.cuda_stream)
        s.synchronize()
        torch.testing.assert_close(z, torch.softmax(x, dim=1), atol=1e-6, rtol=1e-5)

    def test_graph_capture_and_replay(self):
        rows, cols = 128, 1000
        x = torch.randn(rows, cols, device="cuda", dtype=torch.float16)
        h = torch.empty_like(x)
        y = torch.empty(rows, cols, device="cuda")
        hf = torch.empty(rows, cols, device="cuda")

        def step():
            self.gelu[(cdiv(rows * cols, 1024),)](h, x, rows * cols)
            hf.copy_(h)
            self.softmax[(rows,)](y, hf, hf.stride(0), y.stride(0), cols)

        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # warm-up: compiles and loads the variants
            step()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            step()
        for i in range(100):
            x.copy_(torch.randn(rows, cols, device="cuda", dtype=torch.float16))
            graph.replay()
            replayed = y.clone()
            step()  # eager, same inputs
            self.assertTrue(torch.equal(replayed, y), "replay %d differs from eager" % i)
        torch.testing.assert_close(
            y, torch.softmax(self.gelu_ref(x).float(), dim=1), atol=1e-5, rtol=1e-4
        )


@unittest.skipUnless(HAS_GPU, "needs torch with a CUDA GPU")
class CustomOpTest(unittest.TestCase):
    """examples/python/softmax_custom_op.py: a tilec kernel as a
    torch.library custom op, eager and under torch.compile."""

    def test_custom_op_under_torch_compile(self):
        import importlib.util

        path = EXAMPLES / "python" / "softmax_custom_op.py"
        spec = importlib.util.spec_from_file_location("softmax_custom_op", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        torch.manual_seed(0)
        x = torch.randn(300, 777, device="cuda")
        ref = torch.softmax(x * 2.0, dim=1) + 1.0

        def model(t):
            return torch.ops.tilec.softmax(t * 2.0) + 1.0

        torch.testing.assert_close(model(x), ref, atol=1e-6, rtol=1e-5)
        compiled = torch.compile(model, fullgraph=True)
        torch.testing.assert_close(compiled(x), ref, atol=1e-6, rtol=1e-5)


@unittest.skipUnless(HAS_GPU, "needs torch with a CUDA GPU")
class AutotuneTest(unittest.TestCase):
    def test_matmul_configs(self):
        m = n = kk = 1024
        a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
        b = torch.randn(kk, n, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float32)
        configs = [
            tilec.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=8),
            tilec.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32}, num_warps=4),
            tilec.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4),
        ]

        def grid(meta):
            return (cdiv(m, meta["BLOCK_M"]) * cdiv(n, meta["BLOCK_N"]),)

        args = (c, a, b, m, n, kk, *a.stride(), *b.stride(), *c.stride())
        best = tilec.autotune(
            EXAMPLES / "matmul.tile", configs, grid, *args, kernel="matmul", key="1024^3"
        )
        self.assertIn(best.constexprs["BLOCK_M"], (64, 128))
        c.zero_()
        best[grid](*args)
        torch.testing.assert_close(c, a.float() @ b.float(), atol=2e-2, rtol=1e-2)
        again = tilec.autotune(
            EXAMPLES / "matmul.tile", configs, grid, *args, kernel="matmul", key="1024^3"
        )
        self.assertEqual(again.constexprs, best.constexprs)

    def test_decorators(self):
        # @tilec.autotune + @tilec.heuristics + @tilec.jit (test/python/Inputs).
        import importlib.util

        spec = importlib.util.spec_from_file_location(
            "jit_kernels", ROOT / "test" / "python" / "Inputs" / "jit_kernels.py"
        )
        kernels = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(kernels)
        for n in (100_000, 65_536):
            x = torch.randn(n, device="cuda")
            out = torch.full((n + 128,), -1.0, device="cuda")
            kernels.scale[lambda meta: (cdiv(n, meta["BLOCK"]),)](x, out, n, 0.5)
            torch.testing.assert_close(out[:n], x * 0.5)
            self.assertTrue(bool((out[n:] == -1).all()))
        self.assertEqual(len(kernels.scale.cache), 2)
        # A Triton file's own @triton.autotune / @triton.heuristics.
        bias_add = tilec.JITFunction.from_file(
            str(ROOT / "test" / "python" / "Inputs" / "triton_decorated.py"), "bias_add"
        )
        x = torch.randn(5000, device="cuda")
        bias = torch.randn(5000, device="cuda")
        for b in (bias, None):
            out = torch.empty_like(x)
            bias_add[lambda meta: (cdiv(5000, meta["BLOCK"]),)](x, b, out, 5000)
            torch.testing.assert_close(out, x + (0 if b is None else b) + 8192)


@unittest.skipUnless(HAS_GPU, "needs torch with a CUDA GPU")
class DotScaledTest(unittest.TestCase):
    def test_mxfp_matmul(self):
        # tl.dot_scaled (e2m1 x e4m3, e8m0 scales) in a K loop, ragged M/N:
        # test/gpu/dot.tile's mm_mxfp on torch tensors, against float64.
        k = tilec.compile(ROOT / "test" / "gpu" / "dot.tile", kernel="mm_mxfp")
        M, N, K = 133, 70, 192
        g = torch.Generator().manual_seed(0)
        codes = torch.randint(0, 16, (M, K), generator=g, dtype=torch.uint8)
        a = codes[:, 0::2] | (codes[:, 1::2] << 4)
        table = torch.tensor([0, 0.5, 1, 1.5, 2, 3, 4, 6], dtype=torch.float64)
        a64 = table[(codes & 7).long()] * torch.where(codes & 8 > 0, -1.0, 1.0).double()
        sign = torch.randint(0, 2, (K, N), generator=g)
        exponent = torch.randint(2, 15, (K, N), generator=g)
        mantissa = torch.randint(0, 8, (K, N), generator=g)
        b = ((sign << 7) | (exponent << 3) | mantissa).to(torch.uint8)
        b64 = (1 + mantissa.double() / 8) * torch.pow(2.0, exponent.double() - 7)
        b64 = torch.where(sign > 0, -b64, b64)
        sa = torch.randint(120, 135, (M, K // 32), generator=g, dtype=torch.uint8)
        sb = torch.randint(120, 135, (N, K // 32), generator=g, dtype=torch.uint8)
        fa = torch.pow(2.0, sa.double() - 127).repeat_interleave(32, dim=1)
        fb = torch.pow(2.0, sb.double() - 127).repeat_interleave(32, dim=1).T
        ref = (a64 * fa) @ (b64 * fb)
        c = torch.full((M, N), float("nan"), device="cuda")
        k[(cdiv(M, 64), cdiv(N, 64))](c, a.cuda(), sa.cuda(), b.cuda(), sb.cuda(), M, N, K)
        torch.testing.assert_close(c.double().cpu(), ref, rtol=1e-5, atol=1e-5 * ref.abs().max())


@unittest.skipUnless(HAS_GPU, "needs torch with a CUDA GPU")
class InterpretTest(unittest.TestCase):
    def test_interpreter_matches_the_gpu(self):
        try:
            import numpy as np
        except ImportError:
            self.skipTest("needs numpy")
        k = tilec.compile(EXAMPLES / "softmax.tile", constexprs={"BLOCK": 1024})
        x = torch.randn(16, 1000, device="cuda")
        y = torch.empty_like(x)
        k[(16,)](y, x, 1000, 1000, 1000)
        xh = x.cpu().numpy()
        yh = np.zeros_like(xh)
        k.interpret((16,), yh, xh, 1000, 1000, 1000)
        np.testing.assert_allclose(yh, y.cpu().numpy(), rtol=1e-5, atol=1e-7)


if triton is not None:

    @triton.jit
    def _triton_add(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
        """vector_add.tile in Triton, for the launch overhead comparison."""
        offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_elements
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, x + y, mask=mask)


def _median_launch_us(launches, batch=100, repeats=101):
    """Per launch function of `launches`: the median over `repeats` of the
    mean host time of `batch` launches, the functions measured in turn
    within each repeat (so that a slow moment of the machine hits all of
    them alike). Batches stay well below the driver's launch queue depth,
    and the GPU drains between batches, so no launch waits for a queue
    slot."""
    for launch in launches:
        for _ in range(100):
            launch()
    torch.cuda.synchronize()
    samples = [[] for _ in launches]
    for _ in range(repeats):
        for launch, out in zip(launches, samples):
            start = time.perf_counter()
            for _ in range(batch):
                launch()
            out.append((time.perf_counter() - start) / batch * 1e6)
            torch.cuda.synchronize()
    return [statistics.median(s) for s in samples]


@unittest.skipUnless(HAS_GPU, "needs torch with a CUDA GPU")
class OverheadTest(unittest.TestCase):
    def test_launch_overhead_vs_triton(self):
        n = 1024
        x = torch.rand(n, device="cuda")
        y = torch.rand(n, device="cuda")
        out = torch.empty_like(x)
        k = tilec.compile(EXAMPLES / "vector_add.tile", constexprs={"BLOCK": 1024})
        launches = [lambda: k[(1,)](out, x, y, n)]
        if triton is not None:
            launches.append(lambda: _triton_add[(1,)](x, y, out, n, BLOCK_SIZE=1024))
        times = _median_launch_us(launches)
        tilec_us = times[0]
        torch.testing.assert_close(out, x + y)
        line = "launch overhead (median host us per launch): tilec %.2f" % tilec_us
        if triton is not None:
            line += ", triton %s %.2f" % (triton.__version__, times[1])
        else:
            line += ", triton not installed"
        print("\n" + line)
        limit = float(os.environ.get("TILEC_OVERHEAD_LIMIT_US", "10"))
        self.assertLessEqual(tilec_us, limit, line)


if __name__ == "__main__":
    unittest.main()
