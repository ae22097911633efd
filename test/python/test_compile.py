"""tilec.compile without a GPU: PTX, metadata, variants, the disk cache and
errors (test/python/python.test runs it with unittest)."""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import tilec

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
VECTOR_ADD_PY = ROOT / "test" / "Frontend" / "Inputs" / "python" / "vector_add.py"
CONFORMANCE = ROOT / "test" / "conformance" / "kernels"

SCALE = """\
@kernel(num_warps=4)
def scale(out: *f32, x: *f32, alpha: f32, n: i32, BLOCK: constexpr, FLIP: constexpr = False):
    offs = program_id(0) * BLOCK + arange(0, BLOCK)
    v = load(x + offs, mask=offs < n) * alpha
    store(out + offs, v, mask=offs < n)
"""


class CompileTest(unittest.TestCase):
    def test_file_to_ptx(self):
        k = tilec.compile(
            EXAMPLES / "softmax.tile", constexprs={"BLOCK": 1024}, arch="sm_80", cache_dir=""
        )
        self.assertEqual(k.name, "softmax")
        self.assertIn(".target sm_80", k.ptx)
        self.assertIn(".visible .entry softmax(", k.ptx)
        self.assertEqual(k.arch, "sm_80")
        self.assertEqual(k.params[0], ("out", "*f32"))
        self.assertEqual(k.metadata["constexprs"], {"BLOCK": 1024})
        self.assertIn("softmax(out: *f32", k.signature)

    def test_line_info(self):
        args = dict(constexprs={"BLOCK": 1024}, arch="sm_90a", cache_dir="")
        plain = tilec.compile(EXAMPLES / "softmax.tile", **args)
        lines = tilec.compile(EXAMPLES / "softmax.tile", line_info=True, **args)
        self.assertNotIn(".loc", plain.ptx)
        self.assertIn("\t.loc\t1 10 11", lines.ptx)  # num = exp(z)
        self.assertIn(str(EXAMPLES / "softmax.tile"), lines.ptx)

    def test_same_ptx_whatever_was_compiled_before(self):
        # Tutorial 06's attention (its K/V through bulk tensor copies, whose
        # offsets were summed in the order of their atoms' addresses) gave
        # other PTX after tutorial 09's persistent matmul in one process
        # than in a fresh one.
        attention = (
            "tilec.compile(%r, kernel='_attn_fwd', signature='fp32, *fp32:16, i32, i32, "
            "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, 64, 128, 64, False, 1, False, "
            "True', num_warps=4, num_stages=2, arch='sm_90a', cache_dir='').ptx"
            % str(CONFORMANCE / "triton_tutorial_06_fused_attention.py")
        )
        matmul = (
            "tilec.compile(%r, kernel='matmul_kernel_persistent', signature='*fp16:16, "
            "*fp16:16, *fp16:16, i32, i32, i32, i32, i32:1, i32:1, i32, i32, i32:1, 128, 128, "
            "64, 8, 132', num_warps=4, num_stages=3, arch='sm_90a', cache_dir='')"
            % str(CONFORMANCE / "triton_tutorial_09_persistent_matmul.py")
        )

        def run(code):
            return subprocess.run(
                [sys.executable, "-B", "-c", "import tilec\n" + code],
                capture_output=True,
                text=True,
                check=True,
            ).stdout

        alone = run("print(%s)" % attention)
        after = run("%s\nprint(%s)" % (matmul, attention))
        self.assertIn(".entry _attn_fwd", alone)
        self.assertEqual(after, alone)

    def test_string_path_and_kernel_choice(self):
        path = str(EXAMPLES / "matmul.tile")
        k = tilec.compile(path, kernel="matmul", arch="sm_90a", num_warps=8, cache_dir="")
        self.assertEqual(k.num_warps, 8)
        self.assertGreater(k.shared_bytes, 0)

    def test_source_text(self):
        k = tilec.compile(SCALE, constexprs={"BLOCK": 256, "FLIP": True}, cache_dir="")
        self.assertEqual(k.name, "scale")
        self.assertEqual([t for _, t in k.params], ["*f32", "*f32", "f32", "i32"])
        self.assertEqual(k.constexprs, {"BLOCK": 256, "FLIP": True})
        k = tilec.compile(SCALE, constexprs={"BLOCK": 256}, cache_dir="")
        self.assertEqual(k.constexprs, {"BLOCK": 256, "FLIP": False})  # defaults too

    def test_several_kernels_need_a_name(self):
        text = SCALE + "\n" + SCALE.replace("def scale", "def scale2")
        with self.assertRaisesRegex(ValueError, "several kernels.*scale, scale2"):
            tilec.compile(text, constexprs={"BLOCK": 256}, cache_dir="")
        k = tilec.compile(text, kernel="scale2", constexprs={"BLOCK": 256}, cache_dir="")
        self.assertEqual(k.name, "scale2")

    def test_triton_python_kernel(self):
        k = tilec.compile(
            VECTOR_ADD_PY, signature="*fp32, *fp32, *fp32, i32, 1024", arch="sm_80", cache_dir=""
        )
        self.assertEqual(k.name, "add_kernel")
        self.assertEqual(len(k.params), 4)
        self.assertIn(".visible .entry add_kernel(", k.ptx)

    def test_variants(self):
        k = tilec.compile(SCALE, constexprs={"BLOCK": 256}, arch="sm_80", cache_dir="")
        params = {p["name"]: p for p in k.variant("AA-D").metadata["params"]}
        self.assertEqual(params["n"].get("divisibility"), 16)
        self.assertEqual(params["out"].get("divisibility"), 16)
        params = {p["name"]: p for p in k.variant("-A-U").metadata["params"]}
        self.assertTrue(params["n"].get("equal_to_1"))
        self.assertNotIn("divisibility", params["out"])
        with self.assertRaisesRegex(ValueError, "specialization key 'AA' has 2 characters"):
            k.variant("AA")

    def test_disk_cache(self):
        with tempfile.TemporaryDirectory() as cache:
            k = tilec.compile(SCALE, constexprs={"BLOCK": 128}, arch="sm_80", cache_dir=cache)
            entries = [f for f in os.listdir(cache) if f.endswith(".tkc")]
            self.assertEqual(len(entries), 1)
            again = tilec.compile(SCALE, constexprs={"BLOCK": 128}, arch="sm_80", cache_dir=cache)
            self.assertEqual(k.ptx, again.ptx)


