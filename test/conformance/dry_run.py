#!/usr/bin/env python3
"""Dry-runs the conformance cases' setups on the CPU, without a GPU or Triton.

    dry_run.py [--only a,b] [--family PREFIX] [--bind] [--hints] [-v]

Needs torch (a CPU build will do). Each case's setup(torch) gets a shim of
torch in which the "cuda" device (device="cuda" of the factories,
torch.Generator(device="cuda"), .to("cuda"), .cuda(), torch.cuda.*) is the
CPU; the tensors made on it are marked as CUDA tensors (a torch.Tensor
subclass that the results of operations on them inherit), so that a tensor
the setup made on the CPU by mistake is still told apart. Then the Launch
is checked against the case and the kernel, as run_gpu.py will use it:

- the setup runs without an exception, and no operation mixes CPU and CUDA
  tensors or draws from a generator of the other device;
- the run-time arguments: as many as the signature has type entries (and as
  many entries as the kernel has parameters, with a type entry for no
  `tl.constexpr` parameter); every tensor is a CUDA tensor whose dtype is
  its pointer's element type (`*fp16`, `*bf16`, `*fp32`, `*i32`, `*i64`,
  `*i8`, `*u8`, `*i1`, ...); a Python int has an integer type and fits it, a
  float is `fp32`, a bool `i1`; `:16` on an integer means value % 16 == 0
  and `:1` means value == 1 (both strict), `:16` on a pointer means
  data_ptr() % 16 == 0 (a warning only: CPU allocations need not be
  aligned as CUDA ones are);
- the outputs: each index names a tensor of the launch, the reference is a
  CUDA tensor of the same shape without infinities (NaN, "not written", is
  counted, not refused), and an output the runner poisons shares no memory
  with an argument that is not an output;
- the grid: a tuple of 1 to 3 positive ints (at most 2**31 - 1, then 65535);
- names, as far as they tell: no pointer type for a parameter named
  `*stride*`, no scalar type for one named `*ptr`.

Without Triton installed, a stand-in lets a setup import a kernel file and
launch it (tutorial 04's seeded dropout takes its mask from Triton's run):
the launch does nothing, so such a reference is checked for its form only.

Warnings (not failures): a misaligned `:16` pointer, an int parameter named
`*stride*` whose value is no stride of any tensor argument, and with
`--hints` an integer that is a multiple of 16 (or 1) without the hint
Triton's JIT would give it (the compile check then builds another
specialization than the GPU run; harmless, but worth knowing).
`--bind` prints each case's parameters with what they get (name = value,
or dtype and shape), to compare with the kernel by eye. One line per case
and a summary per family (cases_<family>.py); `--family` keeps the cases
whose family or name starts with PREFIX. Exit status 1 if a case fails.
This is a developer tool (run by hand), not a lit test.
"""

import argparse
import ast
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import time
import traceback
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus  # noqa: E402

INT_RANGES = {
    "i1": (0, 1),
    "i8": (-(2**7), 2**7 - 1),
    "i16": (-(2**15), 2**15 - 1),
    "i32": (-(2**31), 2**31 - 1),
    "i64": (-(2**63), 2**63 - 1),
    "u8": (0, 2**8 - 1),
    "u16": (0, 2**16 - 1),
    "u32": (0, 2**32 - 1),
    "u64": (0, 2**64 - 1),
}
GRID_LIMITS = (2**31 - 1, 65535, 65535)


# -- A stand-in for Triton, when it is not installed: setups that launch the
# original kernel themselves (tutorial 04's seeded dropout) import a kernel
# file; its launches do nothing here.


