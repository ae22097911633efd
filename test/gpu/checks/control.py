"""if/for/while, static_range, helpers (test/gpu/control.tile)."""
from checks.harness import cdiv, np, test


@test("control", "if/elif/else merged values")
def t_if_merge(t):
    k = t.k("if_merge")
    n = 1000
    g = cdiv(n, 128)
    x = t.randn(n)
    o, ks = t.out(n, np.float32), t.out(g, np.int32)
    k((g,), out=o, ks=ks, x=t.inp(x), n=n)
    p = np.arange(n) // 128
    ref = np.where(p % 3 == 0, x * 2, np.where(p % 3 == 1, x + 1, -x))
    ref = np.where(p == 4, 4.0, ref).astype(np.float32)
    t.exact("block merged from 3 branches (+ if without else)", o, ref)
    pk = np.arange(g)
    t.exact(
        "scalar merged from 3 branches",
        ks,
        np.where(pk % 3 == 0, 10, np.where(pk % 3 == 1, 20, 30)) + (pk == 4),
    )


@test("control", "if on runtime param and constexpr")
def t_if_param(t):
    n = 4097
    x = t.randn(n)
    x64 = x.astype(np.float64)
    for var, flag in (("if_param", 1), ("if_param_flag0", 0)):
        k = t.k(var)
        for mode in (0, 1, 2):
            o = t.out(n, np.float32)
            k((cdiv(n, 256),), out=o, x=t.inp(x), n=n, mode=mode)
            v = x64 if mode == 0 else (x64 * x64 if mode == 1 else x64**3)
            t.close("FLAG=%d mode=%d" % (flag, mode), o, v + (0.5 if flag else -0.5), 1e-6)


@test("control", "for-range loops, loop-carried values")
def t_for(t):
    k = t.k("for_loops")
    R, n_cols, reps = 5, 1000, 7
    x = t.rng.uniform(0, 1, (R, n_cols)).astype(np.float32)
    o, c = t.out(R, np.float32), t.out((R, 3), np.int32)
    k((R,), out=o, cnts=c, x=t.inp(x), n_cols=n_cols, reps=reps)
    t.close("chunked row sum (carried block)", o, x.astype(np.float64).sum(1), 1e-5)
    rr = list(range(3, n_cols, 5))
    tt = sum(i * j for i in range(reps) for j in range(i, reps))
    t.exact(
        "range(3, n, 5) count/sum, nested loops", c, np.broadcast_to([len(rr), sum(rr), tt], (R, 3))
    )


@test("control", "while loops")
def t_while(t):
    k = t.k("while_loops")
    P, lim = 6, 50.0
    x = t.rng.uniform(0.01, 1, (P, 64)).astype(np.float32)
    c, o = t.out(P, np.int32), t.out((P, 64), np.float32)
    k((P,), cnt=c, out=o, x=t.inp(x), lim=lim)
    t.exact(
        "scalar carry: halvings until 0", c, [int((p + 1) * 1000).bit_length() for p in range(P)]
    )
    ks = []
    for r in x:
        m, kk = np.float32(r.max()), 0
        while m < lim:
            m, kk = m * np.float32(2), kk + 1
        ks.append(kk)
    ks = np.array(ks)[:, None]
    t.exact("block carry doubled while max < lim", o, (x * 2.0**ks + ks).astype(np.float32))


@test("control", "static_range")
def t_static(t):
    k = t.k("static_loops")
    for n in t.sizes:
        x = t.randn(n)
        x64 = x.astype(np.float64)
        o, o2 = t.outs(2, n, np.float32)
        k((cdiv(n, 256),), out=o, out2=o2, x=t.inp(x), n=n)
        t.close("n=%d sum_i (i+1)*x" % n, o, 10 * x64, 1e-6)
        t.close("n=%d nested, constexpr if i == j" % n, o2, 2 * x64 + 7, 1e-6)


@test("control", "helpers returning tuples, augmented assignment")
def t_helpers(t):
    k = t.k("helpers")
    for n in t.sizes:
        g = cdiv(n, 512)
        x = t.rng.uniform(-1, 1, n).astype(np.float32)
        o, st = t.out(n, np.float32), t.out((g, 3), np.float32)
        k((g,), out=o, st=st, x=t.inp(x), n=n)
        x64 = x.astype(np.float64)
        t.close("n=%d y = ((2x+1)+1-0.5)*3/2" % n, o, ((x64 * 2 + 1) + 0.5) * 1.5, 1e-6)
        xp = np.zeros(g * 512)
        xp[:n] = x64
        xp = xp.reshape(g, 512)
        ref = np.stack([xp.sum(1), xp.sum(1), xp.max(1) - xp.min(1)], 1)
        t.close("n=%d tuple results (sum, sum, max-min)" % n, st, ref, 1e-5)
