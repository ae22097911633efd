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


if __name__ == "__main__":
    unittest.main()