class _Anything:
    """Any attribute, call, subscript or operation of it is another one."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything()

    def __call__(self, *args, **kwargs):
        return _Anything()

    def __getitem__(self, key):
        return _Anything()

    def __mro_entries__(self, bases):
        return (object,)


class _StubJIT:
    launches = []

    def __init__(self, fn):
        self.fn = fn
        self.__name__ = fn.__name__
        code = fn.__code__
        self.arg_names = list(code.co_varnames[: code.co_argcount])

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            _StubJIT.launches.append(self.__name__)

        return launch


def _decorator_factory(*args, **kwargs):
    def wrap(fn):
        holder = types.SimpleNamespace(fn=fn, arg_names=getattr(fn, "arg_names", None))
        return holder

    return wrap


def _jit(fn=None, **kwargs):
    if fn is None:
        return _StubJIT
    return _StubJIT(fn)


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything()


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname == "triton" or fullname.startswith("triton."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        module = _StubModule(spec.name)
        module.__path__ = []
        if spec.name == "triton":
            module.jit = _jit
            module.autotune = _decorator_factory
            module.heuristics = _decorator_factory
            module.Config = _Anything()
            module.cdiv = lambda a, b: (a + b - 1) // b
            module.next_power_of_2 = lambda n: 1 << (n - 1).bit_length()
        return module

    def exec_module(self, module):
        pass


def install_triton_stub():
    """Triton if it imports, else the stand-in; True for the stand-in."""
    try:
        import triton  # noqa: F401

        return False
    except ImportError:
        sys.meta_path.insert(0, _StubFinder())
        return True


# -- The torch shim: "cuda" is the CPU, its tensors marked.


def _called_from_torch():
    """Whether the caller of the caller is torch's own Python code."""
    name = sys._getframe(2).f_globals.get("__name__", "")
    return name == "torch" or name.startswith("torch.")


class Shim:
    """torch for the setups, with the CUDA device on the CPU. `problems`
    collects what would fail on a GPU (mixed devices); reset per case."""

    def __init__(self, torch):
        self.torch = torch
        self.problems = []
        self.cuda_generators = []
        shim = self

        class CudaTensor(torch.Tensor):
            """A tensor on the (pretend) CUDA device."""

            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                shim._check_devices(func, args, kwargs)
                return super().__torch_function__(func, types, args, kwargs)

            # What setups see (torch.zeros(..., device=t.device) is a CUDA
            # tensor again); torch's own Python code (Tensor.__rpow__ makes
            # a tensor on self.device) sees the CPU.
            @property
            def device(self):
                if _called_from_torch():
                    return super().device
                return torch.device("cuda", 0)

            @property
            def is_cuda(self):
                return not _called_from_torch()

        self.CudaTensor = CudaTensor
        self.module = self._make_module()
        self._patched = []

    # Device bookkeeping.

    def is_cuda_device(self, device):
        if device is None:
            return False
        if isinstance(device, self.torch.device):
            return device.type == "cuda"
        if isinstance(device, int):
            return True  # a CUDA device index
        return str(device).startswith("cuda")

    def is_cuda_generator(self, g):
        return any(g is c for c in self.cuda_generators)

    def mark(self, value):
        torch = self.torch
        if isinstance(value, torch.Tensor) and not isinstance(value, self.CudaTensor):
            return value.as_subclass(self.CudaTensor)
        if isinstance(value, tuple):
            return type(value)(self.mark(v) for v in value)
        if isinstance(value, list):
            return [self.mark(v) for v in value]
        return value

    def problem(self, text):
        if text not in self.problems:
            self.problems.append(text)

    def _tensors(self, value, out):
        if isinstance(value, self.torch.Tensor):
            out.append(value)
        elif isinstance(value, (list, tuple)):
            for v in value:
                self._tensors(v, out)
        elif isinstance(value, dict):
            for v in value.values():
                self._tensors(v, out)
        return out

    def _check_devices(self, func, args, kwargs):
        name = getattr(func, "__name__", str(func))
        tensors = self._tensors(list(args) + list(kwargs.values()), [])
        cuda = [t for t in tensors if isinstance(t, self.CudaTensor)]
        # CPU tensors of one element or more dimensions (0-d ones are scalars).
        cpu = [t for t in tensors if not isinstance(t, self.CudaTensor) and t.dim() > 0]
        exempt = ("__getitem__", "__setitem__", "copy_", "to", "cpu", "cuda", "__get__")
        if cuda and cpu and name not in exempt:
            self.problem("%s mixes CUDA and CPU tensors" % name)
        g = kwargs.get("generator")
        if g is not None and tensors:
            on_cuda = isinstance(tensors[0], self.CudaTensor)
            if on_cuda != self.is_cuda_generator(g):
                self.problem(
                    "%s draws from a %s generator into a %s tensor"
                    % (
                        name,
                        "CUDA" if self.is_cuda_generator(g) else "CPU",
                        "CUDA" if on_cuda else "CPU",
                    )
                )

    def _make_module(self):
        torch = self.torch
        shim = self

        def factory(fn, name):
            def call(*args, **kwargs):
                device = kwargs.get("device")
                on_cuda = shim.is_cuda_device(device)
                if on_cuda:
                    kwargs["device"] = "cpu"
                g = kwargs.get("generator")
                if g is not None and shim.is_cuda_generator(g) != on_cuda:
                    shim.problem(
                        "torch.%s: a %s generator for a %s tensor"
                        % (
                            name,
                            "CUDA" if shim.is_cuda_generator(g) else "CPU",
                            "CUDA" if on_cuda else "CPU",
                        )
                    )
                result = fn(*args, **kwargs)
                return shim.mark(result) if on_cuda else result

            call.__name__ = name
            return call

        def generator(device="cpu"):
            g = torch.Generator()
            if shim.is_cuda_device(device):
                shim.cuda_generators.append(g)
            return g

        properties = types.SimpleNamespace(
            name="dry run (CPU)",
            multi_processor_count=132,
            total_memory=80 * 2**30,
            major=9,
            minor=0,
        )
        cuda = types.SimpleNamespace(
            is_available=lambda: True,
            synchronize=lambda *a, **k: None,
            current_device=lambda: 0,
            device_count=lambda: 1,
            get_device_properties=lambda *a, **k: properties,
            get_device_capability=lambda *a, **k: (9, 0),
            get_device_name=lambda *a, **k: properties.name,
        )

        class TorchShim(types.ModuleType):
            def __getattr__(self, name):
                if name == "cuda":
                    return cuda
                if name == "Generator":
                    return generator
                obj = getattr(torch, name)
                if callable(obj) and not isinstance(obj, type):
                    return factory(obj, name)
                return obj

        return TorchShim("torch_dry_run_shim")

    # Tensor methods: .to("cuda") / .cuda() / .cpu().

    def patch(self):
        torch = self.torch
        shim = self
        original_to = torch.Tensor.to
        original_cuda = torch.Tensor.cuda
        original_cpu = torch.Tensor.cpu

        def to(self, *args, **kwargs):
            target = kwargs.get("device")
            args = list(args)
            for i, a in enumerate(args):
                if isinstance(a, (str, torch.device)) or (isinstance(a, int) and i == 0):
                    target = a
                    args[i] = "cpu"
            if "device" in kwargs:
                kwargs["device"] = "cpu"
            result = original_to(self, *args, **kwargs)
            if target is None:
                return result
            if shim.is_cuda_device(target):
                return shim.mark(result)
            return result.as_subclass(torch.Tensor)

        def cuda(self, *args, **kwargs):
            return shim.mark(self)

        def cpu(self, *args, **kwargs):
            return original_cpu(self).as_subclass(torch.Tensor)

        self._patched = [("to", original_to), ("cuda", original_cuda), ("cpu", original_cpu)]
        torch.Tensor.to = to
        torch.Tensor.cuda = cuda
        torch.Tensor.cpu = cpu

    def unpatch(self):
        for name, fn in self._patched:
            setattr(self.torch.Tensor, name, fn)
        self._patched = []

    def reset(self):
        self.problems = []
        self.cuda_generators = []


