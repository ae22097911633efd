"""Triton's atomic set: add/max/min/and/or/xor/xchg/cas with masks, old values,
contention, scalar and replicated old values, a spin lock (test/gpu/atomics.tile)."""
from functools import reduce

from checks.harness import bf16_to_f64, cdiv, np, test

NB = 7


def bins_of(n):
    """Lane index, bin and activity (i < n and i % 5 != 0) of the bin kernels."""
    i = np.arange(n)
    return i, i % NB, i % 5 != 0


def per_bin(values, b, act, fn, init):
    """fn folded over the active values of each bin, starting at init."""
    return [reduce(fn, values[act & (b == k)].tolist(), init) for k in range(NB)]


def check_add_chain(t, what, olds, v, b, act):
    """In each bin, the old values of the adds sorted are 0, then each plus the
    value of the lane that got it (positive values: a chain); masked lanes 0."""
    ok = bool((olds[~act] == 0).all())
    for k in range(NB):
        sel = act & (b == k)
        o, vv = olds[sel], v[sel]
        order = np.argsort(o, kind="stable")
        o, vv = o[order], vv[order]
        ok &= len(o) == 0 or (o[0] == 0 and (o[1:] == (o[:-1] + vv[:-1])).all())
    t.record(what, ok)


def check_xchg(t, what, xolds, final, init, b, act, newval):
    """Per bin, {init} + the values swapped in == the old values + the final one."""
    ok = True
    for k in range(NB):
        sel = act & (b == k)
        a = np.sort(np.concatenate([[init], newval[sel]]))
        c = np.sort(np.concatenate([xolds[sel], [final[k]]]))
        ok &= bool((a == c).all())
    t.record(what, ok)


