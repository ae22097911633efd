"""kernel[grid](*args) on the fake CUDA driver of the runtime's unit tests
(test/unit/Runtime/FakeCudaDriver.h): the whole launch path -- argument
packing, specialization variants, grids, streams, errors -- without a GPU.
python.test runs it with TILEC_CUDA_DRIVER pointing at libtilec_fake_cuda.so;
it skips itself otherwise."""

import ctypes
import os
import statistics
import struct
import time
import unittest

import tilec

FAKE = os.environ.get("TILEC_CUDA_DRIVER", "")

SCALE = """\
@kernel(num_warps=4)
def scale(out: *f32, x: *f32, alpha: f32, n: i32, flag: i1, big: u64, BLOCK: constexpr):
    offs = program_id(0) * BLOCK + arange(0, BLOCK)
    v = load(x + offs, mask=offs < n) * alpha
    store(out + offs, v, mask=offs < n)
"""


class FakeState(ctypes.Structure):
    _fields_ = [
        ("live", ctypes.c_long * 5),
        ("failedCalls", ctypes.c_long),
        ("launches", ctypes.c_long),
        ("grid", ctypes.c_uint * 3),
        ("block", ctypes.c_uint * 3),
        ("sharedBytes", ctypes.c_uint),
        ("numParams", ctypes.c_int),
        ("params", ctypes.c_uint64 * 32),
        ("kernel", ctypes.c_char * 64),
        ("moduleLoads", ctypes.c_long),
        ("lastMinCtasPerSM", ctypes.c_int),
        ("dependentLaunches", ctypes.c_long),
        ("lastLaunchDependent", ctypes.c_int),
    ]