class ErrorTest(unittest.TestCase):
    def test_compile_error_location(self):
        bad = "@kernel\ndef bad(out: *f32):\n    x = undefined_name + 1\n"
        with self.assertRaises(tilec.CompileError) as caught:
            tilec.compile(bad, name="bad.tile", cache_dir="")
        error = caught.exception
        self.assertEqual((error.file, error.line, error.column), ("bad.tile", 3, 9))
        self.assertEqual(error.message, "unknown name 'undefined_name'")
        self.assertIn("^", str(error))

    def test_constexpr_error(self):
        with self.assertRaisesRegex(tilec.CompileError, "NOPE"):
            tilec.compile(SCALE, constexprs={"BLOCK": 128, "NOPE": 1}, cache_dir="")

    def test_bad_options(self):
        with self.assertRaisesRegex(ValueError, "unknown target 'sm_70'"):
            tilec.compile(SCALE, constexprs={"BLOCK": 128}, arch="sm_70", cache_dir="")
        with self.assertRaisesRegex(ValueError, "num_warps = 3"):
            tilec.compile(SCALE, constexprs={"BLOCK": 128}, num_warps=3, cache_dir="")
        with self.assertRaisesRegex(TypeError, "constexpr BLOCK"):
            tilec.compile(SCALE, constexprs={"BLOCK": "big"}, cache_dir="")

    def test_missing_file(self):
        with self.assertRaises((FileNotFoundError, ValueError)):
            tilec.compile("no/such/kernel.tile", kernel="k", cache_dir="")

    def test_no_gpu(self):
        if tilec.cuda_available():
            self.skipTest("a CUDA driver is present")
        k = tilec.compile(SCALE, constexprs={"BLOCK": 128}, cache_dir="")
        self.assertEqual(k.arch, "sm_90")
        with self.assertRaises(tilec.CudaError):
            k[(1,)](0, 0, 1.0, 16)


if __name__ == "__main__":
    unittest.main()
