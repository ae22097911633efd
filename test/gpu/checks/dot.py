"""dot on every input type and tile shape: wgmma, TMA, cp.async and mma.sync
paths (test/gpu/dot.tile)."""
from checks.harness import bf16_from_f64, bf16_to_f64, cdiv, cp, np, test
from checks.manifest import (
    ASYNC_TILES,
    BF16_ASYNC_TILES,
    DOT_SIZES,
    DOT_TYPES,
    DOT_WARPS,
    MM4_SHAPES,
    MM8_SHAPES,
    MM_TT_SHAPES,
    RING80_TILES,
    WGMMA_TILES,
    tile_variant,
)


DOT_TOL = {"f16": 1e-2, "bf16": 1e-2, "tf32": 1e-2, "ieee": 1e-5}


def dot_inputs(t, dt, shape_a, shape_b):
    """Random inputs as device arrays plus their exact float64 values."""
    a = t.rng.standard_normal(shape_a)
    b = t.rng.standard_normal(shape_b)
    if dt == "f16":
        a, b = a.astype(np.float16), b.astype(np.float16)
        return a, b, a.astype(np.float64), b.astype(np.float64)
    if dt == "bf16":
        a, b = bf16_from_f64(a), bf16_from_f64(b)
        return a, b, bf16_to_f64(a), bf16_to_f64(b)
    a, b = a.astype(np.float32), b.astype(np.float32)
    return a, b, a.astype(np.float64), b.astype(np.float64)


def make_dot_test(dt):
    def fn(t):
        tol = DOT_TOL[dt]
        for bm, bn, bk in DOT_SIZES:
            M, N, K = bm - 3, bn - 1, bk - 5
            a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
            c = t.out((M, N), np.float32)
            t.k("dot_%s_%dx%dx%d" % (dt, bm, bn, bk))(
                (1,), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K
            )
            t.close("%dx%dx%d tile, M,N,K=%d,%d,%d" % (bm, bn, bk, M, N, K), c, a64 @ b64, tol)
        M, N, K = 30, 31, 27
        a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
        c0 = t.randn((M, N))
        c = t.out((M, N), np.float32)
        t.k("dot_acc_" + dt)((1,), c=c, c0=t.inp(c0), a=t.inp(a), b=t.inp(b), M=M, N=N, K=K)
        t.close("dot(a, b, acc) 32^3", c, a64 @ b64 + c0, tol)
        a, bt, a64, bt64 = dot_inputs(t, dt, (M, K), (N, K))
        c = t.out((M, N), np.float32)
        t.k("dot_nt_" + dt)((1,), c=c, a=t.inp(a), bt=t.inp(bt), M=M, N=N, K=K)
        t.close("dot(a, trans(bt)) 32^3", c, a64 @ bt64.T, tol)
        for var, (M, N, K), (bm, bn) in (
            ("mm_" + dt, (200, 136, 100), (64, 64)),
            ("mm_%s_small" % dt, (45, 77, 53), (32, 32)),
        ):
            a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
            c = t.out((M, N), np.float32)
            t.k(var)((cdiv(M, bm), cdiv(N, bn)), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K)
            t.close("%s looped matmul M,N,K=%d,%d,%d" % (var, M, N, K), c, a64 @ b64, tol)

    return fn


for _t in DOT_TYPES:
    test("dot", "dot " + _t)(make_dot_test(_t))


