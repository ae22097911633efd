"""The same-source, same-config families of issue 21 (run_bench.py --only
attention,mmsweep,transpose,layernorm; not in the default run): our kernel
(the bundle's PTX of a variants.py variant) against a Triton kernel of the
same source with the same block sizes, num_warps and num_stages
(bench/peers.py), and a library peer of the same work (torch's
scaled_dot_product_attention with its fastest backend, a torch copy of the
same bytes, torch's layer_norm), all in this one process.

Per case: every implementation is checked first (outputs poisoned with NaN,
float64 reference), then timed ROUNDS times with triton.testing.do_bench (L2
flushed, median), the order rotating every round. A row per implementation
and configuration: `ms` is the median of its rounds, `spread` their
(max - min) / median; ours carries `vs_triton` (Triton's ms / ours: above 1
is faster) with its per-round min and max, and `vs_lib`. A variant that
tilec failed to compile keeps its row, with the compiler's message.

The same case builders check each kernel of ours at a small size in a child
process first (`preflight`, called by ours.preflight_family).
"""
import json
import statistics
import traceback

from ours import Ours, load_manifest
from variants import (
    ATTN_CONFIGS,
    MMSWEEP_CONFIGS,
    TOL,
    TRANSPOSE_TILES,
    attention_variant_name,
    family,
    layernorm_configs,
    layernorm_variant_name,
    mmsweep_variant_name,
    sizes,
    transpose_variant_name,
)

ROUNDS = 5
REP_MS = 40
LN_EPS = 1e-5