def load_jit_kernels():
    """A fresh import of Inputs/jit_kernels.py (its JITFunctions unused)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "jit_kernels", Path(__file__).resolve().parent / "Inputs" / "jit_kernels.py"
    )
    kernels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kernels)
    return kernels


class CudaArray:
    """A minimal __cuda_array_interface__ producer."""

    def __init__(self, address):
        self.__cuda_array_interface__ = {
            "data": (address, False),
            "shape": (16,),
            "typestr": "<f4",
            "version": 3,
        }


@unittest.skipUnless("fake_cuda" in FAKE, "needs TILEC_CUDA_DRIVER=libtilec_fake_cuda.so")
class FakeLaunchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        fake = ctypes.CDLL(FAKE)
        fake.tilec_fake_cuda_state.restype = ctypes.POINTER(FakeState)
        cls.state = fake.tilec_fake_cuda_state().contents
        cls.kernel = tilec.compile(SCALE, constexprs={"BLOCK": 128}, cache_dir="")

    def last(self):
        s = self.state
        return s.kernel.decode(), tuple(s.grid), list(s.params[: s.numParams])

    def test_jit_typed_at_launch(self):
        kernels = load_jit_kernels()
        add = kernels.add_kernel
        x, y, out = CudaArray(0x10000), CudaArray(0x20000), CudaArray(0x30000)
        add[(4,)](x, y, out, 4096, BLOCK_SIZE=1024)
        name, grid, params = self.last()
        self.assertEqual((name, grid), ("add_kernel", (4, 1, 1)))
        self.assertEqual(params, [0x10000, 0x20000, 0x30000, 4096])
        add[(1,)](x, y, out, 100, BLOCK_SIZE=1024)  # the same signature
        self.assertEqual(add.num_kernels, 1)
        self.assertEqual(self.last()[2][3], 100)
        add[(2,)](x, y, out, 100, BLOCK_SIZE=64)  # other constexprs
        self.assertEqual(add.num_kernels, 2)
        self.assertEqual(tuple(self.state.block), (128, 1, 1))
        kernels.fill[(1,)](out, 1.5, 16, BLOCK=16)  # @tilec.jit(num_warps=2)
        self.assertEqual(tuple(self.state.block), (64, 1, 1))

    def test_jit_autotune_and_heuristics(self):
        kernels = load_jit_kernels()
        scale = kernels.scale
        timed = []

        def timer(run, warmup, reps):  # threads per block as the "time"
            run()
            timed.append(self.state.block[0])
            return float(self.state.block[0])

        scale.timer = timer
        x, out = CudaArray(0x10000), CudaArray(0x20000)

        def grid(meta):
            return ((meta["n"] + meta["BLOCK"] - 1) // meta["BLOCK"],)

        scale[grid](x, out, 1000, 2.0)
        self.assertEqual(timed, [64, 128])  # both configs timed
        self.assertEqual(scale.best_config.constexprs, {"BLOCK": 64})
        self.assertEqual((tuple(self.state.grid), self.state.block[0]), ((16, 1, 1), 64))
        scale[grid](x, out, 1000, 2.0)  # the same key: no timing
        self.assertEqual(len(timed), 2)
        scale[grid](x, out, 4096, 2.0)  # another n: timed again
        self.assertEqual(len(timed), 4)
        self.assertEqual(len(scale.cache), 2)
        with self.assertRaisesRegex(TypeError, "BLOCK set both by the launch and by the configs"):
            scale[grid](x, out, 8, 2.0, BLOCK=32)

    def test_dependent_launch(self):
        # launch_pdl=True (Triton's): tilec_kernel_launch_flags, then
        # cuLaunchKernelEx with programmatic stream serialization.
        before = self.state.dependentLaunches
        self.kernel[(2,)](0x10000, 0x20010, 2.5, 1000, True, 7, launch_pdl=True)
        self.assertEqual(self.state.dependentLaunches, before + 1)
        self.assertEqual(self.state.lastLaunchDependent, 1)
        self.assertEqual(self.last()[2][3], 1000)
        self.kernel[(2,)](0x10000, 0x20010, 2.5, 1000, True, 7)
        self.assertEqual(self.state.lastLaunchDependent, 0)
        add = load_jit_kernels().add_kernel
        x, out = CudaArray(0x10000), CudaArray(0x30000)
        add[(1,)](x, x, out, 64, BLOCK_SIZE=64, launch_pdl=True)
        self.assertEqual(self.state.dependentLaunches, before + 2)

    def test_arch_of_the_device(self):
        self.assertEqual(tilec.device_arch(0), "sm_90a")
        self.assertEqual(self.kernel.arch, "sm_90a")

    def test_arguments_are_packed(self):
        k = self.kernel
        before = self.state.launches
        k[(3, 2)](0x10000, 0x20010, 2.5, 1000, True, 2**40)
        self.assertEqual(self.state.launches, before + 1)
        name, grid, params = self.last()
        self.assertEqual(name, "scale")
        self.assertEqual(grid, (3, 2, 1))
        self.assertEqual(tuple(self.state.block), (128, 1, 1))
        alpha = struct.unpack("<I", struct.pack("<f", 2.5))[0]
        self.assertEqual(params, [0x10000, 0x20010, alpha, 1000, 1, 2**40])
        k[4](0x10000, 0x20010, 1.0, -7, False, 0)
        self.assertEqual(self.last()[1], (4, 1, 1))
        k[[2, 3, 4]](0x10000, 0x20010, 1.0, -7, False, 0)
        self.assertEqual(self.last()[1], (2, 3, 4))
        self.assertEqual(self.last()[2][3], 2**32 - 7)  # i32 -7, zero-extended

    def test_variants_follow_the_arguments(self):
        k = tilec.compile(SCALE, constexprs={"BLOCK": 64}, cache_dir="")
        k[(1,)](0x10000, 0x20000, 1.0, 1024, False, 3)
        self.assertEqual(k.num_variants, 1)
        k[(1,)](0x10000, 0x20000, 1.0, 2048, False, 5)  # same key
        self.assertEqual(k.num_variants, 1)
        k[(1,)](0x10004, 0x20000, 1.0, 1024, False, 3)  # unaligned pointer
        k[(1,)](0x10000, 0x20000, 1.0, 1, False, 3)  # n == 1
        k[(1,)](0x10000, 0x20000, 1.0, 1000, False, 16)  # big % 16 == 0
        self.assertEqual(k.num_variants, 4)
        # The programs that ran, by key: n a multiple of 16 (D), unaligned
        # `out` (-), n == 1 (U), the last parameter a multiple of 16.
        self.assertEqual(sorted(k.variants), ["-A-D--", "AA---D", "AA-D--", "AA-U--"])
        # The variant for n == 1 has n replaced by 1 (it is still passed).
        params = {p["name"]: p for p in k.variant("AA-U-D").metadata["params"]}
        self.assertTrue(params["n"].get("equal_to_1"))

    def test_array_interfaces(self):
        self.kernel[(1,)](CudaArray(0x30000), CudaArray(0x40000), 1.0, 16, False, 0)
        self.assertEqual(self.last()[2][:2], [0x30000, 0x40000])

        class Tensor:
            def data_ptr(self):
                return 0x50000

        self.kernel[(1,)](Tensor(), Tensor(), 1.0, 16, False, 0)
        self.assertEqual(self.last()[2][:2], [0x50000, 0x50000])

    def test_grid_function_and_stream(self):
        seen = {}

        def grid(meta):
            seen.update(meta)
            return (meta["n"] // meta["BLOCK"],)

        self.kernel[grid](0x10000, 0x20000, 1.0, 1280, False, 0, stream=0)
        self.assertEqual(self.last()[1], (10, 1, 1))
        self.assertEqual(seen["BLOCK"], 128)
        self.assertEqual(seen["alpha"], 1.0)

    def test_errors(self):
        k = self.kernel
        with self.assertRaisesRegex(TypeError, "missing 1 required positional argument: 'big'"):
            k[(1,)](0x10000, 0x20000, 1.0, 16, False)
        with self.assertRaisesRegex(TypeError, "argument n: i32: cannot pass 1.5"):
            k[(1,)](0x10000, 0x20000, 1.0, 1.5, False, 0)
        with self.assertRaisesRegex(TypeError, "argument out: expected a CUDA tensor"):
            k[(1,)]("x", 0x20000, 1.0, 16, False, 0)
        with self.assertRaisesRegex(tilec.CudaError, "invalid grid"):
            k[(0,)](0x10000, 0x20000, 1.0, 16, False, 0)
        with self.assertRaisesRegex(ValueError, "1 to 3 dimensions"):
            k[(1, 1, 1, 1)](0x10000, 0x20000, 1.0, 16, False, 0)
        # The C ABI's dimensions are 32-bit: larger ones must not wrap around.
        before = self.state.launches
        for grid in [(2**32 + 5,), (3, 2**32 + 1), 2**40, (-1,)]:
            with self.assertRaisesRegex(ValueError, r"must be in \[0, 2\*\*31 - 1\]"):
                k[grid](0x10000, 0x20000, 1.0, 16, False, 0)
        self.assertEqual(self.state.launches, before)
        with self.assertRaisesRegex(TypeError, "is not a CUDA stream"):
            k[(1,)](0x10000, 0x20000, 1.0, 16, False, 0, stream="s")

    def test_tensor_descriptor(self):
        # A @triton.jit kernel whose parameters are host tensor descriptors:
        # each takes a TensorDescriptor (tilec's or Triton's), passed as
        # its base, shape and strides but the last.
        source = (
            "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
            "def copy(out_desc, in_desc, n, BM: tl.constexpr, BN: tl.constexpr):\n"
            "    t = in_desc.load([tl.program_id(0) * BM, 0])\n"
            "    out_desc.store([tl.program_id(0) * BM, 0], t)\n"
        )
        k = tilec.compile(
            source,
            kernel="copy",
            language="python",
            signature="tensordesc<fp16[64, 32]>, tensordesc<fp16[64, 32]>, i32, 64, 32",
            cache_dir="",
        )
        self.assertEqual(len(k.params), 9)
        seen = {}

        def grid(meta):
            seen.update(meta)
            return (meta["n"] // meta["BM"],)

        out = tilec.TensorDescriptor(0x10000, [256, 32], [48, 1], [64, 32])
        src = tilec.TensorDescriptor(CudaArray(0x20000), [256, 30], [32, 1], [64, 32])
        k[grid](out, src, 256)
        self.assertEqual(self.last()[1], (4, 1, 1))
        self.assertIs(seen["in_desc"], src)
        self.assertEqual(self.last()[2], [0x10000, 256, 32, 48, 0x20000, 256, 30, 32, 256])
        with self.assertRaisesRegex(TypeError, "compiled for blocks of \\[64, 32\\]"):
            k[(1,)](out, tilec.TensorDescriptor(0x20000, [256, 30], [32, 1], [32, 32]), 1)
        with self.assertRaisesRegex(TypeError, "last stride of a tensor descriptor must be 1"):
            k[(1,)](out, tilec.TensorDescriptor(0x20000, [256, 30], [32, 2], [64, 32]), 1)
        with self.assertRaisesRegex(TypeError, "16-byte aligned base"):
            k[(1,)](out, tilec.TensorDescriptor(0x20000, [256, 30], [30, 1], [64, 32]), 1)
        with self.assertRaisesRegex(TypeError, "base 0x20002"):
            k[(1,)](out, tilec.TensorDescriptor(0x20002, [256, 30], [32, 1], [64, 32]), 1)
        with self.assertRaisesRegex(TypeError, "pass a TensorDescriptor"):
            k[(1,)](out, 0x20000, 1)
        with self.assertRaisesRegex(TypeError, "padding='nan'"):
            k[(1,)](out, tilec.TensorDescriptor(0x20000, [8, 8], [8, 1], [64, 32], "nan"), 1)

    def test_autotune(self):
        import tempfile

        from tilec import _autotune

        configs = [
            tilec.Config({"BLOCK": 64}),
            tilec.Config({"BLOCK": 128}, num_warps=8),
            tilec.Config({"BLOCK": 256}, num_warps=3),  # does not compile
            tilec.Config({"BLOCK": 512}),
        ]
        times = iter([3.0, 1.0, 2.0])
        grids = []

        def timer(run, warmup, reps):
            run()
            grids.append(tuple(self.state.grid))
            return next(times)

        def grid(meta):
            return (4096 // meta["BLOCK"],)

        args = (0x10000, 0x20000, 1.0, 4096, False, 0)
        with tempfile.TemporaryDirectory() as cache:
            best = tilec.autotune(
                SCALE, configs, grid, *args, key="n=4096", timer=timer, cache_dir=cache
            )
            self.assertEqual((best.constexprs["BLOCK"], best.num_warps), (128, 8))
            self.assertEqual(grids, [(64, 1, 1), (32, 1, 1), (8, 1, 1)])

            def no_timer(run, warmup, reps):
                raise AssertionError("a remembered choice is not timed again")

            _autotune._chosen.clear()  # from the disk record now
            again = tilec.autotune(
                SCALE, configs, grid, *args, key="n=4096", timer=no_timer, cache_dir=cache
            )
            self.assertEqual(again.constexprs["BLOCK"], 128)
            with self.assertRaisesRegex(tilec.TilecError, "every config failed"):
                tilec.autotune(SCALE, configs[2:3], grid, *args, timer=timer, cache_dir=cache)

    def test_launch_overhead(self):
        launch = self.kernel[(4,)]
        for _ in range(100):
            launch(0x10000, 0x20000, 1.0, 1024, False, 0)
        times = []
        for _ in range(20):
            start = time.perf_counter()
            for _ in range(1000):
                launch(0x10000, 0x20000, 1.0, 1024, False, 0)
            times.append((time.perf_counter() - start) / 1000 * 1e6)
        median = statistics.median(times)
        print("\nfake-driver launch: median %.2f us per kernel[grid](*args)" % median)
        self.assertLess(median, 100.0)


if __name__ == "__main__":
    unittest.main()
