"""Loops without dots pipelined through rings of shared memory
(test/gpu/pipeline.tile): persistent grids over ragged rows, each loop's
loads copied S - 1 iterations ahead."""
from checks.harness import np, test

SOFTMAX = ("pl_softmax_s2", "pl_softmax", "pl_softmax_s4", "pl_softmax_w8", "pl_softmax_s1")


@test("pipeline", "row softmax, num_stages 1-4, ragged rows, other=-inf")
def t_pl_softmax(t):
    for var in SOFTMAX:
        k = t.k(var)
        block = 1024 if var.endswith("w8") else 256
        # Grids of 7 and 200 programs over 150 rows: 0 to 22 rows each.
        for rows, cols, grid in ((150, block - 3, 7), (150, block, 200), (5, 1, 3)):
            stride = block + 5
            x = t.randn((rows, stride))
            o = t.out((rows, stride), np.float32, fill="zero")
            k((grid,), out=o, x=t.inp(x), stride=stride, n_rows=rows, n_cols=cols)
            v = x[:, :cols].astype(np.float64)
            e = np.exp(v - v.max(1, keepdims=True))
            ref = np.zeros((rows, stride))
            ref[:, :cols] = e / e.sum(1, keepdims=True)
            t.close("%s %dx%d grid %d" % (var, rows, cols, grid), o, ref, 1e-5)


@test("pipeline", "f16 rows, carried sum, per-row max")
def t_pl_rowsum(t):
    for var in ("pl_rowsum", "pl_rowsum_s2"):
        k = t.k(var)
        # stride and n_cols multiples of 16 (the variants' --divisible).
        for rows, cols, grid in ((301, 496, 16), (301, 512, 64), (3, 32, 8)):
            stride = 528
            x = t.randn((rows, stride)).astype(np.float16)
            psum = t.out(grid, np.float32)
            rmax = t.out(rows, np.float32)
            k((grid,), psum=psum, rmax=rmax, x=t.inp(x), stride=stride, n_rows=rows, n_cols=cols)
            x = x[:, :cols]
            v = x.astype(np.float64)
            ref = np.array([v[p::grid].sum() for p in range(grid)])
            t.close("%s sums %dx%d grid %d" % (var, rows, cols, grid), psum, ref, 1e-5)
            t.exact("%s row maxima %dx%d" % (var, rows, cols), rmax, x.max(1).astype(np.float32))


@test("pipeline", "staged 2-D tiles beside a gather through a staged index block")
def t_pl_gather(t):
    k = t.k("pl_gather")
    bm = 16
    for tiles, n, grid in ((37, 50, 5), (37, 64, 40)):
        rows = tiles * bm
        x = t.randn((rows, n))
        src = t.randn((97, n))
        idx = t.rng.integers(0, 97, rows).astype(np.int32)
        o = t.out((rows, n), np.float32)
        k((grid,), out=o, x=t.inp(x), src=t.inp(src), idx=t.inp(idx), n_tiles=tiles, N=n)
        ref = x.astype(np.float64) * 2 + src.astype(np.float64)[idx]
        t.close("pl_gather %d tiles N=%d grid %d" % (tiles, n, grid), o, ref, 1e-6)