@test("dot", "dot_scaled: e2m1 x e4m3 with e8m0 scales, looped, ragged M/N")
def t_dot_scaled(t):
    from checks.fp8 import fp8_decode

    for var in ("mm_mxfp", "mm_mxfp_sm80"):
        M, N, K = 133, 70, 192
        codes = t.rng.integers(0, 16, (M, K)).astype(np.uint8)
        a = (codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8)
        magnitude = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6])[codes & 7]
        a64 = np.where(codes & 8, -magnitude, magnitude)
        # e4m3 bytes of finite values (exponent field 2..14)
        b = (
            (t.rng.integers(0, 2, (K, N)) << 7)
            | (t.rng.integers(2, 15, (K, N)) << 3)
            | t.rng.integers(0, 8, (K, N))
        ).astype(np.uint8)
        b64 = fp8_decode(b, "e4m3")
        sa = t.rng.integers(120, 135, (M, K // 32)).astype(np.uint8)
        sb = t.rng.integers(120, 135, (N, K // 32)).astype(np.uint8)
        fa = np.repeat(np.exp2(sa - 127.0), 32, axis=1)
        fb = np.repeat(np.exp2(sb - 127.0), 32, axis=1).T
        c = t.out((M, N), np.float32)
        t.k(var)(
            (cdiv(M, 64), cdiv(N, 64)),
            c=c,
            a=t.inp(a),
            sa=t.inp(sa),
            b=t.inp(b),
            sb=t.inp(sb),
            M=M,
            N=N,
            K=K,
        )
        t.close("%s M,N,K=%d,%d,%d" % (var, M, N, K), c, (a64 * fa) @ (b64 * fb), 1e-5)


@test("dot", "dot with 1/2/8 warps")
def t_dot_warps(t):
    for dt, sz, nw in DOT_WARPS:
        M, N, K = sz - 3, sz - 1, sz - 5
        a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
        c = t.out((M, N), np.float32)
        t.k("dot_%s_%d_w%d" % (dt, sz, nw))((1,), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K)
        t.close("%s %d^3 tile, %d warps" % (dt, sz, nw), c, a64 @ b64, DOT_TOL[dt])
    for var, dt in (("mm_f16_w8", "f16"), ("mm_tf32_w2", "tf32")):
        M, N, K = 200, 136, 100
        a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
        c = t.out((M, N), np.float32)
        t.k(var)((cdiv(M, 64), cdiv(N, 64)), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K)
        t.close("%s looped matmul M,N,K=%d,%d,%d" % (var, M, N, K), c, a64 @ b64, DOT_TOL[dt])


@test("dot", "dot on warp-group (wgmma) tiles")
def t_dot_wgmma(t):
    for dt, bm, bn, bk, nw in WGMMA_TILES:
        M, N, K = bm - 3, bn - 1, bk - 5
        a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
        c = t.out((M, N), np.float32)
        t.k("dot_%s_%dx%dx%d_w%d" % (dt, bm, bn, bk, nw))(
            (1,), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K
        )
        t.close("%s %dx%dx%d tile, %d warps" % (dt, bm, bn, bk, nw), c, a64 @ b64, DOT_TOL[dt])
    for var, (M, N, K) in (("dot_nt_f16_64", (61, 63, 59)), ("dot_nt_f16_128_w8", (125, 127, 60))):
        a, bt, a64, bt64 = dot_inputs(t, "f16", (M, K), (N, K))
        c = t.out((M, N), np.float32)
        t.k(var)((1,), c=c, a=t.inp(a), bt=t.inp(bt), M=M, N=N, K=K)
        t.close(
            "%s: a @ trans(bt), M,N,K=%d,%d,%d" % (var, M, N, K), c, a64 @ bt64.T, DOT_TOL["f16"]
        )
    for var, (M, N, K) in (("dot_tn_f16", (61, 63, 59)), ("dot_tn_f16_128x32", (125, 30, 29))):
        at, b, at64, b64 = dot_inputs(t, "f16", (K, M), (K, N))
        c = t.out((M, N), np.float32)
        t.k(var)((1,), c=c, at=t.inp(at), b=t.inp(b), M=M, N=N, K=K)
        t.close(
            "%s: trans(at) @ b, M,N,K=%d,%d,%d" % (var, M, N, K), c, at64.T @ b64, DOT_TOL["f16"]
        )
    for tile in ASYNC_TILES:
        # N and K multiples of 8 (the kernel's promise), not of the tiles.
        for kind in ("async", "cpasync"):
            var = tile_variant("mm_f16_" + kind, tile)
            mm_cases(t, var, t.k(var), "f16", MM8_SHAPES, *tile[:2])
    for var, dt, bm, bn in (
        ("mm_f16_128_w8", "f16", 128, 128),
        ("mm_bf16_128x64", "bf16", 128, 64),
    ):
        M, N, K = 300, 270, 333
        a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
        c = t.out((M, N), np.float32)
        t.k(var)((cdiv(M, bm), cdiv(N, bn)), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K)
        t.close("%s looped matmul M,N,K=%d,%d,%d" % (var, M, N, K), c, a64 @ b64, DOT_TOL[dt])


def mm_cases(t, var, k, dt, shapes, bm, bn, trans=False, nt=False):
    """Runs the looped matmul `var` (grid cdiv(M, bm) x cdiv(N, bn)) on each
    (M, N, K) of `shapes` against float64: c = a @ b; with `trans`
    trans(at) @ trans(bt) from at (K x M) and bt (N x K); with `nt`
    a @ trans(w) from a (M x K) and w (N x K)."""
    for M, N, K in shapes:
        if trans:
            at, bt, at64, bt64 = dot_inputs(t, dt, (K, M), (N, K))
            args, ref = dict(at=t.inp(at), bt=t.inp(bt)), at64.T @ bt64.T
            what = " trans(at) @ trans(bt)"
        elif nt:
            a, w, a64, w64 = dot_inputs(t, dt, (M, K), (N, K))
            args, ref, what = dict(a=t.inp(a), w=t.inp(w)), a64 @ w64.T, " a @ trans(w)"
        else:
            a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
            args, ref, what = dict(a=t.inp(a), b=t.inp(b)), a64 @ b64, ""
        c = t.out((M, N), np.float32)
        k((cdiv(M, bm), cdiv(N, bn)), c=c, M=M, N=N, K=K, **args)
        t.close("%s%s M,N,K=%d,%d,%d" % (var, what, M, N, K), c, ref, DOT_TOL[dt])


def copy_paths(t, var, k, tma, cpasync):
    """On sm_90a PTX: whether the kernel makes bulk tensor copies (TMA) and
    cp.async copies as expected (a silent fallback would test nothing new)."""
    if ".target sm_90a" not in k.ptx:
        return
    n_tma = k.ptx.count("cp.async.bulk.tensor")
    n_cp = k.ptx.count("cp.async.cg.") + k.ptx.count("cp.async.ca.")
    t.record(
        "%s copies: TMA %s, cp.async %s"
        % (var, "yes" if tma else "no", "yes" if cpasync else "no"),
        (n_tma > 0) == tma and (n_cp > 0) == cpasync,
        "%d cp.async.bulk.tensor, %d cp.async in the PTX" % (n_tma, n_cp),
    )


def padded(x, ld, rows):
    """x (r, c) in a row-major rows x ld buffer whose padding (columns c..ld,
    rows r..rows) is NaN: an operand read past its extent poisons the sums."""
    buf = np.full((rows, ld), np.nan, x.dtype)
    buf[: x.shape[0], : x.shape[1]] = x
    return buf


def mm_ptrs_case(t, M, N, K, bk):
    """Inputs of mm_f16_ptrs with lda > K, ldb > N (multiples of 16): the
    kernel's arguments (output poisoned) and the float64 reference."""
    lda, ldb = cdiv(K, 16) * 16 + 16, cdiv(N, 16) * 16 + 16
    a, b, a64, b64 = dot_inputs(t, "f16", (M, K), (K, N))
    c = t.out((M, N), np.float32)
    kw = dict(
        c=c,
        a=t.inp(padded(a, lda, M)),
        b=t.inp(padded(b, ldb, K + bk)),
        M=M,
        N=N,
        K=K,
        lda=lda,
        ldb=ldb,
    )
    return kw, a64 @ b64


def tma_matmul(t, var, cpasync, dt, shapes, bm, bn, **kw):
    """Looped matmul `var` whose operands sm_90a copies by TMA (and by
    cp.async where `cpasync`): its copy paths, then mm_cases."""
    k = t.k(var)
    copy_paths(t, var, k, True, cpasync)
    mm_cases(t, var, k, dt, shapes, bm, bn, **kw)


@test("dot", "bulk tensor copies (TMA) in looped matmuls")
def t_dot_tma(t):
    tol = DOT_TOL["f16"]
    for tile in BF16_ASYNC_TILES:
        # N and K multiples of 8 (the kernel's promise), not of the tiles.
        tma_matmul(t, tile_variant("mm_bf16_async", tile), False, "bf16", MM8_SHAPES, *tile[:2])
    # A by TMA, B by cp.async in the same loop; N and K multiples of 4.
    tma_matmul(t, "mm_tf32_mixed", True, "tf32", MM4_SHAPES, 128, 64)
    tma_matmul(t, "mm_tf32_nt", False, "tf32", MM4_SHAPES, 128, 64, nt=True)
    # trans(at) @ trans(bt): at is K x M (M a multiple of 8), bt is N x K
    # (K a multiple of 8); N ragged.
    for var, bm, bn in (("mm_f16_tt", 128, 128), ("mm_f16_tt_trans", 64, 64)):
        tma_matmul(t, var, False, "f16", MM_TT_SHAPES, bm, bn, trans=True)
    # Loop-carried pointers, padded rows (NaN past K and N), masks on M, N,
    # K, grouped order: M or N below one tile, K below BK, K = 1.
    shapes = ((300, 270, 333), (5, 70, 1), (130, 3, 31), (70, 200, 17), (1, 1, 1), (517, 390, 64))
    for var, bm, bn, bk in (("mm_f16_ptrs", 128, 128, 64), ("mm_f16_ptrs_64", 64, 64, 32)):
        k = t.k(var)
        copy_paths(t, var, k, True, False)
        for M, N, K in shapes:
            kw, ref = mm_ptrs_case(t, M, N, K, bk)
            what = "%s M,N,K=%d,%d,%d lda=%d ldb=%d" % (var, M, N, K, kw["lda"], kw["ldb"])
            k((cdiv(M, bm) * cdiv(N, bn),), **kw)
            t.close(what, kw["c"], ref, tol)
    # No mask: M, N, K multiples of the tile (unbounded extents).
    tma_matmul(t, "mm_f16_nomask", False, "f16", ((256, 384, 192), (128, 128, 64)), 128, 128)


@test("dot", "TMA tensor-map slots: > 8192 programs, 4 streams")
def t_dot_tma_slots(t):
    tol = DOT_TOL["f16"]
    # One module (one slot pool) on 4 streams at once, different inputs:
    # programs of the 4 launches share slot numbers.
    k = t.k("mm_f16_ptrs")
    K0 = 256 if t.small else 2048
    runs = []
    for i in range(4):
        M, N, K = 1000 + 17 * i, 990 - 13 * i, K0 + 8 * i + i % 2
        runs.append(((M, N, K),) + mm_ptrs_case(t, M, N, K, 64))
    streams = [cp.cuda.Stream(non_blocking=True) for _ in range(4)]
    cp.cuda.runtime.deviceSynchronize()  # inputs and poison in place
    for s, ((M, N, K), kw, _) in zip(streams, runs):
        k.launch((cdiv(M, 128) * cdiv(N, 128),), s, **kw)
    for s in streams:
        s.synchronize()
    cp.cuda.runtime.deviceSynchronize()
    for i, ((M, N, K), kw, ref) in enumerate(runs):
        t.close("mm_f16_ptrs on stream %d of 4, M,N,K=%d,%d,%d" % (i, M, N, K), kw["c"], ref, tol)
    if t.small:
        t.record("> 8192 programs: skipped with --small", True)
        return
    # 94 x 94 = 8836 programs of 64 x 64 (two maps each: slots wrap twice).
    M, N, K = 6000, 6000, 40
    a, b, a64, b64 = dot_inputs(t, "f16", (M, K), (K, N))
    ref = a64 @ b64
    k = t.k("mm_f16_ptrs_64")
    lda, ldb = 48, 6016
    c = t.out((M, N), np.float32)
    k(
        (cdiv(M, 64) * cdiv(N, 64),),
        c=c,
        a=t.inp(padded(a, lda, M)),
        b=t.inp(padded(b, ldb, K + 32)),
        M=M,
        N=N,
        K=K,
        lda=lda,
        ldb=ldb,
    )
    t.close("mm_f16_ptrs_64, 8836 programs (1-D grid), M,N,K=%d,%d,%d" % (M, N, K), c, ref, tol)
    del c
    var = "mm_f16_async_64x64x32_w4_s2"
    k = t.k(var)
    copy_paths(t, var, k, True, False)
    c = t.out((M, N), np.float32)
    k((cdiv(M, 64), cdiv(N, 64)), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K)
    t.close("%s, 94 x 94 programs, M,N,K=%d,%d,%d" % (var, M, N, K), c, ref, tol)


def ring_paths(t, var, k, tma, ldmatrix):
    """The kernel pipelines its mma.sync operands through shared memory:
    cp.async (or TMA) copies, ldmatrix reads where expected, no wgmma."""
    n_copies = k.ptx.count("cp.async.bulk.tensor" if tma else "cp.async.cg.")
    n_ld = k.ptx.count("ldmatrix")
    ok = n_copies > 0 and (n_ld > 0) == ldmatrix and "mma.sync" in k.ptx and "wgmma" not in k.ptx
    t.record(
        "%s: %s ring, ldmatrix %s, mma.sync"
        % (var, "TMA" if tma else "cp.async", "yes" if ldmatrix else "no"),
        ok,
        "%d copies, %d ldmatrix in the PTX" % (n_copies, n_ld),
    )


def ring_matmul(t, var, ldmatrix, dt, shapes, bm, bn, **kw):
    """Looped matmul `var` on mma.sync fed by a cp.async ring (by TMA when
    its name says "tma"): its copy paths, then mm_cases."""
    k = t.k(var)
    ring_paths(t, var, k, "tma" in var, ldmatrix)
    mm_cases(t, var, k, dt, shapes, bm, bn, **kw)


@test("dot", "cp.async rings feeding mma.sync (sm_80 PTX; 64-row tiles on sm_90a)")
def t_dot_mma_sync_rings(t):
    # N and K multiples of 8 (the kernel's promise), not of the tiles.
    shapes = MM8_SHAPES + ((1, 8, 1000),)
    for tile in RING80_TILES:
        ring_matmul(t, tile_variant("mm_f16_ring80", tile), True, "f16", shapes, *tile[:2])
    ring_matmul(t, "mm_f16_mma_sm90_64x128x32_w8", True, "f16", shapes, 64, 128)
    ring_matmul(t, "mm_bf16_ring80", True, "bf16", shapes, 128, 128)
    ring_matmul(t, "mm_tf32_ring80", False, "tf32", MM4_SHAPES, 128, 64)
    ring_matmul(t, "mm_f16_tt_ring80", True, "f16", MM_TT_SHAPES, 128, 128, trans=True)
    ring_matmul(t, "mm_tf32_nt_ring80", False, "tf32", MM4_SHAPES, 128, 64, nt=True)
    # trans() of a loaded tile: staged as loaded, read through a view.
    ring_matmul(t, "mm_f16_tt_trans_ring80", True, "f16", MM_TT_SHAPES, 64, 64, trans=True)
