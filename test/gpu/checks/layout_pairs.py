"""Conversions between every pair of register layouts the compiler can
produce for 2-D f16/f32 tiles (checks/layouts.py; the kernels are tilegpu
IR written by test/gpu/layout_pairs.py). Each kernel loads a tile in one
layout, converts it and stores it from the other: the output must be the
input bit for bit (a conversion only moves values), on random finite bit
patterns (subnormals and -0 included), for the whole tile and for a ragged
corner of it (masked loads and stores); poisoned outputs in guard zones
catch unwritten elements and stray writes.

One test per configuration (type, tile, warps). With --small (the memcheck
run) each test converts every TILEC_GPU_LAYOUT_STRIDE-th pair (default 8;
1 for all of them).
"""
import os

from checks.harness import np, test
from checks.layouts import CONFIGS, PAIRS

_DTYPES = {"f16": ("float16", "uint16", 0x7C00, 15), "f32": ("float32", "uint32", 0x7F800000, 31)}


def random_finite(rng, shape, dtype):
    """Random bit patterns of `dtype` that are finite numbers, any sign."""
    ftype, utype, inf, sign = _DTYPES[dtype]
    bits = rng.integers(0, inf, size=shape, dtype=np.uint64)
    bits |= rng.integers(0, 2, size=shape, dtype=np.uint64) << np.uint64(sign)
    return bits.astype(getattr(np, utype)).view(getattr(np, ftype))


def check_pairs(t, config):
    dtype, M, N, _ = config
    pairs = [p for p in PAIRS if p.config == config]
    if t.small:
        stride = max(1, int(os.environ.get("TILEC_GPU_LAYOUT_STRIDE", "8")))
        pairs = pairs[::stride]
    for pair in pairs:
        k = t.k(pair.variant)
        for m, n in ((M, N), (max(1, M - 3), max(1, N - 5))):
            x = random_finite(t.rng, (m, n), dtype)
            o = t.out((m, n), x.dtype)
            k((1,), out=o, inp=t.inp(x), m=m, n=n)
            t.bits("%s -> %s, %dx%d of the tile" % (pair.src.name, pair.dst.name, m, n), o, x)


def _register(config):
    dtype, M, N, nw = config

    @test("layouts", "%s %dx%d w%d" % (dtype, M, N, nw))
    def t_pairs(t):
        check_pairs(t, config)


for _dtype, _m, _n, _nw, _full in CONFIGS:
    _register((_dtype, _m, _n, _nw))