# -- The kernel's parameters, from its source.


def kernel_parameters(case):
    """[(name, is_constexpr)] of the case's kernel, read from its file."""
    with open(case.path) as f:
        tree = ast.parse(f.read(), case.path)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == case.kernel:
            params = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            return [
                (a.arg, a.annotation is not None and "constexpr" in ast.unparse(a.annotation))
                for a in params
            ]
    raise ValueError("no function %s in %s" % (case.kernel, case.file))


# -- The checks.


def dtype_names(torch):
    names = {
        "float16": "fp16",
        "bfloat16": "bf16",
        "float32": "fp32",
        "float64": "fp64",
        "int8": "i8",
        "int16": "i16",
        "int32": "i32",
        "int64": "i64",
        "uint8": "u8",
        "bool": "i1",
        "float8_e4m3fn": "fp8e4nv",
        "float8_e5m2": "fp8e5",
    }
    return {getattr(torch, k): v for k, v in names.items() if hasattr(torch, k)}


def extent(t):
    """The byte range [lo, hi) a tensor's elements span."""
    size = t.element_size()
    lo = hi = t.data_ptr()
    for n, s in zip(t.shape, t.stride()):
        if n == 0:
            return (lo, lo)
        if s >= 0:
            hi += (n - 1) * s * size
        else:
            lo += (n - 1) * s * size
    return (lo, hi + size)


def describe(torch, value):
    if isinstance(value, torch.Tensor):
        return "%s%s" % (str(value.dtype).replace("torch.", ""), tuple(value.shape))
    return repr(value)


