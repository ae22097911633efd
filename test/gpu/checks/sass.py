"""The SASS of tensor-core and memory-bound kernels (cuobjdump -sass of the
cubins scripts/build-gpu-bundle.sh makes)."""
import os
import re
import shutil
import subprocess

from checks.harness import test
from checks.manifest import SASS_CHECKS


@test("sass", "tensor-core, copy and local-memory opcodes (cuobjdump -sass)")
def t_sass(t):
    tool = shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"
    if not os.path.exists(tool):
        t.record(
            "cuobjdump found (CUDA toolkit)",
            False,
            "not on PATH nor in " "/usr/local/cuda/bin: the SASS is not checked",
        )
        return
    for var, need, forbid in SASS_CHECKS:
        path = os.path.join(t.kdir, var + ".cubin")
        p = subprocess.run([tool, "-sass", path], capture_output=True, text=True)
        # "/*0090*/  @!P0 HGMMA.64x128x16.F32 ..." -> HGMMA.64x128x16.F32
        ops = re.findall(
            r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?" r"([A-Z][A-Za-z0-9_.]*)", p.stdout
        )
        count = {
            op: sum(1 for o in ops if o == op or ("." not in op and o.split(".")[0] == op))
            for op in need + forbid
        }
        ok = (
            p.returncode == 0
            and all(count[op] > 0 for op in need)
            and not any(count[op] for op in forbid)
        )
        t.record(
            "%s: %s, no %s" % (var, "+".join(need), "/".join(forbid)),
            ok,
            " ".join("%s=%d" % kv for kv in count.items())
            if p.returncode == 0
            else p.stderr.strip()[:200],
        )