def run_int_ops(t, variant, dt, udt):
    k = t.k(variant)
    wrap = 1 << (np.dtype(dt).itemsize * 8)
    lo, hi, umax = np.iinfo(dt).min, np.iinfo(dt).max, np.iinfo(udt).max
    for n in t.sizes:
        i, b, act = bins_of(n)
        v = t.rng.integers(lo // 2, hi // 2, n, dtype=dt)
        v[::3] = t.rng.integers(-1000, 1000, len(v[::3]), dtype=dt)
        inits = dict(
            add=np.zeros(NB, dt),
            mx=np.full(NB, lo, dt),
            mn=np.full(NB, hi, dt),
            umx=np.zeros(NB, udt),
            umn=np.full(NB, umax, udt),
            an=np.full(NB, -1, dt),
            orr=np.zeros(NB, dt),
            xo=np.zeros(NB, dt),
            xc=np.full(NB, -1, dt),
        )
        bufs = {name: t.inp(a) for name, a in inits.items()}
        olds, xolds = t.out(n, dt), t.out(n, dt)
        k((cdiv(n, 256),), olds=olds, xolds=xolds, x=t.inp(v), n=n, **bufs)
        got = {name: t.get(a) for name, a in bufs.items()}
        w = "%s n=%d " % (variant, n)
        u = v.astype(udt)
        sums = per_bin(v.astype(object), b, act, lambda p, q: p + q, 0)
        t.exact(w + "add (wraps)", got["add"].astype(udt), [s % wrap for s in sums])
        t.exact(w + "max", got["mx"], per_bin(v, b, act, max, lo))
        t.exact(w + "min (relaxed)", got["mn"], per_bin(v, b, act, min, hi))
        t.exact(w + "umax", got["umx"], per_bin(u, b, act, max, udt(0)))
        t.exact(w + "umin (release)", got["umn"], per_bin(u, b, act, min, udt(umax)))
        t.exact(w + "and (acquire)", got["an"], per_bin(v, b, act, lambda p, q: p & q, dt(-1)))
        t.exact(w + "or", got["orr"], per_bin(v, b, act, lambda p, q: p | q, dt(0)))
        t.exact(w + "xor (sys)", got["xo"], per_bin(v, b, act, lambda p, q: p ^ q, dt(0)))
        t.exact(w + "masked lanes' old values are 0", t.get(olds)[~act], 0)
        check_xchg(
            t, w + "xchg old values", t.get(xolds), got["xc"], dt(-1), b, act, (i + 1).astype(dt)
        )


def t_int_ops(t, sfx):
    run_int_ops(t, "int_ops" + sfx, np.int32, np.uint32)


def t_int64_ops(t, sfx):
    run_int_ops(t, "int64_ops" + sfx, np.int64, np.uint64)


def t_add_chain(t, sfx):
    k = t.k("int_ops" + sfx)
    for n in t.sizes:
        i, b, act = bins_of(n)
        v = t.rng.integers(1, 1000, n).astype(np.int32)
        bufs = dict(
            add=np.zeros(NB, np.int32),
            mx=np.zeros(NB, np.int32),
            mn=np.zeros(NB, np.int32),
            umx=np.zeros(NB, np.uint32),
            umn=np.zeros(NB, np.uint32),
            an=np.zeros(NB, np.int32),
            orr=np.zeros(NB, np.int32),
            xo=np.zeros(NB, np.int32),
            xc=np.zeros(NB, np.int32),
        )
        bufs = {name: t.inp(a) for name, a in bufs.items()}
        olds, xolds = t.out(n, np.int32), t.out(n, np.int32)
        k((cdiv(n, 256),), olds=olds, xolds=xolds, x=t.inp(v), n=n, **bufs)
        check_add_chain(t, "n=%d add old values chain per bin" % n, t.get(olds), v, b, act)


def t_float_ops(t, sfx):
    k = t.k("float_ops" + sfx)
    for n in t.sizes:
        i, b, act = bins_of(n)
        x = t.randn(n) * 8
        x[x == 0] = 1.0
        add, add64, addh, addb = (
            t.inp(np.zeros(NB, np.float32)),
            t.inp(np.zeros(NB)),
            t.inp(np.zeros(NB, np.float16)),
            t.inp(np.zeros(NB, np.uint16)),  # bf16 bits
        )
        mx, mn = t.inp(np.full(NB, -np.inf, np.float32)), t.inp(np.full(NB, np.inf, np.float32))
        mx64, mn64 = t.inp(np.full(NB, -np.inf)), t.inp(np.full(NB, np.inf))
        xc = t.inp(np.full(NB, 1e30, np.float32))
        maxolds = t.out(n, np.float32)
        k(
            (cdiv(n, 256),),
            add=add,
            mx=mx,
            mn=mn,
            add64=add64,
            mx64=mx64,
            mn64=mn64,
            addh=addh,
            addb=addb,
            xc=xc,
            maxolds=maxolds,
            x=t.inp(x),
            n=n,
        )
        xd = x.astype(np.float64)
        w = "n=%d " % n
        sums = np.array([xd[act & (b == j)].sum() for j in range(NB)])
        t.close(w + "f32 add", add, sums, 1e-5)
        t.close(w + "f64 add", add64, sums, 1e-12, fmt="f64")
        t.exact(
            w + "f32 max", mx, [max([-np.inf] + xd[act & (b == j)].tolist()) for j in range(NB)]
        )
        t.exact(w + "f32 min", mn, [min([np.inf] + xd[act & (b == j)].tolist()) for j in range(NB)])
        t.exact(
            w + "f64 max", mx64, [max([-np.inf] + xd[act & (b == j)].tolist()) for j in range(NB)]
        )
        t.exact(
            w + "f64 min", mn64, [min([np.inf] + xd[act & (b == j)].tolist()) for j in range(NB)]
        )
        # f16 holds every integer up to 2048, bf16 up to 256: while no
        # partial sum can pass that (the bin's sum of |q|), any order of the
        # adds is exact; past it, each add may round by half the spacing at
        # that sum, so a bin of m adds is off by at most m times that, in
        # whatever order the atomics ran (a relative tolerance guessed from
        # one order failed in another: 2.2e-2 against 2e-2).
        q = np.floor(x * np.float32(0.25)).astype(np.float64)
        qsums = [q[act & (b == j)].sum() for j in range(NB)]
        sizes = [np.abs(q[act & (b == j)]).sum() for j in range(NB)]
        counts = [np.count_nonzero(act & (b == j)) for j in range(NB)]
        for name, buf, exact_to, mantissa, to_f64 in (
            ("f16", addh, 2048, 10, lambda a: a.astype(np.float64)),
            ("bf16", addb, 256, 7, bf16_to_f64),
        ):
            got = to_f64(t.get(buf))
            if max(sizes) <= exact_to:
                t.exact(w + name + " add of small integers (exact)", got, qsums)
                continue
            # Spacing at |s|: 2^(floor(log2 |s|) - mantissa bits).
            limits = [
                m * 2.0 ** (np.floor(np.log2(max(size, 1.0))) - mantissa) / 2
                for m, size in zip(counts, sizes)
            ]
            errors = np.abs(got - np.array(qsums))
            worst = int(np.argmax(errors - np.array(limits)))
            t.record(
                w + name + " add of small integers (rounding)",
                bool(np.all(errors <= limits)),
                "bin %d: got %r want %r, %d adds, bound %g"
                % (worst, got[worst], qsums[worst], counts[worst], limits[worst]),
            )
        t.exact(w + "f32 max: masked lanes' old values are 0", t.get(maxolds)[~act], 0)
        fin = t.get(xc)
        kept = []
        for j in range(NB):
            sel = act & (b == j)
            kept.append(fin[j] in set(x[sel].tolist()) if sel.any() else fin[j] == np.float32(1e30))
        t.record(w + "f32 xchg leaves a value of the bin", all(kept))


def t_cas(t, sfx):
    k = t.k("cas_ops" + sfx)
    for n in t.sizes:
        x0 = t.rng.integers(0, 4, n).astype(np.int32)
        cmp = t.rng.integers(0, 4, n).astype(np.int32)
        val = t.rng.integers(100, 200, n).astype(np.int32)
        h0 = t.rng.integers(0, 4, n).astype(np.float16)
        hcmp = t.rng.integers(0, 4, n).astype(np.float16)
        hval = (t.rng.integers(0, 64, n) / 8).astype(np.float16)
        x, h = t.inp(x0), t.inp(h0)
        old, hold = t.out(n, np.int32), t.out(n, np.float16)
        k(
            (cdiv(n, 256),),
            x=x,
            cmp=t.inp(cmp),
            val=t.inp(val),
            old=old,
            h=h,
            hcmp=t.inp(hcmp),
            hval=t.inp(hval),
            hold=hold,
            n=n,
        )
        t.exact("n=%d i32 old" % n, old, x0)
        t.exact("n=%d i32 swapped where equal" % n, x, np.where(x0 == cmp, val, x0))
        t.exact("n=%d f16 old" % n, t.get(hold).astype(np.float64), h0.astype(np.float64))
        t.exact(
            "n=%d f16 swapped where equal" % n,
            t.get(h).astype(np.float64),
            np.where(h0 == hcmp, hval, h0).astype(np.float64),
        )


def t_tickets(t, sfx):
    k = t.k("tickets" + sfx)
    for g in (1, 37, 2000):
        counter = t.inp(np.zeros(1, np.int32))
        out = t.out((g, 128), np.int32)
        k((g,), counter=counter, out=out)
        o = t.get(out)
        rows_uniform = bool((o == o[:, :1]).all())
        t.record("grid=%d each row written whole by one program" % g, rows_uniform)
        t.exact(
            "grid=%d rows are a permutation of the programs" % g, np.sort(o[:, 0]), np.arange(g)
        )
        t.exact("grid=%d counter" % g, counter, [g])


def t_replicated(t, sfx):
    k = t.k("replicated_olds" + sfx)
    g = 64
    c = t.inp(np.zeros(32, np.int32))
    out = t.out((g, 32), np.int32)
    k((g,), c=c, out=out)
    o = t.get(out)
    t.exact("counts", c, np.full(32, g))
    t.exact(
        "per element, the old values are 0..grid-1",
        np.sort(o, axis=0),
        np.repeat(np.arange(g)[:, None], 32, axis=1),
    )


def t_spin_lock(t, sfx):
    k = t.k("spin_lock" + sfx)
    for g, N in ((1, 100), (300, 256), (2000, 77)):
        x = t.randn((g, N))
        lock, count = t.inp(np.zeros(1, np.int32)), t.inp(np.zeros(1, np.int32))
        acc = t.inp(np.zeros(256, np.float32))
        k((g,), lock=lock, acc=acc, count=count, x=t.inp(x), N=N)
        t.exact("grid=%d count (no lost update)" % g, count, [g])
        t.exact("grid=%d lock released" % g, lock, [0])
        t.close("grid=%d acc = column sums" % g, t.get(acc)[:N], x.astype(np.float64).sum(0), 1e-5)


ATOMIC_TESTS = (
    ("integer atomics i32/u32 (contention, masks, sem/scope)", t_int_ops),
    ("integer atomics i64/u64", t_int64_ops),
    ("add chain: old values of positive adds", t_add_chain),
    ("float atomics add/max/min/xchg f32 f64 f16", t_float_ops),
    ("atomic_cas i32 and f16 per element", t_cas),
    ("scalar old value used by every thread (tickets)", t_tickets),
    ("replicated block: old values of copies", t_replicated),
    ("spin lock (atomic_cas / atomic_xchg), many programs", t_spin_lock),
)
for _suffix, _what in (("", ""), ("_sm80", " (sm_80 code)")):
    for _name, _fn in ATOMIC_TESTS:
        test("atomics", _name + _what)(lambda t, f=_fn, s=_suffix: f(t, s))