def check_case(case, shim, args_ns):
    """(status, text, bind lines): status OK, WARN or FAIL."""
    torch = shim.torch
    fails, warns, info = [], [], []
    shim.reset()
    start = len(_StubJIT.launches)
    try:
        launch = case.setup(shim.module)
    except Exception as e:
        if args_ns.verbose:
            traceback.print_exc()
        tb = traceback.extract_tb(sys.exc_info()[2])[-1]
        where = "%s:%d" % (os.path.basename(tb.filename), tb.lineno)
        return "FAIL", "setup raised %s: %s (%s)" % (type(e).__name__, e, where), []
    fails += ["setup: " + p for p in shim.problems]
    if len(_StubJIT.launches) > start:
        info.append("launched %s with the Triton stand-in" % ",".join(_StubJIT.launches[start:]))

    entries = corpus.split_signature(case.signature)
    try:
        params = kernel_parameters(case)
    except Exception as e:
        params = None
        fails.append("kernel parameters: %s" % e)
    if params is not None and len(params) != len(entries):
        fails.append(
            "the signature has %d entries, the kernel %d parameters" % (len(entries), len(params))
        )
        params = None
    if params is None:
        params = [("#%d" % i, None) for i in range(len(entries))]
    runtime = []  # (param name, signature entry)
    for (name, constexpr), entry in zip(params, entries):
        if corpus.is_type_entry(entry):
            if constexpr:
                fails.append("constexpr parameter %s has a type entry %r" % (name, entry))
            runtime.append((name, entry))
            base = entry.split(":")[0]
            if base.startswith("*") and "stride" in name.lower():
                fails.append("parameter %s gets pointer type %s" % (name, entry))
            if not base.startswith("*") and name.lower().endswith("ptr"):
                fails.append("parameter %s gets scalar type %s" % (name, entry))

    args = list(launch.args)
    if len(args) != len(runtime):
        fails.append("%d run-time arguments, %d type entries" % (len(args), len(runtime)))

    names = dtype_names(torch)
    strides = {0}
    for a in args:
        if isinstance(a, torch.Tensor):
            strides.update(a.stride())
    bind = []
    for i, (a, (name, entry)) in enumerate(zip(args, runtime)):
        base, _, hint = entry.partition(":")
        what = "arg %d (%s, %s)" % (i, name, entry)
        bind.append("    %-24s %-12s = %s" % (name, entry, describe(torch, a)))
        if isinstance(a, torch.Tensor):
            if not isinstance(a, shim.CudaTensor):
                fails.append("%s: a CPU tensor (made without device='cuda')" % what)
            if not base.startswith("*"):
                fails.append("%s: a tensor for a scalar" % what)
                continue
            if names.get(a.dtype) != base[1:]:
                fails.append("%s: dtype %s" % (what, a.dtype))
            if hint == "1":
                fails.append("%s: :1 on a pointer" % what)
            if hint == "16" and a.data_ptr() % 16:
                warns.append("%s: data_ptr %% 16 = %d" % (what, a.data_ptr() % 16))
        elif isinstance(a, bool):
            if base != "i1":
                fails.append("%s: a bool" % what)
        elif isinstance(a, int):
            if base not in INT_RANGES:
                fails.append("%s: an int (%d)" % (what, a))
                continue
            lo, hi = INT_RANGES[base]
            if not lo <= a <= hi:
                fails.append("%s: %d does not fit" % (what, a))
            if hint == "16" and a % 16:
                fails.append("%s: %d is no multiple of 16" % (what, a))
            elif hint == "1" and a != 1:
                fails.append("%s: %d is not 1" % (what, a))
            elif args_ns.hints and not hint and a == 1:
                warns.append("%s: 1 without :1" % what)
            elif args_ns.hints and not hint and a % 16 == 0:
                warns.append("%s: %d without :16" % (what, a))
            if "stride" in name.lower() and a not in strides:
                warns.append("%s: %d is no stride of a tensor argument" % (what, a))
        elif isinstance(a, float):
            if base != "fp32":
                fails.append("%s: a float (%r)" % (what, a))
            elif hint:
                fails.append("%s: a hint on a float" % what)
        else:
            fails.append("%s: a %s" % (what, type(a).__name__))

    # Outputs.
    nans = {}
    output_tensors = []
    for index, expected in launch.outputs.items():
        try:
            actual = launch.args[index]
        except (IndexError, TypeError):
            fails.append("output %r: no such argument" % (index,))
            continue
        if not isinstance(actual, torch.Tensor):
            fails.append(
                "output %d: argument is %s, not a tensor" % (index, describe(torch, actual))
            )
            continue
        output_tensors.append((index, actual))
        if not isinstance(actual, shim.CudaTensor):
            fails.append("output %d: a CPU tensor" % index)
        if not isinstance(expected, torch.Tensor):
            fails.append("output %d: the reference is a %s" % (index, type(expected).__name__))
            continue
        if not isinstance(expected, shim.CudaTensor):
            fails.append("output %d: the reference is a CPU tensor" % index)
        if tuple(actual.shape) != tuple(expected.shape):
            fails.append(
                "output %d: shape %s, reference %s"
                % (index, tuple(actual.shape), tuple(expected.shape))
            )
        if expected.dtype.is_floating_point:
            e = expected.as_subclass(torch.Tensor)
            n_inf = int(torch.isinf(e).sum())
            if n_inf:
                fails.append("output %d: %d infinities in the reference" % (index, n_inf))
            n_nan = int(torch.isnan(e).sum())
            if n_nan:
                nans[index] = n_nan
    if launch.poison:
        outputs = {id(t) for _, t in output_tensors}
        for index, t in output_tensors:
            lo, hi = extent(t)
            for j, a in enumerate(args):
                if isinstance(a, torch.Tensor) and id(a) not in outputs:
                    alo, ahi = extent(a)
                    if lo < ahi and alo < hi:
                        fails.append(
                            "output %d shares memory with argument %d, which poisoning clobbers"
                            % (index, j)
                        )
    for name in ("atol", "rtol"):
        v = getattr(launch, name)
        if not isinstance(v, (int, float)) or v < 0:
            fails.append("%s = %r" % (name, v))

    # Grid.
    grid = launch.grid
    if not (
        isinstance(grid, tuple)
        and 1 <= len(grid) <= 3
        and all(type(g) is int and 0 < g <= m for g, m in zip(grid, GRID_LIMITS))
    ):
        fails.append("grid %r: not a tuple of 1-3 positive ints within limits" % (grid,))

    text = "grid=%s args=%d outputs=%s" % (grid, len(args), sorted(launch.outputs))
    if nans:
        text += " nan=%s" % nans
    if info:
        text += " [%s]" % "; ".join(info)
    if fails:
        return "FAIL", text + "\n      " + "\n      ".join(fails + warns), bind
    if warns:
        return "WARN", text + "\n      " + "\n      ".join(warns), bind
    return "OK", text, bind


