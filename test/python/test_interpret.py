"""tilec.interpret and Kernel.interpret on NumPy arrays (the float64
reference interpreter; no GPU). Skipped without numpy."""

import unittest
from pathlib import Path

import tilec

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
VECTOR_ADD_PY = ROOT / "test" / "Frontend" / "Inputs" / "python" / "vector_add.py"
DOT_SCALED_PY = Path(__file__).resolve().parent / "Inputs" / "dot_scaled.py"


def decode_e2m1(nibbles):
    """OCP e2m1 (fp4) codes 0..15 as float64."""
    magnitude = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6], np.float64)[nibbles & 7]
    return np.where(nibbles & 8, -magnitude, magnitude)


def decode_fp8(bits, exponent_bits, mantissa_bits):
    """OCP e4m3 (fn) / e5m2 bytes as float64 (finite codes only)."""
    bits = bits.astype(np.int64)
    bias = (1 << (exponent_bits - 1)) - 1
    e = (bits >> mantissa_bits) & ((1 << exponent_bits) - 1)
    m = (bits & ((1 << mantissa_bits) - 1)).astype(np.float64) / (1 << mantissa_bits)
    value = np.where(e == 0, m * 2.0 ** (1 - bias), (1 + m) * 2.0 ** (e - bias))
    return np.where(bits & 0x80, -value, value)


def finite_fp8(rng, shape, exponent_bits):
    """Random fp8 bytes of finite, moderate values (exponent field 2..max-1)."""
    mantissa_bits = 7 - exponent_bits
    e = rng.integers(2, (1 << exponent_bits) - 1, shape)
    m = rng.integers(0, 1 << mantissa_bits, shape)
    s = rng.integers(0, 2, shape)
    return ((s << 7) | (e << mantissa_bits) | m).astype(np.uint8)


