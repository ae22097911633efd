"""The kernels of examples/*.tile against float64 references."""
import math

from checks.harness import bf16_from_f64, bf16_to_f64, cdiv, np, test


@test("examples", "vector_add")
def t_vector_add(t):
    k = t.k("vector_add")
    for n in t.sizes:
        x, y = (t.randn(n) for _ in range(2))
        o = t.out(n, np.float32)
        k((cdiv(n, 1024),), out=o, x=t.inp(x), y=t.inp(y), n=n)
        t.exact("n=%d" % n, o, x + y)


def softmax_ref(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@test("examples", "softmax")
def t_softmax(t):
    # (variant, rows, n_cols, in_stride, out_stride); softmax_div is compiled
    # with --divisible=in_stride,out_stride,n_cols (16-byte rows, no masking).
    # fmt: off
    for var, rows, n_cols, si, so in (
            ("softmax", 37, 1000, 1003, 1001), ("softmax", 3, 1, 4, 2),
            ("softmax_b2048", 5, 1999, 2002, 2000), ("softmax_w8", 6, 777, 780, 778),
            ("softmax_w1", 4, 200, 203, 201), ("softmax_div", 9, 1024, 1040, 1056)):
        # fmt: on
        k = t.k(var)
        x = (3 * t.rng.standard_normal((rows, si))).astype(np.float32)
        o = t.out((rows, so), np.float32)
        k((rows,), out=o, inp=t.inp(x), in_stride=si, out_stride=so, n_cols=n_cols)
        cols = np.broadcast_to(np.arange(so)[None, :] < n_cols, (rows, so))
        ref = np.zeros((rows, so))
        ref[:, :n_cols] = softmax_ref(x[:, :n_cols])
        t.close("%s rows=%d n_cols=%d" % (var, rows, n_cols), o, ref, 1e-5, where=cols)
        t.untouched("%s padding column untouched" % var, o, ~cols)


@test("examples", "gelu")
def t_gelu(t):
    # gelu_div is compiled with --divisible=n: sizes that are multiples of 16.
    for var, sizes in (("gelu", t.sizes), ("gelu_div", (16, 4096, 65536))):
        k = t.k(var)
        for n in sizes:
            x = (2 * t.rng.standard_normal(n)).astype(np.float16)
            o = t.out(n, np.float16)
            k((cdiv(n, 1024),), out=o, inp=t.inp(x), n=n)
            v = x.astype(np.float64)
            ref = 0.5 * v * (1 + np.tanh(0.7978845608028654 * (v + 0.044715 * v**3)))
            t.close("%s n=%d f16" % (var, n), o, ref, 2e-3, fmt="f16")


@test("examples", "matmul")
def t_matmul(t):
    for var, bm, bn in (("matmul", 128, 128), ("matmul_64", 64, 64)):
        k = t.k(var)
        for M, N, K, layout in ((300, 200, 100, "row"), (129, 65, 40, "strided")):
            a = t.rng.standard_normal((M, K)).astype(np.float16)
            b = t.rng.standard_normal((K, N)).astype(np.float16)
            if layout == "row":
                ad, sam, sak = a, K, 1
                bd, sbk, sbn = b, N, 1
                scm = N
            else:  # padded A rows, column-major B, padded C rows
                ad = np.zeros((M, K + 3), np.float16)
                ad[:, :K] = a
                sam, sak = K + 3, 1
                bd, sbk, sbn = np.ascontiguousarray(b.T), 1, K
                scm = N + 5
            c = t.out((M, scm), np.float32)
            grid = cdiv(M, bm) * cdiv(N, bn)
            strides = dict(stride_am=sam, stride_ak=sak, stride_bk=sbk, stride_bn=sbn)
            k(
                (grid,),
                c=c,
                a=t.inp(ad),
                b=t.inp(bd),
                M=M,
                N=N,
                K=K,
                stride_cm=scm,
                stride_cn=1,
                **strides
            )
            ref = np.zeros((M, scm))
            ref[:, :N] = a.astype(np.float64) @ b.astype(np.float64)
            cols = np.broadcast_to(np.arange(scm)[None, :] < N, (M, scm))
            t.close("%s %s M,N,K=%d,%d,%d" % (var, layout, M, N, K), c, ref, 1e-2, where=cols)
            if scm > N:
                t.untouched("%s C padding untouched" % var, c, ~cols)


CONV_CASES = {
    # variant: (BLOCK_M, BLOCK_N, shapes (N, H, W, C, K, stride, pad))
    "conv2d": (64, 64, ((2, 9, 9, 20, 70, 1, 1), (1, 11, 10, 40, 16, 2, 0))),
    "conv2d_c32": (128, 64, ((2, 9, 9, 48, 80, 1, 1), (3, 7, 11, 96, 32, 2, 1))),
    "conv2d_c64": (
        128,
        64,
        ((2, 9, 9, 48, 80, 1, 1), (3, 7, 11, 160, 48, 2, 0), (1, 14, 14, 64, 64, 1, 1)),
    ),
    "conv2d_c32_w8": (
        128,
        128,
        ((2, 9, 9, 48, 80, 1, 1), (3, 7, 11, 96, 32, 2, 1), (2, 56, 56, 64, 64, 1, 1)),
    ),
    "conv2d_128x128_s4": (128, 128, ((2, 9, 9, 48, 80, 1, 1), (3, 7, 11, 96, 160, 2, 1))),
    "conv2d_64x64_s4": (64, 64, ((2, 9, 9, 48, 80, 1, 1), (3, 7, 11, 160, 48, 2, 0))),
}


@test("examples", "conv2d NHWC")
def t_conv2d(t):
    for variant, (bm, bn, cases) in CONV_CASES.items():
        conv2d_cases(t, variant, bm, bn, cases)


def conv2d_cases(t, variant, bm, bn, cases):
    k = t.k(variant)
    for N, H, W, C, K, sh, ph in cases:
        R = S = 3
        P, Q = (H + 2 * ph - R) // sh + 1, (W + 2 * ph - S) // sh + 1
        x = t.rng.standard_normal((N, H, W, C)).astype(np.float16)
        w = t.rng.standard_normal((K, R, S, C)).astype(np.float16)
        o = t.out((N, P, Q, K), np.float32)
        grid = (cdiv(N * P * Q, bm), cdiv(K, bn))
        dims = dict(N=N, H=H, W=W, C=C, K=K, P=P, Q=Q)
        k(grid, out=o, x=t.inp(x), w=t.inp(w), stride_h=sh, stride_w=sh, pad_h=ph, pad_w=ph, **dims)
        xp = np.zeros((N, H + 2 * ph, W + 2 * ph, C))
        xp[:, ph : ph + H, ph : ph + W, :] = x
        w64 = w.astype(np.float64)
        ref = np.zeros((N, P, Q, K))
        for r in range(R):
            for s in range(S):
                xs = xp[:, r : r + sh * (P - 1) + 1 : sh, s : s + sh * (Q - 1) + 1 : sh, :]
                ref += np.einsum("npqc,kc->npqk", xs, w64[:, r, s, :])
        t.close(
            "%s N,H,W,C,K=%d,%d,%d,%d,%d stride %d pad %d" % (variant, N, H, W, C, K, sh, ph),
            o,
            ref,
            1e-2,
        )


@test("examples", "layernorm")
def t_layernorm(t):
    for var, dt, fmt, tol in (
        ("layernorm", np.float16, "f16", 2e-3),
        ("layernorm_f32", np.float32, "f32", 1e-5),
    ):
        t_layernorm_type(t, t.k(var), dt, fmt, tol)


def t_layernorm_type(t, k, dt, fmt, tol):
    for rows, n_cols in ((7, 1500), (3, 1000)):
        stride = n_cols + 11
        x = (t.rng.standard_normal((rows, stride)) * 2 + 1).astype(dt)
        w = t.rng.standard_normal(n_cols).astype(dt)
        b = t.rng.standard_normal(n_cols).astype(dt)
        y = t.out((rows, stride), dt)
        mo, ro = t.outs(2, rows, np.float32)
        eps = 1e-5
        ins = dict(x=t.inp(x), weight=t.inp(w), bias=t.inp(b))
        k((rows,), y=y, mean_out=mo, rstd_out=ro, stride=stride, n_cols=n_cols, eps=eps, **ins)
        v = x[:, :n_cols].astype(np.float64)
        mean = v.mean(1)
        rstd = 1 / np.sqrt(v.var(1) + eps)
        ref = np.zeros((rows, stride))
        ref[:, :n_cols] = (v - mean[:, None]) * rstd[:, None] * w.astype(np.float64) + b
        cols = np.broadcast_to(np.arange(stride)[None, :] < n_cols, (rows, stride))
        t.close("rows=%d n_cols=%d mean" % (rows, n_cols), mo, mean, 1e-5)
        t.close("rows=%d n_cols=%d rstd" % (rows, n_cols), ro, rstd, 1e-5)
        what = "rows=%d n_cols=%d y (%s)" % (rows, n_cols, fmt)
        t.close(what, y, ref, tol, fmt=fmt, where=cols)
        t.untouched("y padding untouched", y, ~cols)


@test("examples", "online_softmax")
def t_online_softmax(t):
    k = t.k("online_softmax")
    for rows, n_cols in ((5, 5000), (3, 2048), (2, 77)):
        stride = n_cols + 2
        x = (3 * t.rng.standard_normal((rows, stride))).astype(np.float32)
        o = t.out((rows, stride), np.float32)
        k((rows,), out=o, inp=t.inp(x), stride=stride, n_cols=n_cols)
        ref = np.zeros((rows, stride))
        ref[:, :n_cols] = softmax_ref(x[:, :n_cols])
        cols = np.broadcast_to(np.arange(stride)[None, :] < n_cols, (rows, stride))
        t.close("rows=%d n_cols=%d" % (rows, n_cols), o, ref, 1e-5, where=cols)


@test("examples", "attention")
def t_attention(t):
    for var, causal, D, fmt, BM in (
        ("attention", False, 64, "f16", 64),
        ("attention_causal", True, 64, "f16", 64),
        ("attention_bf16", False, 64, "bf16", 64),
        ("attention_bf16_d128_causal", True, 128, "bf16", 64),
        # 131 KB of shared memory: one block per SM (the ring's copies are
        # issued at the end of the body, pipeline-async.mlir).
        ("attention_d128_bm128_w8", False, 128, "f16", 128),
        ("attention_d128_bm128_w8_causal", True, 128, "f16", 128),
    ):
        k = t.k(var)
        for BH, S in ((3, 200), (2, 64)):
            if fmt == "f16":
                q, kk, v = (t.rng.standard_normal((BH, S, D)).astype(np.float16) for _ in range(3))
                o = t.out((BH, S, D), np.float16)
            else:  # bf16 as raw bits (uint16); the reference reads them back
                bits = [bf16_from_f64(t.rng.standard_normal((BH, S, D))) for _ in range(3)]
                q, kk, v = bits
                o = t.out((BH, S, D), np.uint16)
            scale = 1 / math.sqrt(D)
            qkv = dict(q=t.inp(q), k=t.inp(kk), v=t.inp(v))
            k(
                (cdiv(S, BM), BH),
                out=o,
                seq_len=S,
                stride_bh=S * D,
                stride_s=D,
                sm_scale=scale,
                **qkv
            )
            q, kk, v = (bf16_to_f64(a) if fmt == "bf16" else a for a in (q, kk, v))
            s = np.einsum("bid,bjd->bij", q.astype(np.float64), kk.astype(np.float64)) * scale
            if causal:
                s = np.where(np.arange(S)[None, :, None] >= np.arange(S)[None, None, :], s, -np.inf)
            p = softmax_ref(s)
            ref = np.einsum("bij,bjd->bid", p, v.astype(np.float64))
            tol = 1e-2 if fmt == "f16" else 3e-2
            t.close("%s BH=%d seq=%d" % (var, BH, S), o, ref, tol, fmt=fmt)


@test("examples", "transpose (bench/kernels/transpose.tile; f32, f16 32x32)")
def t_transpose(t):
    for var, dt, bm, bn in (
        ("transpose_f32", np.float32, 64, 64),
        ("transpose_f16_32x32", np.float16, 32, 32),
    ):
        k = t.k(var)
        for M, N in ((200, 333), (64, 128), (1, 70)):
            x = t.rng.standard_normal((M, N)).astype(dt)
            y = t.out((N, M), dt)
            k((cdiv(M, bm), cdiv(N, bn)), out=y, inp=t.inp(x), M=M, N=N, stride_in=N, stride_out=M)
            t.close(
                "%s %dx%d" % (var, M, N),
                y,
                x.T.astype(np.float64),
                0.0,
                fmt="f32" if dt == np.float32 else "f16",
            )