def load_families():
    """[(family, case)] of every cases_<family>.py, in file order."""
    out = []
    for name in sorted(os.listdir(HERE)):
        if not (name.startswith("cases_") and name.endswith(".py")):
            continue
        spec = importlib.util.spec_from_file_location(name[:-3], os.path.join(HERE, name))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out += [(name[len("cases_") : -3], case) for case in module.CASES]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--family", default="", help="cases whose family or name starts so")
    parser.add_argument("--bind", action="store_true", help="print each parameter's argument")
    parser.add_argument(
        "--hints", action="store_true", help="warn of ints that Triton would specialize unhinted"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="tracebacks")
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    stub = install_triton_stub()
    cases = load_families()
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {c.name for _, c in cases}
        if unknown:
            parser.error("no case named %s" % ", ".join(sorted(unknown)))
        cases = [(f, c) for f, c in cases if c.name in wanted]
    if args.family:
        cases = [
            (f, c) for f, c in cases if f.startswith(args.family) or c.name.startswith(args.family)
        ]
    if stub:
        print("(Triton is not installed: kernel launches inside setups do nothing)")

    shim = Shim(torch)
    shim.patch()
    counts = {}
    try:
        for family, case in cases:
            t0 = time.time()
            status, text, bind = check_case(case, shim, args)
            print("%-4s %-50s %5.1fs %s" % (status, case.name, time.time() - t0, text), flush=True)
            if args.bind:
                print("\n".join(bind))
            counts.setdefault(family, {"OK": 0, "WARN": 0, "FAIL": 0})[status] += 1
    finally:
        shim.unpatch()
    total = {"OK": 0, "WARN": 0, "FAIL": 0}
    for family, c in counts.items():
        print(
            "%-20s %3d cases: %3d OK, %3d WARN, %3d FAIL" % (family, sum(c.values()), *c.values())
        )
        for k in total:
            total[k] += c[k]
    print(
        "%-20s %3d cases: %3d OK, %3d WARN, %3d FAIL"
        % ("all", sum(total.values()), *total.values())
    )
    return 1 if total["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