def cdiv(a, b):
    return -(-a // b)


def relerr(torch, out, ref):
    """(||out - ref|| / ||ref||, NaN count), NaNs counted as 0."""
    o = out.double()
    nan = int(torch.isnan(o).sum().item())
    o = torch.nan_to_num(o, nan=0.0)
    return ((o - ref).norm() / ref.norm()).item(), nan


def tdtype(torch, dt):
    return {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[dt]


# ---------------------------------------------------------------- cases
# Each returns inputs, the float64 reference and, per implementation,
# launchers; used by the main run and by the preflight (small sizes).
def attention_inputs(torch, BH, S, D, dt):
    return [(torch.randn(BH, S, D, device="cuda") * 0.5).to(tdtype(torch, dt)) for _ in range(3)]


def attention_ref(torch, q, k, v, sm_scale, causal, heads, chunk=2048):
    """float64 attention of the heads `heads`, `chunk` queries at a time."""
    S = q.shape[1]
    out = []
    for h in heads:
        qh, kh, vh = q[h].double(), k[h].double(), v[h].double()
        o = torch.empty_like(qh)
        for i in range(0, S, chunk):
            s = (qh[i : i + chunk] @ kh.T) * sm_scale
            if causal:
                rows = torch.arange(i, min(i + chunk, S), device="cuda")[:, None]
                s.masked_fill_(torch.arange(S, device="cuda")[None, :] > rows, float("-inf"))
            o[i : i + chunk] = torch.softmax(s, dim=-1) @ vh
        out.append(o)
    return torch.stack(out)


def bind_attention(k, out, q, kk, v, sm_scale):
    BH, S, _ = q.shape
    grid = (cdiv(S, k.v["defines"]["BLOCK_M"]), BH)
    return k.bind(
        grid,
        out=out,
        q=q,
        k=kk,
        v=v,
        seq_len=S,
        stride_bh=q.stride(0),
        stride_s=q.stride(1),
        sm_scale=sm_scale,
    )


def bind_matmul(k, c, a, b):
    (M, K), N = a.shape, b.shape[1]
    d = k.v["defines"]
    g = cdiv(M, d["BLOCK_M"]) * cdiv(N, d["BLOCK_N"])
    strides = dict(stride_am=a.stride(0), stride_bk=b.stride(0), stride_cm=c.stride(0))
    return k.bind((g,), c=c, a=a, b=b, M=M, N=N, K=K, **strides)


def bind_transpose(k, y, x):
    M, N = x.shape
    d = k.v["defines"]
    grid = (cdiv(M, d["BLOCK_M"]), cdiv(N, d["BLOCK_N"]))
    return k.bind(grid, out=y, inp=x, M=M, N=N, stride_in=x.stride(0), stride_out=y.stride(0))


def layernorm_inputs(torch, M, N, dt):
    t = tdtype(torch, dt)
    x = (-2.3 + 0.5 * torch.randn(M, N, device="cuda")).to(t)
    w = torch.rand(N, device="cuda").to(t)
    b = torch.rand(N, device="cuda").to(t)
    return x, w, b


def layernorm_ref(torch, x, w, b):
    """(y, mean, rstd) in float64."""
    xd = x.double()
    mean = xd.mean(dim=1)
    var = ((xd - mean[:, None]) ** 2).mean(dim=1)
    rstd = 1 / torch.sqrt(var + LN_EPS)
    return (xd - mean[:, None]) * rstd[:, None] * w.double() + b.double(), mean, rstd


def bind_layernorm(k, outs, x, w, b):
    y, mean, rstd = outs
    M, N = x.shape
    return k.bind(
        (M,),
        y=y,
        x=x,
        weight=w,
        bias=b,
        mean_out=mean,
        rstd_out=rstd,
        stride=x.stride(0),
        n_cols=N,
        eps=LN_EPS,
    )


def layernorm_err(torch, outs, refs):
    """The worst relative error of y, mean and rstd, and their NaNs."""
    errs = [relerr(torch, o, r) for o, r in zip(outs, refs)]
    return max(e for e, _ in errs), sum(n for _, n in errs)


# ---------------------------------------------------------------- the main run
class SameSourceFamilies:
    """The families' methods of families.Bench (its self.torch, self.peers,
    self.ours(variant), self.res, self._do_bench, self.man)."""

    def ours_or_error(self, var):
        """(kernel, None), or (None, why) when the variant cannot run: tilec's
        message when it did not compile."""
        v = self.man.get(var)
        if v is not None and v.get("rc", 0) != 0:
            return None, "tilec failed (%s): %s" % (v.get("tilec_cmd"), v.get("error", "?"))
        try:
            return self.ours(var), None
        except Exception as ex:  # noqa: BLE001
            return None, "%s: %s" % (type(ex).__name__, str(ex)[:600])

    def add_ours(self, impls, var, config, bind, outs, check, tol):
        """Our variant `var` (its settings `config`, the text of the rows) as
        an implementation of `impls`: bind(kernel) returns its launcher,
        which writes `outs` (poisoned before the check)."""
        k, err = self.ours_or_error(var)
        launch = None
        if k is not None:
            try:
                launch = bind(k)
            except Exception as ex:  # noqa: BLE001
                err = "%s: %s" % (type(ex).__name__, str(ex)[:600])
        impls.append(
            dict(
                impl="tilec",
                config=config,
                fn=launch,
                outs=outs,
                check=check,
                tol=tol,
                error=err,
                extra=self.ours_extra(var),
            )
        )

    def duel(self, kernel, shape, impls, flops=None, nbytes=None):
        """Checks, then times `impls` (dicts: impl, config, fn, outs, check,
        tol, extra, error) in interleaved rounds; writes a row for each."""
        torch = self.torch
        rounds = getattr(self.args, "rounds", ROUNDS)
        rows, live = [], []
        for m in impls:
            r = dict(kernel=kernel, shape=shape, impl=m["impl"], config=m.get("config", ""))
            r.update(m.get("extra") or {})
            rows.append(r)
            if m.get("error") or m.get("fn") is None:
                r.update(ok=False, error=m.get("error") or "no launcher")
                continue
            try:
                for o in m.get("outs") or []:
                    o.fill_(float("nan"))
                m["fn"]()
                torch.cuda.synchronize()
                r["relerr"], r["nan"] = m["check"]()
                r["ok"] = r["nan"] == 0 and r["relerr"] < m["tol"]
                live.append((m, r, []))
            except Exception as ex:  # noqa: BLE001
                r.update(ok=False, error="%s: %s" % (type(ex).__name__, str(ex)[:600]))
                traceback.print_exc()
                torch.cuda.synchronize()
        for i in range(rounds if live else 0):
            j = i % len(live)
            for m, r, ms in live[j:] + live[:j]:
                if "error" in r:
                    continue
                try:
                    ms.append(self._do_bench(m["fn"], warmup=10, rep=REP_MS, return_mode="median"))
                except Exception as ex:  # noqa: BLE001
                    r.update(ok=False, error="timing: %s: %s" % (type(ex).__name__, str(ex)[:300]))
        for m, r, ms in live:
            if not ms:
                continue
            med = statistics.median(ms)
            r.update(ms=med, ms_rounds=ms, spread=(max(ms) - min(ms)) / med, timing="rounds")
            if flops:
                r["tflops"] = flops / med / 1e9
            if nbytes:
                r["gbs"] = nbytes / med / 1e6
        self.compare(live)
        for r in rows:
            self.res.row(**r)
        return rows

    @staticmethod
    def compare(live):
        """Ours against Triton of the same config and against the library
        peer: the ratio of the medians and its min/max over the rounds."""
        timed = [(m, r, ms) for m, r, ms in live if ms]
        lib = next((x for x in timed if x[0]["impl"] not in ("tilec", "triton")), None)
        for m, r, ms in timed:
            if m["impl"] != "tilec":
                continue
            peers = [x for x in timed if x[0]["impl"] == "triton" and x[0]["config"] == m["config"]]
            for key, peer in (("vs_triton", peers[0] if peers else None), ("vs_lib", lib)):
                if peer is None:
                    continue
                per = [t / o for o, t in zip(ms, peer[2])]
                r[key] = peer[1]["ms"] / r["ms"]
                r[key + "_rounds"] = [min(per), max(per)]

    # ------------------------------------------------------------ attention
    def attention(self):
        for s in sizes()["attention"]:
            self.attention_shape(s["BH"], s["S"], s["D"], s["dtype"], s["causal"], s["shape"])
            self.torch.cuda.empty_cache()

    def attention_shape(self, BH, S, D, dt, causal, shape):
        torch, P = self.torch, self.peers
        q, k, v = attention_inputs(torch, BH, S, D, dt)
        sm_scale = D**-0.5
        heads = sorted({0, BH - 1})
        ref = attention_ref(torch, q, k, v, sm_scale, causal, heads)
        tol = TOL[dt]

        def check(o):
            return lambda: (relerr(torch, o[heads], ref)[0], int(torch.isnan(o).sum().item()))

        impls = []
        for bm, bn, nw, ns in ATTN_CONFIGS:
            var = attention_variant_name(dt, D, causal, (bm, bn, nw, ns))
            o = torch.empty_like(q)
            cfg = "BM=%d BN=%d w%d s%d" % (bm, bn, nw, ns)
            bind = lambda kk: bind_attention(kk, o, q, k, v, sm_scale)  # noqa: E731
            self.add_ours(impls, var, cfg, bind, [o], check(o), tol)
            o2 = torch.empty_like(q)
            impls.append(
                dict(
                    impl="triton",
                    config=cfg,
                    fn=lambda o2=o2, c=(bm, bn, nw, ns): P.tattention(
                        q, k, v, sm_scale, causal, *c, out=o2
                    ),
                    outs=[o2],
                    check=check(o2),
                    tol=tol,
                )
            )
        qs, ks, vs = (t.unsqueeze(0) for t in (q, k, v))
        backend, fn = self.sdpa_best(qs, ks, vs, causal, sm_scale)
        if fn is not None:
            out = {}

            def sdpa(fn=fn):
                out["o"] = fn()

            impls.append(
                dict(
                    impl="torch-sdpa",
                    config=backend,
                    fn=sdpa,
                    check=lambda: check(out["o"][0])(),
                    tol=tol,
                    extra={"backend": backend},
                )
            )
        else:
            impls.append(dict(impl="torch-sdpa", config="", error=backend))
        flops = 4 * BH * S * S * D // (2 if causal else 1)
        self.duel("attention", shape, impls, flops=flops)

    def sdpa_best(self, q, k, v, causal, sm_scale):
        """(backend name, launcher) of torch's scaled_dot_product_attention
        with its fastest backend here, or (why, None) when none runs."""
        torch = self.torch
        F = torch.nn.functional
        try:
            from torch.nn.attention import SDPBackend, sdpa_kernel
        except ImportError as ex:
            return "no torch.nn.attention: %s" % ex, None
        best, why = None, []
        for name in ("FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION"):
            b = getattr(SDPBackend, name, None)
            if b is None:
                continue

            def fn(b=b):
                with sdpa_kernel(b):
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)

            try:
                fn()
                torch.cuda.synchronize()
                ms = self._do_bench(fn, warmup=10, rep=REP_MS, return_mode="median")
            except Exception as ex:  # noqa: BLE001
                why.append("%s: %s" % (name, str(ex).splitlines()[0][:120] if str(ex) else ex))
                continue
            if best is None or ms < best[0]:
                best = (ms, name, fn)
        if best is None:
            return "no SDPA backend ran: " + "; ".join(why), None
        return best[1].lower(), best[2]

    # ------------------------------------------------------------ matmul sweep
    def mmsweep(self):
        for s in sizes()["mmsweep"]:
            self.mmsweep_size(s["M"], s["N"], s["K"], s["dtype"], s["shape"])
            self.torch.cuda.empty_cache()

    def mmsweep_size(self, M, N, K, dt, shape):
        torch, P = self.torch, self.peers
        t = tdtype(torch, dt)
        a = torch.randn(M, K, device="cuda", dtype=t)
        b = torch.randn(K, N, device="cuda", dtype=t)
        ref = a.double() @ b.double()
        tol = TOL["f16"] if dt == "f16" else TOL["tf32"]
        for cfg in MMSWEEP_CONFIGS[dt]:
            bm, bn, bk, nw, ns = cfg
            c = torch.empty(M, N, device="cuda", dtype=t)
            c2 = torch.empty_like(c)
            impls = []
            text = "%dx%dx%d w%d s%d" % cfg
            self.add_ours(
                impls,
                mmsweep_variant_name(dt, cfg),
                text,
                lambda k: bind_matmul(k, c, a, b),
                [c],
                lambda: relerr(torch, c, ref),
                tol,
            )
            tri = dict(BM=bm, BN=bn, BK=bk, G=8, num_warps=nw, num_stages=ns)
            impls.append(
                dict(
                    impl="triton",
                    config=text,
                    fn=lambda: P.tmatmul(a, b, kern=P.matmul_kernel, c=c2, **tri),
                    outs=[c2],
                    check=lambda: relerr(torch, c2, ref),
                    tol=tol,
                )
            )
            self.duel("mmsweep", shape, impls, flops=2 * M * N * K)

    # ------------------------------------------------------------ transpose
    def transpose(self):
        torch, P = self.torch, self.peers
        for s in sizes()["transpose"]:
            M, N, dt = s["M"], s["N"], s["dtype"]
            x = torch.randn(M, N, device="cuda").to(tdtype(torch, dt))
            ref = x.double().T
            ragged = M % 16 != 0 or N % 16 != 0
            nbytes = 2 * x.numel() * x.element_size()
            x2 = torch.empty_like(x)
            for tile in TRANSPOSE_TILES:
                bm, bn, nw = tile
                y = torch.empty(N, M, device="cuda", dtype=x.dtype)
                y2 = torch.empty_like(y)
                impls = []
                text = "%dx%d w%d" % tile
                self.add_ours(
                    impls,
                    transpose_variant_name(dt, tile, ragged),
                    text,
                    lambda k: bind_transpose(k, y, x),
                    [y],
                    lambda: relerr(torch, y, ref),
                    TOL["f32"],
                )
                impls += [
                    dict(
                        impl="triton",
                        config=text,
                        fn=lambda: P.ttranspose(x, bm, bn, nw, out=y2),
                        outs=[y2],
                        check=lambda: relerr(torch, y2, ref),
                        tol=TOL["f32"],
                    ),
                    dict(
                        impl="copy",
                        config="same bytes",
                        fn=lambda: x2.copy_(x),
                        outs=[x2],
                        check=lambda: relerr(torch, x2, x.double()),
                        tol=TOL["f32"],
                    ),
                ]
                self.duel("transpose", s["shape"], impls, nbytes=nbytes)

    # ------------------------------------------------------------ layer norm
    def layernorm(self):
        torch, P = self.torch, self.peers
        F = torch.nn.functional
        for s in sizes()["layernorm"]:
            M, N, dt = s["M"], s["N"], s["dtype"]
            x, w, b = layernorm_inputs(torch, M, N, dt)
            refs = layernorm_ref(torch, x, w, b)
            tol = TOL[dt]
            nbytes = 2 * x.numel() * x.element_size()
            for block, nw in layernorm_configs(N, dt):
                outs = [torch.empty_like(x)] + [
                    torch.empty(M, device="cuda", dtype=torch.float32) for _ in range(2)
                ]
                outs2 = [torch.empty_like(t) for t in outs]
                impls = []
                text = "BLOCK=%d w%d s3" % (block, nw)
                self.add_ours(
                    impls,
                    layernorm_variant_name(dt, block, nw),
                    text,
                    lambda k: bind_layernorm(k, outs, x, w, b),
                    outs,
                    lambda: layernorm_err(torch, outs, refs),
                    tol,
                )
                y2, m2, r2 = outs2
                impls.append(
                    dict(
                        impl="triton",
                        config=text,
                        fn=lambda: P.tlayernorm(x, w, b, LN_EPS, block, nw, 3, y2, m2, r2),
                        outs=outs2,
                        check=lambda: layernorm_err(torch, outs2, refs),
                        tol=tol,
                    )
                )
                out = {}

                def torch_ln():
                    out["y"] = F.layer_norm(x, (N,), w, b, LN_EPS)

                impls.append(
                    dict(
                        impl="torch",
                        config="F.layer_norm",
                        fn=torch_ln,
                        check=lambda: relerr(torch, out["y"], refs[0]),
                        tol=tol,
                    )
                )
                self.duel("layernorm", s["shape"], impls, nbytes=nbytes)


# ---------------------------------------------------------------- preflight
def preflight(bundle, fam):
    """Child process (run_bench.py --preflight-family): each variant of ours
    of `fam` once at a small, ragged size against float64. Prints one
    PREFLIGHT line per variant."""
    import cupy as cp
    import torch

    torch.manual_seed(1)
    for name, v in load_manifest(bundle).items():
        if family(v) != fam or v.get("rc", 0) != 0:
            continue
        res = {"variant": name}
        try:
            k = Ours(cp, bundle, v)
            res.update(regs=k.regs, local_bytes=k.local, shared=k.shared)
            res["relerr"], res["nan"], tol = SMALL[fam](torch, k, v)
            res["ok"] = res["nan"] == 0 and res["relerr"] < tol
        except Exception as ex:  # noqa: BLE001
            res["ok"] = False
            res["error"] = "%s: %s" % (type(ex).__name__, str(ex)[:300])
        print("PREFLIGHT " + json.dumps(res), flush=True)


def small_attention(torch, k, v):
    d = v["defines"]
    dt = "bf16" if v["kernel"].endswith("bf16") else "f16"
    BH, S, D, causal = 2, 208, d["HEAD_DIM"], bool(d["CAUSAL"])  # S: a multiple of 16 only
    q, kk, vv = attention_inputs(torch, BH, S, D, dt)
    o = torch.full_like(q, float("nan"))
    bind_attention(k, o, q, kk, vv, D**-0.5)()
    torch.cuda.synchronize()
    ref = attention_ref(torch, q, kk, vv, D**-0.5, causal, range(BH))
    return relerr(torch, o, ref) + (TOL[dt],)


def small_mmsweep(torch, k, v):
    dt = "f16" if v["kernel"].endswith("f16") else "f32"
    M, N, K = 272, 400, 336  # multiples of 16 (--divisible), not of the blocks
    a = torch.randn(M, K, device="cuda").to(tdtype(torch, dt))
    b = torch.randn(K, N, device="cuda").to(tdtype(torch, dt))
    c = torch.full((M, N), float("nan"), device="cuda", dtype=a.dtype)
    bind_matmul(k, c, a, b)()
    torch.cuda.synchronize()
    return relerr(torch, c, a.double() @ b.double()) + (TOL["f16" if dt == "f16" else "tf32"],)


def small_transpose(torch, k, v):
    dt = v["kernel"].split("_")[-1]
    M, N = (201, 333) if v["variant"].endswith("_ragged") else (208, 336)
    x = torch.randn(M, N, device="cuda").to(tdtype(torch, dt))
    y = torch.full((N, M), float("nan"), device="cuda", dtype=x.dtype)
    bind_transpose(k, y, x)()
    torch.cuda.synchronize()
    return relerr(torch, y, x.double().T) + (TOL["f32"],)


def small_layernorm(torch, k, v):
    dt = "f32" if v["kernel"].endswith("f32") else "f16"
    M, N = 8, int(v["defines"]["BLOCK"]) + 48  # a multiple of 16; two chunks, one ragged
    x, w, b = layernorm_inputs(torch, M, N, dt)
    outs = [torch.full_like(x, float("nan"))] + [
        torch.full((M,), float("nan"), device="cuda") for _ in range(2)
    ]
    bind_layernorm(k, outs, x, w, b)()
    torch.cuda.synchronize()
    return layernorm_err(torch, outs, layernorm_ref(torch, x, w, b)) + (TOL[dt],)


SMALL = {
    "attention": small_attention,
    "mmsweep": small_mmsweep,
    "transpose": small_transpose,
    "layernorm": small_layernorm,
}
