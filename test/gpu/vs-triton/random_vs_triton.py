"""tilec's tl.randint/rand/randn against Triton 3.6's, same seed and offsets
(100003 offsets, four seeds): randint and rand must be bit-identical, randn
within 1e-5 (the math libraries differ in the last bits).

    here:  tilec test/gpu/vs-triton/random.tile --arch=sm_90a -o DIR/
    there: python3 random_vs_triton.py DIR/rk.ptx
"""
import os
import sys

import cupy as cp
import numpy as np
import torch
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))


@triton.jit
def trk(ri, rf, rn, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(ri + offs, tl.randint(seed, offs), mask=m)
    tl.store(rf + offs, tl.rand(seed, offs), mask=m)
    tl.store(rn + offs, tl.randn(seed, offs), mask=m)


mod = cp.RawModule(path=sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "rk.ptx"))
fn = mod.get_function("rk")
ok = True
for seed in (0, 42, 123456789, -7):
    n = 100003
    outs = [
        torch.empty(n, device="cuda", dtype=d) for d in (torch.int32, torch.float32, torch.float32)
    ]
    touts = [torch.empty_like(o) for o in outs]
    grid = ((n + 1023) // 1024,)
    fn(
        grid,
        (128,),
        (outs[0].data_ptr(), outs[1].data_ptr(), outs[2].data_ptr(), np.int32(seed), np.int32(n)),
    )
    trk[grid](touts[0], touts[1], touts[2], seed, n, BLOCK=1024)
    torch.cuda.synchronize()
    same_i = bool(torch.equal(outs[0], touts[0]))
    same_f = bool(torch.equal(outs[1], touts[1]))
    dn = (outs[2] - touts[2]).abs().max().item()
    print("seed", seed, "randint equal", same_i, "rand equal", same_f, "randn max abs diff", dn)
    ok &= same_i and same_f and dn < 1e-5
print("OK" if ok else "MISMATCH")
sys.exit(0 if ok else 1)