@unittest.skipIf(np is None, "needs numpy")
class InterpretTest(unittest.TestCase):
    def test_softmax(self):
        x = np.random.default_rng(0).standard_normal((8, 1000)).astype(np.float32)
        y = np.zeros_like(x)
        tilec.interpret(
            EXAMPLES / "softmax.tile", y, x, 1000, 1000, 1000, grid=(8,), constexprs={"BLOCK": 1024}
        )
        e = np.exp(x - x.max(axis=1, keepdims=True))
        np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-6, atol=1e-7)

    def test_kernel_interpret_with_grid_function(self):
        k = tilec.compile(EXAMPLES / "gelu.tile", constexprs={"BLOCK": 256}, cache_dir="")
        x = np.linspace(-4, 4, 1000).astype(np.float16)
        y = np.zeros_like(x)
        k.interpret(lambda meta: ((meta["n"] + meta["BLOCK"] - 1) // meta["BLOCK"],), y, x, 1000)
        xf = x.astype(np.float64)
        ref = 0.5 * xf * (1 + np.tanh(0.7978845608028654 * (xf + 0.044715 * xf**3)))
        np.testing.assert_allclose(y.astype(np.float64), ref, atol=2e-3, rtol=2e-3)

    def test_triton_kernel(self):
        x = np.arange(3000, dtype=np.float32)
        y = np.ones(3000, dtype=np.float32)
        out = np.zeros(3000, dtype=np.float32)
        tilec.interpret(
            VECTOR_ADD_PY, x, y, out, 3000, grid=3, signature="*fp32, *fp32, *fp32, i32, 1024"
        )
        np.testing.assert_array_equal(out, x + 1)

    def test_errors(self):
        x = np.zeros(16, dtype=np.float64)
        with self.assertRaises(tilec.CompileError) as caught:
            tilec.interpret(EXAMPLES / "gelu.tile", x, x, 16, grid=1, constexprs={"BLOCK": 16})
        self.assertEqual(caught.exception.line, 13)
        self.assertIn("does not match the pointee type", str(caught.exception))
        with self.assertRaisesRegex(ValueError, "C-contiguous"):
            tilec.interpret(
                EXAMPLES / "gelu.tile",
                np.zeros((4, 4), np.float16).T,
                x,
                16,
                grid=1,
                constexprs={"BLOCK": 16},
            )
        with self.assertRaisesRegex(ValueError, "takes 3 runtime arguments, got 2"):
            tilec.interpret(EXAMPLES / "gelu.tile", x, x, grid=1, constexprs={"BLOCK": 16})


@unittest.skipIf(np is None, "needs numpy")
class DotScaledTest(unittest.TestCase):
    """tl.dot_scaled in every operand format, packing and scale form,
    against float64 NumPy: the operands upcast to bf16 (fp16 when a format
    is fp16), times 2^(scale - 127) per group of K, then a dot."""

    M, N, K, GROUP = 32, 16, 64, 32

    def operand(self, rng, fmt, rows, cols, pack_axis):
        """(storage array, pointer type, float64 values [rows, cols])."""
        if fmt == "e2m1":
            codes = rng.integers(0, 16, (rows, cols)).astype(np.uint8)
            low = np.take(codes, range(0, codes.shape[pack_axis], 2), axis=pack_axis)
            high = np.take(codes, range(1, codes.shape[pack_axis], 2), axis=pack_axis)
            return low | (high << 4), "*u8", decode_e2m1(codes)
        if fmt in ("e4m3", "e5m2"):
            exponent_bits = 4 if fmt == "e4m3" else 5
            bits = finite_fp8(rng, (rows, cols), exponent_bits)
            return bits, "*u8", decode_fp8(bits, exponent_bits, 7 - exponent_bits)
        values = rng.standard_normal((rows, cols))
        if fmt == "fp16":
            stored = values.astype(np.float16)
            return stored, "*fp16", stored.astype(np.float64)
        # bf16 as its uint16 bits: f32 values with 7 mantissa bits.
        f32 = (values.astype(np.float32).view(np.uint32) & 0xFFFF0000).view(np.float32)
        return (f32.view(np.uint32) >> 16).astype(np.uint16), "*u16", f32.astype(np.float64)

    def run_case(
        self,
        a_fmt,
        b_fmt,
        a_k_pack=True,
        b_k_pack=True,
        b_scaled=True,
        a_scale=None,
        fast_math=False,
    ):
        M, N, K, G = self.M, self.N, self.K, self.GROUP
        rng = np.random.default_rng(hash((a_fmt, b_fmt, a_k_pack, b_k_pack)) % 2**32)
        a, a_type, a_val = self.operand(rng, a_fmt, M, K, 1 if a_k_pack else 0)
        b, b_type, b_val = self.operand(rng, b_fmt, K, N, 0 if b_k_pack else 1)
        if a_scale is None:
            a_scale = rng.integers(124, 131, (M, K // G)).astype(np.uint8)
        b_scale = rng.integers(124, 131, (N, K // G)).astype(np.uint8)
        acc = rng.standard_normal((M, N)).astype(np.float32)
        c = np.full((M, N), 7.0, np.float32)
        sig = ", ".join(
            [a_type, "*u8", b_type, "*u8", "*fp32", "*fp32", '"%s"' % a_fmt, '"%s"' % b_fmt]
            + [str(d) for d in (a.shape + b.shape + (M, N, K // G))]
            + [str(bool(v)) for v in (a_k_pack, b_k_pack, b_scaled, fast_math)]
        )
        tilec.interpret(DOT_SCALED_PY, a, a_scale, b, b_scale, acc, c, grid=1, signature=sig)

        def factor(scale):
            scale = np.repeat(scale.astype(np.float64), G, axis=1)
            f = np.where(scale == 0, 0.0, 2.0 ** (scale - 127))
            return np.where(scale == 255, np.nan, f)

        a_ref = a_val * factor(a_scale)
        b_ref = b_val * factor(b_scale).T if b_scaled else b_val
        ref = a_ref @ b_ref + acc
        np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5 * np.abs(ref[~np.isnan(ref)]).max())
        return c

    def test_fp4_k_packed(self):
        self.run_case("e2m1", "e2m1")
        # One side alone: a swapped nibble order would not cancel out.
        self.run_case("e2m1", "e4m3")
        self.run_case("e5m2", "e2m1")

    def test_fp8_formats(self):
        self.run_case("e4m3", "e5m2")

    def test_bf16_bits_and_fp4_packed_along_n_unscaled(self):
        self.run_case("bf16", "e2m1", b_k_pack=False, b_scaled=False)

    def test_fp4_packed_along_m_with_fp16(self):
        # fp16 on either side makes fp16 the compute type.
        self.run_case("e2m1", "fp16", a_k_pack=False)

    def test_nan_and_zero_scales(self):
        scale = np.full((self.M, self.K // self.GROUP), 127, np.uint8)
        scale[3, 1] = 255  # row 3: NaN
        scale[5, 0] = 0  # row 5: its first group contributes nothing
        c = self.run_case("e4m3", "e4m3", a_scale=scale)
        self.assertTrue(np.isnan(c[3]).all())
        self.assertFalse(np.isnan(np.delete(c, 3, axis=0)).any())

    def test_errors(self):
        def compile_error(signature):
            with self.assertRaises(tilec.CompileError) as caught:
                tilec.compile(DOT_SCALED_PY, signature=signature, cache_dir="")
            return str(caught.exception)

        head = "*u8, *u8, *u8, *u8, *fp32, *fp32, "
        self.assertIn(
            "'lhs_format' of 'dot_scaled' must be one of",
            compile_error(
                head + '"e3m2", "e2m1", 32, 32, 32, 16, 32, 16, 2, True, True, True, False'
            ),
        )
        self.assertIn(
            "only e2m1 operands of 'dot_scaled' can be packed along a dimension other than K",
            compile_error(
                head + '"e4m3", "e4m3", 32, 64, 64, 16, 32, 16, 2, False, True, True, False'
            ),
        )
        self.assertIn(
            "'dot_scaled' operands must hold the same K",
            compile_error(
                head + '"e2m1", "e4m3", 32, 32, 32, 16, 32, 16, 2, True, True, True, False'
            ),
        )
        self.assertIn(
            "'lhs_scale' of 'dot_scaled' must be [M, K / group] = [32, 64 / group]; got [32, 128]",
            compile_error(
                head + '"e4m3", "e4m3", 32, 64, 64, 16, 32, 16, 128, True, True, True, False'
            ),
        )
        self.assertIn(
            "the lhs of 'dot_scaled' in bf16 format must hold bf16 or its bits as u16; got u8",
            compile_error(
                head + '"bf16", "e4m3", 32, 64, 64, 16, 32, 16, 2, True, True, True, False'
            ),
        )


@unittest.skipIf(np is None, "needs numpy")
class JITInterpretTest(unittest.TestCase):
    """@tilec.jit kernels typed by their arguments (Inputs/jit_kernels.py)."""

    def test_typed_by_arguments(self):
        import importlib.util

        spec = importlib.util.spec_from_file_location(
            "jit_kernels", Path(__file__).resolve().parent / "Inputs" / "jit_kernels.py"
        )
        kernels = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(kernels)
        self.assertIsInstance(kernels.add_kernel, tilec.JITFunction)
        x = np.arange(1000, dtype=np.float32)
        y = np.ones(1000, dtype=np.float32)
        out = np.zeros(1000, dtype=np.float32)
        kernels.add_kernel.interpret((4,), x, y, out, 1000, BLOCK_SIZE=256)
        np.testing.assert_array_equal(out, x + 2)
        # Another dtype is another signature.
        h = np.arange(100, dtype=np.float16)
        out16 = np.zeros(100, dtype=np.float16)
        kernels.add_kernel.interpret(lambda meta: (1,), h, h, out16, 100, BLOCK_SIZE=128)
        np.testing.assert_array_equal(out16, h * 3)
        # An int too big for i32 makes the scalar i64; a float is fp32.
        i64 = np.zeros(8, dtype=np.int64)
        kernels.fill.interpret((1,), i64, 2**40, 8, BLOCK=8)
        np.testing.assert_array_equal(i64, np.full(8, 2**40))
        f32 = np.zeros(8, dtype=np.float32)
        kernels.fill.interpret((1,), f32, 0.5, 8, BLOCK=8)
        np.testing.assert_array_equal(f32, np.full(8, 0.5, np.float32))
        # NumPy scalars are ints and floats, not arrays.
        self.assertEqual(tilec._jit.signature_entry(np.int64(3), "n"), "i32")
        self.assertEqual(tilec._jit.signature_entry(np.float64(0.5), "a"), "fp32")
        self.assertEqual(tilec._jit.signature_entry(np.zeros(2, np.int64), "p"), "*i64")
        # Compiling (no GPU needed): one Kernel per signature and constexprs.
        k = kernels.add_kernel.kernel(x, y, out, 4096, BLOCK_SIZE=1024)
        self.assertEqual(
            k.params,
            [("x_ptr", "*f32"), ("y_ptr", "*f32"), ("output_ptr", "*f32"), ("n_elements", "i32")],
        )
        self.assertEqual(k.constexprs["BLOCK_SIZE"], 1024)
        self.assertIs(kernels.add_kernel.kernel(x, y, out, 17, BLOCK_SIZE=1024), k)
        self.assertEqual(kernels.fill.kernel(f32, 0.5, 8, BLOCK=8).num_warps, 2)
        with self.assertRaisesRegex(TypeError, "cannot type argument 2"):
            kernels.add_kernel.kernel(x, "y", out, 8, BLOCK_SIZE=8)
        with self.assertRaisesRegex(TypeError, "add_kernel: missing argument 'n_elements'"):
            kernels.add_kernel.kernel(x, y, 8, BLOCK_SIZE=8)
        with self.assertRaisesRegex(TypeError, "add_kernel has no parameter 'BLOCK'"):
            kernels.add_kernel.kernel(x, y, out, 8, BLOCK=8)
        # @tilec.autotune / @tilec.heuristics over it: the interpreter runs
        # the first config, with the heuristic's constexpr.
        self.assertIsInstance(kernels.scale, tilec.Autotuner)
        for n in (1000, 1024):
            xs = np.arange(n, dtype=np.float32)
            ys = np.full(n + 64, -1, dtype=np.float32)
            kernels.scale.interpret(
                lambda meta: ((n + meta["BLOCK"] - 1) // meta["BLOCK"],), xs, ys, n, 0.5
            )
            np.testing.assert_array_equal(ys[:n], xs * 0.5)
            np.testing.assert_array_equal(ys[n:], -1)
        even = kernels.scale.kernel(xs, ys, 1024, 0.5)
        self.assertEqual((even.constexprs["BLOCK"], even.constexprs["EVEN"]), (64, True))
        self.assertEqual(even.num_warps, 2)
        # A Triton file's own decorators (evaluated, the file not run); a
        # None argument is a constexpr None, as in Triton.
        bias_add = tilec.JITFunction.from_file(
            str(Path(__file__).resolve().parent / "Inputs" / "triton_decorated.py"), "bias_add"
        )
        self.assertIsInstance(bias_add, tilec.Autotuner)
        self.assertIsInstance(bias_add.fn, tilec.Heuristics)
        xs = np.arange(100, dtype=np.float32)
        bias = np.full(100, 0.5, dtype=np.float32)
        for b, expected in ((bias, xs + 0.5 + 128), (None, xs + 128)):
            ys = np.zeros(100, dtype=np.float32)
            args = (xs, b, ys, 100) if b is not None else (xs, None, ys, 100)
            bias_add.interpret(lambda meta: ((100 + meta["BLOCK"] - 1) // meta["BLOCK"],), *args)
            np.testing.assert_array_equal(ys, expected)
        self.assertEqual(bias_add.kernel(xs, None, ys, 100).constexprs["BLOCK"], 32)
        # Constexprs may be positional, as in Triton.
        self.assertIs(kernels.add_kernel.kernel(x, y, out, 4096, 1024), k)
        # The compile behind it: a signature of the runtime parameters only.
        with self.assertRaises(tilec.CompileError) as caught:
            tilec.compile(
                kernels.add_kernel.source,
                kernel="add_kernel",
                constexprs={"BLOCK_SIZE": 8},
                signature="*fp32, *fp32, i32",
                signature_of="runtime",
            )
        self.assertIn(
            "'add_kernel' takes 4 run-time arguments (x_ptr, y_ptr, output_ptr, n_elements), "
            "the launch passed 3 (*fp32, *fp32, i32)",
            str(caught.exception),
        )


if __name__ == "__main__":
    unittest.main()
