"""Conformance cases: state-space, linear-attention and attention kernels
(kernels/mamba_*.py, kernels/fla_*.py, kernels/flashattn_*.py).

Each configuration is the one the project's host code launches (its grid,
block sizes, heuristics' values, num_warps/num_stages), on realistic shapes
(Mamba-2 decoding and chunked scan, linear-attention recurrences, attention
at seqlen 1000 and 2048). Arguments a host function leaves as None (an
absent bias, no seq_idx) are given a small placeholder tensor with the
constexpr flag off, so that every pointer parameter has a type. The
references are computed in float64 from the same inputs, by formula.
"""


from corpus import Case, Launch

DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "i32": "int32", "i64": "int64"}


def cdiv(a, b):
    return (a + b - 1) // b


def npow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


def i32(v):
    """The signature entry of an i32 argument whose launch value is v."""
    return "i32:16" if v % 16 == 0 else "i32"


def sig(*entries):
    return ", ".join(str(e) for e in entries)


def ptr(t, aligned=True):
    return "*%s%s" % (t, ":16" if aligned else "")


def contiguous(*shape):
    strides, s = [], 1
    for n in reversed(shape):
        strides.insert(0, s)
        s *= n
    return tuple(strides)


def dt_of(torch, name):
    return getattr(torch, DTYPES[name])


def generator(torch):
    return torch.Generator(device="cuda").manual_seed(0)


def placeholder(torch, dtype="fp32"):
    """A tensor for a pointer argument that the configuration never reads."""
    return torch.zeros(16, dtype=dt_of(torch, dtype), device="cuda")


# ---------------------------------------------------------------------------
# mamba: _selective_scan_update_kernel (selective_state_update.py).
#
# Two layouts, as selective_state_update() receives them: Mamba-2's step
# (TIE_HDIM: dt, dt_bias, A and D are per-head values expanded over headdim
# and dstate with stride 0) and Mamba-1's step (nheads 1: 2-D/3-D tensors
# unsqueezed). BLOCK_SIZE_M and num_warps follow the host's table on dstate;
# BLOCK_SIZE_DSTATE is the heuristic's next_power_of_2(dstate). `state` is
# updated in place (poison off, checked too); with state_batch_indices
# (continuous batching) the slots of padding rows (-1) stay untouched and
# their output is 0.


def ssu_block(dstate):
    if dstate <= 16:
        return 32, 4
    if dstate <= 32:
        return 16, 4
    if dstate <= 64:
        return 8, 4
    if dstate <= 128:
        return 4, 4
    return 4, 8


def ssu_strides(c):
    b, h, p, n, g = c["batch"], c["nheads"], c["dim"], c["dstate"], c["ngroups"]
    s = dict(state=contiguous(c["nslots"], h, p, n), B=(g * n, n, 1))
    if c["tie"]:
        s.update(x=(h * p, p, 1), dt=(h, 1, 0), dt_bias=(1, 0), A=(1, 0, 0), D=(1, 0))
    else:  # Mamba-1: nheads == 1, (batch, dim) tensors unsqueezed at dim 1
        s.update(x=(p, p, 1), dt=(p, p, 1), dt_bias=(p, 1), A=(p * n, n, 1), D=(p, 1))
        s["state"] = (p * n, p * n, n, 1)
    s["z"] = s["x"] if c["has_z"] else (0, 0, 0)
    del b
    return s


def ssu_signature(c):
    s = ssu_strides(c)
    io, st = c["io"], c["state_dtype"]
    block_m, _ = ssu_block(c["dstate"])
    return sig(
        ptr(st),
        ptr(io),
        ptr(io),
        ptr("fp32"),
        ptr("fp32"),
        ptr(io),
        ptr(io),
        ptr("fp32"),
        ptr(io),
        ptr(io),
        ptr("i32"),
        i32(c["batch"]),
        i32(c["nheads"]),
        i32(c["dim"]),
        i32(c["dstate"]),
        i32(c["nheads"] // c["ngroups"]),
        *[i32(v) for v in s["state"]],
        *[i32(v) for v in s["x"]],
        *[i32(v) for v in s["dt"]],
        *[i32(v) for v in s["dt_bias"]],
        *[i32(v) for v in s["A"]],
        *[i32(v) for v in s["B"]],
        *[i32(v) for v in s["B"]],
        *[i32(v) for v in s["D"]],
        *[i32(v) for v in s["z"]],
        *[i32(v) for v in s["x"]],
        c["softplus"],
        c["tie"],
        block_m,
        True,
        True,
        c["has_z"],
        c["indices"] is not None,
        npow2(c["dstate"]),
    )


def ssu_setup(c):
    def setup(torch):
        g = generator(torch)
        b, h, p, n, ng = c["batch"], c["nheads"], c["dim"], c["dstate"], c["ngroups"]
        io, st = dt_of(torch, c["io"]), dt_of(torch, c["state_dtype"])
        f32 = torch.float32

        def randn(*shape, dtype=f32):
            return torch.randn(*shape, generator=g, device="cuda").to(dtype)

        def rand(*shape):
            return torch.rand(*shape, generator=g, device="cuda")

        # dt per head (Mamba-2) or per channel (Mamba-1): raw values whose
        # softplus(dt + dt_bias) is in [0.002, 0.3], or already positive.
        q = h if c["tie"] else p
        if c["softplus"]:
            dt_raw, bias_raw = 0.5 * randn(b, q), -2.0 - 3.0 * rand(q)
        else:
            dt_raw, bias_raw = 0.01 + 0.09 * rand(b, q), 0.01 * rand(q)
        if c["tie"]:
            state = randn(c["nslots"], h, p, n, dtype=st)
            x = randn(b, h, p, dtype=io)
            dt = dt_raw.to(io)[:, :, None].expand(b, h, p)
            dt_bias = bias_raw[:, None].expand(h, p)
            A = (-1.0 - 15.0 * rand(h))[:, None, None].expand(h, p, n)
            D = randn(h)[:, None].expand(h, p)
            z = randn(b, h, p, dtype=io) if c["has_z"] else placeholder(torch, c["io"])
        else:
            state = randn(b, p, n, dtype=st).unsqueeze(1)
            x = randn(b, p, dtype=io).unsqueeze(1)
            dt = dt_raw.to(io).unsqueeze(1)
            dt_bias = bias_raw.unsqueeze(0)
            A = (-1.0 - 15.0 * rand(p, n)).unsqueeze(0)
            D = randn(p).unsqueeze(0)
            z = randn(b, p, dtype=io).unsqueeze(1) if c["has_z"] else placeholder(torch, c["io"])
        B = randn(b, ng, n, dtype=io)
        C = randn(b, ng, n, dtype=io)
        out = torch.empty(b, h, p, dtype=io, device="cuda")
        if c["indices"] is not None:
            idx = torch.tensor(c["indices"], dtype=torch.int32, device="cuda")
        else:
            idx = placeholder(torch, "i32")
        zs = z.stride() if c["has_z"] else (0, 0, 0)

        # Reference, float64.
        s64, x64 = state.double(), x.double()
        if c["tie"]:
            dtv = dt[:, :, 0].double() + dt_bias[:, 0].double()[None]  # (b, h)
        else:
            dtv = dt.double() + dt_bias.double()[None]  # (b, h, p)
        if c["softplus"]:
            dtv = torch.where(dtv <= 20.0, torch.log1p(torch.exp(dtv)), dtv)
        if c["tie"]:
            dA = torch.exp(A[:, 0, 0].double()[None] * dtv)[:, :, None, None]
            dtb = dtv[:, :, None, None]
        else:
            dA = torch.exp(A.double()[None] * dtv[..., None])
            dtb = dtv[..., None]
        Bh = B.double().repeat_interleave(h // ng, dim=1)[:, :, None, :]
        Ch = C.double().repeat_interleave(h // ng, dim=1)[:, :, None, :]
        if c["indices"] is not None:
            valid = idx.long() >= 0
            rows = s64[idx.long().clamp(min=0)]
        else:
            valid = torch.ones(b, dtype=torch.bool, device="cuda")
            rows = s64
        new = rows * dA + Bh * dtb * x64[..., None]
        o = (new * Ch).sum(-1) + x64 * D.double()[None]
        if c["has_z"]:
            z64 = z.double()
            o = o * z64 * torch.sigmoid(z64)
        o = torch.where(valid[:, None, None], o, torch.zeros_like(o))
        if c["indices"] is not None:
            state_ref = s64.clone()
            state_ref[idx.long()[valid]] = new[valid]
        else:
            state_ref = new
        args = [state, x, dt, dt_bias, A, B, C, D, z, out, idx]
        args += [b, h, p, n, h // ng]
        args += list(state.stride()) + list(x.stride()) + list(dt.stride())
        args += list(dt_bias.stride()) + list(A.stride()) + list(B.stride()) + list(C.stride())
        args += list(D.stride()) + list(zs) + list(out.stride())
        return Launch(
            args=args,
            grid=(cdiv(p, ssu_block(n)[0]), b, h),
            outputs={0: state_ref, 9: o},
            atol=c["tol"],
            rtol=c["tol"],
            poison=False,
            bytes=2 * state.numel() * state.element_size(),
        )

    return setup


SSU = [
    # Mamba-2 (2.7B-like) decoding step: per-head dt/A, softplus on dt.
    dict(
        name="mamba_ssu_mamba2_b16",
        batch=16,
        nslots=16,
        nheads=32,
        dim=64,
        dstate=128,
        ngroups=1,
        tie=True,
        softplus=True,
        has_z=False,
        indices=None,
        io="fp16",
        state_dtype="fp32",
        tol=1e-2,
    ),
    # Mamba-2 layout with 8 groups, z gate, bf16 state, dt given positive.
    dict(
        name="mamba_ssu_mamba2_g8_bf16",
        batch=12,
        nslots=12,
        nheads=32,
        dim=64,
        dstate=128,
        ngroups=8,
        tie=True,
        softplus=False,
        has_z=True,
        indices=None,
        io="bf16",
        state_dtype="bf16",
        tol=3e-2,
    ),
    # Continuous batching: 12 requests over a 16-slot bf16 state cache, two
    # padding rows (their program stores 0 and returns early).
    dict(
        name="mamba_ssu_mamba2_cb_bf16",
        batch=12,
        nslots=16,
        nheads=32,
        dim=64,
        dstate=128,
        ngroups=8,
        tie=True,
        softplus=False,
        has_z=True,
        indices=[3, 0, 15, -1, 5, 7, 12, -1, 2, 9, 1, 14],
        io="bf16",
        state_dtype="bf16",
        tol=3e-2,
    ),
    # Mamba-1 (d_inner 2048, d_state 16) decoding step, dt given positive.
    dict(
        name="mamba_ssu_mamba1_b16",
        batch=16,
        nslots=16,
        nheads=1,
        dim=2048,
        dstate=16,
        ngroups=1,
        tie=False,
        softplus=False,
        has_z=True,
        indices=None,
        io="fp16",
        state_dtype="fp32",
        tol=1e-2,
    ),
]


# ---------------------------------------------------------------------------
# mamba: _layer_norm_fwd_1pass_kernel (layernorm_gated.py), as
# _layer_norm_fwd launches it: grid (M, ngroups), N = group_size,
# BLOCK_N = next_power_of_2(group_size), num_warps = min(max(BLOCK_N // 256,
# 1), 8). Mamba-2's RMSNormGated: RMS norm, gate after the norm is off
# (norm_before_gate=False), z a column slice of the in_proj output.


def lng_signature(c):
    G, N, io = c["ngroups"], c["group_size"], c["io"]
    row = G * N
    return sig(
        ptr(io),
        ptr(io),
        ptr(io),
        ptr(io),
        ptr(io),
        ptr("fp32"),
        ptr("fp32"),
        i32(row),
        i32(row),
        i32(c["z_row"]),
        i32(c["M"]),
        i32(N),
        "fp32",
        npow2(N),
        c["bias"],
        True,
        c["norm_before_gate"],
        c["rms"],
    )


def lng_setup(c):
    def setup(torch):
        g = generator(torch)
        M, G, N, io = c["M"], c["ngroups"], c["group_size"], dt_of(torch, c["io"])
        eps = 1e-5

        def randn(*shape):
            return torch.randn(*shape, generator=g, device="cuda").to(io)

        x = randn(M, G * N)
        zx = randn(M, c["z_row"])
        z = zx[:, : G * N]  # row stride z_row, as a slice of in_proj's output
        w = (1.0 + 0.1 * torch.randn(G * N, generator=g, device="cuda")).to(io)
        bias = randn(G * N) if c["bias"] else placeholder(torch, c["io"])
        y = torch.empty_like(x)
        mean = torch.empty(G * M, dtype=torch.float32, device="cuda")
        rstd = torch.empty(G * M, dtype=torch.float32, device="cuda")

        xf = x.double().view(M, G, N)
        zf = z.double().view(M, G, N)
        gate = zf * torch.sigmoid(zf)
        if not c["norm_before_gate"]:
            xf = xf * gate
        if c["rms"]:
            mu = torch.zeros(M, G, 1, dtype=torch.float64, device="cuda")
        else:
            mu = xf.mean(-1, keepdim=True)
        var = ((xf - mu) ** 2).mean(-1, keepdim=True)
        r = 1.0 / torch.sqrt(var + eps)
        yf = (xf - mu) * r * w.double().view(G, N)
        if c["bias"]:
            yf = yf + bias.double().view(G, N)
        if c["norm_before_gate"]:
            yf = yf * gate
        outputs = {1: yf.view(M, G * N), 6: r.view(M, G).t().reshape(-1)}
        if not c["rms"]:
            outputs[5] = mu.view(M, G).t().reshape(-1)
        return Launch(
            args=[x, y, w, bias, z, mean, rstd, x.stride(0), y.stride(0), z.stride(0), M, N, eps],
            grid=(M, G),
            outputs=outputs,
            atol=c["tol"],
            rtol=c["tol"],
            bytes=3 * x.numel() * x.element_size(),
        )

    return setup


LNG = [
    # Mamba-2 2.7B-like: d_inner 4096 (one group), in_proj row of 8512.
    dict(
        name="mamba_ln_gated_rms_4096",
        M=2000,
        ngroups=1,
        group_size=4096,
        z_row=8512,
        io="fp16",
        bias=False,
        norm_before_gate=False,
        rms=True,
        tol=1e-2,
    ),
    # LayerNorm with bias over 4 groups of 640 (BLOCK_N 1024), gate after.
    dict(
        name="mamba_ln_gated_ln_g4_bf16",
        M=1537,
        ngroups=4,
        group_size=640,
        z_row=2560,
        io="bf16",
        bias=True,
        norm_before_gate=True,
        rms=False,
        tol=3e-2,
    ),
]


def lng_warps(c):
    return min(max(npow2(c["group_size"]) // 256, 1), 8)


# ---------------------------------------------------------------------------
# mamba: _chunk_cumsum_fwd_kernel (ssd_chunk_state.py), as _chunk_cumsum_fwd
# launches it: grid (batch, nchunks, cdiv(nheads, BLOCK_SIZE_H)),
# BLOCK_SIZE_CHUNK = next_power_of_2(chunk_size), BLOCK_SIZE_H one of the
# autotuner's configs (num_warps 4, num_stages 3: triton.Config's defaults).
# dt_out and dA_cumsum are (batch, nheads, nchunks, chunk_size) float32, the
# padded tail of the last chunk included (dt 0 there).


def ccs_signature(c):
    b, L, h, cs = c["batch"], c["seqlen"], c["nheads"], c["chunk"]
    nc = cdiv(L, cs)
    out = (h * nc * cs, cs, nc * cs, 1)  # strides 0, 2, 1, 3 of (b, h, nc, cs)
    return sig(
        ptr(c["dt_dtype"]),
        ptr("fp32"),
        ptr("fp32"),
        ptr("fp32"),
        ptr("fp32"),
        i32(b),
        i32(L),
        i32(h),
        i32(cs),
        "fp32",
        "fp32",
        i32(L * c["dt_row"]),
        i32(c["dt_row"]),
        i32(1),
        i32(1),
        i32(1 if c["bias"] else 0),
        *[i32(v) for v in out],
        *[i32(v) for v in out],
        c["softplus"],
        c["bias"],
        c["block_h"],
        npow2(cs),
    )


def ccs_setup(c):
    def setup(torch):
        g = generator(torch)
        b, L, h, cs = c["batch"], c["seqlen"], c["nheads"], c["chunk"]
        nc = cdiv(L, cs)
        row = torch.randn(b, L, c["dt_row"], generator=g, device="cuda")
        if not c["softplus"]:
            row = torch.rand(b, L, c["dt_row"], generator=g, device="cuda") * 0.1
        row = row.to(dt_of(torch, c["dt_dtype"]))
        dt = row[:, :, c["dt_row"] - h :]  # the last nheads columns
        A = -1.0 - 15.0 * torch.rand(h, generator=g, device="cuda")
        if c["bias"]:
            dt_bias = -2.0 - 3.0 * torch.rand(h, generator=g, device="cuda")
        else:
            dt_bias = placeholder(torch)
        dt_out = torch.empty(b, h, nc, cs, dtype=torch.float32, device="cuda")
        dA_cs = torch.empty(b, h, nc, cs, dtype=torch.float32, device="cuda")
        lo, hi = c["limit"]

        d = dt.double()
        if c["bias"]:
            d = d + dt_bias.double()[None, None]
        if c["softplus"]:
            d = torch.where(d <= 20.0, torch.log1p(torch.exp(d)), d)
        d = d.clamp(min=lo, max=hi)
        pad = torch.zeros(b, nc * cs, h, dtype=torch.float64, device="cuda")
        pad[:, :L] = d
        d_ref = pad.view(b, nc, cs, h).permute(0, 3, 1, 2)  # (b, h, nc, cs)
        cs_ref = torch.cumsum(d_ref * A.double()[None, :, None, None], dim=-1)
        return Launch(
            args=[dt, A, dt_bias, dt_out, dA_cs, b, L, h, cs, lo, hi]
            + list(dt.stride())
            + [A.stride(0), dt_bias.stride(0) if c["bias"] else 0]
            + [dt_out.stride(0), dt_out.stride(2), dt_out.stride(1), dt_out.stride(3)]
            + [dA_cs.stride(0), dA_cs.stride(2), dA_cs.stride(1), dA_cs.stride(3)],
            grid=(b, nc, cdiv(h, c["block_h"])),
            outputs={3: d_ref, 4: cs_ref},
            atol=1e-3,
            rtol=1e-3,
        )

    return setup


CCS = [
    # Mamba-2: dt (fp16) the last 32 columns of a 160-wide in_proj row,
    # dt_bias, softplus, no limit; seqlen 1000 (last chunk 232 of 256).
    dict(
        name="mamba_chunk_cumsum_softplus",
        batch=2,
        seqlen=1000,
        nheads=32,
        chunk=256,
        dt_row=160,
        dt_dtype="fp16",
        bias=True,
        softplus=True,
        limit=(0.0, float("inf")),
        block_h=8,
    ),
    # dt given (fp32, contiguous), clamped to (0.002, 0.08); 24 heads in
    # blocks of 16.
    dict(
        name="mamba_chunk_cumsum_clamp",
        batch=4,
        seqlen=2048,
        nheads=24,
        chunk=128,
        dt_row=24,
        dt_dtype="fp32",
        bias=False,
        softplus=False,
        limit=(0.002, 0.08),
        block_h=16,
    ),
]


# ---------------------------------------------------------------------------
# mamba: _chunk_state_fwd_kernel (ssd_chunk_state.py), as _chunk_state_fwd
# launches it: grid (cdiv(headdim, BM) * cdiv(dstate, BN), batch * nchunks,
# nheads), states float32 (batch, nchunks, nheads, headdim, dstate), one of
# the autotuner's configs. dt and dA_cumsum are made as _chunk_cumsum_fwd
# makes them (dt 0 past seqlen, per-chunk cumulative sums of dt * A).


def seq_idx_of(torch, batch, seqlen, cuts):
    """seq_idx (batch, seqlen) int32: sequence k starts at cuts[b][k-1]."""
    s = torch.zeros(batch, seqlen, dtype=torch.int32, device="cuda")
    for i, row in enumerate(cuts):
        for cut in row:
            s[i, cut:] += 1
    return s


def chunk_inputs(torch, g, b, L, h, cs):
    nc = cdiv(L, cs)
    dt = 0.01 + 0.09 * torch.rand(b, h, nc * cs, generator=g, device="cuda")
    dt[:, :, L:] = 0.0
    dt = dt.view(b, h, nc, cs).contiguous()
    A = -1.0 - 15.0 * torch.rand(h, generator=g, device="cuda")
    dA_cs = torch.cumsum(dt * A[None, :, None, None], dim=-1)
    return dt, dA_cs


def cst_signature(c):
    b, L, h, p, n, ng, cs = (
        c[k] for k in ("batch", "seqlen", "nheads", "hdim", "dstate", "ngroups", "chunk")
    )
    nc = cdiv(L, cs)
    dtcs = (h * nc * cs, cs, nc * cs, 1)
    return sig(
        ptr(c["io"]),
        ptr(c["io"]),
        ptr("fp32"),
        ptr("fp32"),
        ptr("fp32"),
        ptr("i32"),
        i32(p),
        i32(n),
        i32(cs),
        i32(b),
        i32(L),
        i32(h // ng),
        *[i32(v) for v in contiguous(b, L, h, p)],
        *[i32(v) for v in contiguous(b, L, ng, n)],
        *[i32(v) for v in contiguous(b, nc, h, p, n)],
        *[i32(v) for v in dtcs],
        *[i32(v) for v in dtcs],
        *[i32(v) for v in ((L, 1) if c["cuts"] else (0, 0))],
        bool(c["cuts"]),
        c["bm"],
        c["bn"],
        c["bk"],
    )


def cst_setup(c):
    def setup(torch):
        g = generator(torch)
        b, L, h, p, n, ng, cs = (
            c[k] for k in ("batch", "seqlen", "nheads", "hdim", "dstate", "ngroups", "chunk")
        )
        nc = cdiv(L, cs)
        io = dt_of(torch, c["io"])
        x = torch.randn(b, L, h, p, generator=g, device="cuda").to(io)
        B = torch.randn(b, L, ng, n, generator=g, device="cuda").to(io)
        dt, dA_cs = chunk_inputs(torch, g, b, L, h, cs)
        states = torch.empty(b, nc, h, p, n, dtype=torch.float32, device="cuda")
        if c["cuts"]:
            seq_idx = seq_idx_of(torch, b, L, c["cuts"])
            sq = list(seq_idx.stride())
        else:
            seq_idx, sq = placeholder(torch, "i32"), [0, 0]

        xp = torch.zeros(b, nc * cs, h, p, dtype=torch.float64, device="cuda")
        xp[:, :L] = x.double()
        Bp = torch.zeros(b, nc * cs, ng, n, dtype=torch.float64, device="cuda")
        Bp[:, :L] = B.double()
        Bp = Bp.repeat_interleave(h // ng, dim=2)
        last = dA_cs.double()[..., cs - 1 :]
        scale = torch.exp(torch.clamp(last - dA_cs.double(), max=0.0)) * dt.double()
        scale = scale.permute(0, 2, 3, 1)  # (b, nc, cs, h)
        if c["cuts"]:
            sp = torch.full((b, nc * cs), -1, dtype=torch.int64, device="cuda")
            sp[:, :L] = seq_idx.long()
            sp = sp.view(b, nc, cs)
            ends = [min((ci + 1) * cs, L) - 1 - ci * cs for ci in range(nc)]
            last_idx = torch.stack([sp[:, ci, e] for ci, e in enumerate(ends)], dim=1)
            keep = (sp == last_idx[:, :, None]) & (last_idx[:, :, None] >= 0)
            scale = scale * keep[..., None].double()
        xs = xp.view(b, nc, cs, h, p) * scale[..., None]
        ref = torch.einsum("bclhp,bclhn->bchpn", xs, Bp.view(b, nc, cs, h, n))
        return Launch(
            args=[x, B, states, dt, dA_cs, seq_idx, p, n, cs, b, L, h // ng]
            + list(x.stride())
            + list(B.stride())
            + list(states.stride())
            + [dt.stride(0), dt.stride(2), dt.stride(1), dt.stride(3)]
            + [dA_cs.stride(0), dA_cs.stride(2), dA_cs.stride(1), dA_cs.stride(3)]
            + sq,
            grid=(cdiv(p, c["bm"]) * cdiv(n, c["bn"]), b * nc, h),
            outputs={2: ref},
            atol=c["tol"],
            rtol=c["tol"],
            flops=2 * b * nc * cs * h * p * n,
        )

    return setup


CST = [
    # Mamba-2: headdim 64, d_state 128, one group, seqlen 1000.
    dict(
        name="mamba_chunk_state_fp16",
        batch=2,
        seqlen=1000,
        nheads=32,
        hdim=64,
        dstate=128,
        ngroups=1,
        chunk=256,
        io="fp16",
        cuts=None,
        bm=64,
        bn=128,
        bk=32,
        warps=4,
        stages=4,
        tol=1e-2,
    ),
    # Packed sequences (seq_idx), 2 groups, bf16, seqlen 1900.
    dict(
        name="mamba_chunk_state_seq_idx_bf16",
        batch=2,
        seqlen=1900,
        nheads=16,
        hdim=64,
        dstate=64,
        ngroups=2,
        chunk=256,
        io="bf16",
        cuts=[[300, 700], [1024]],
        bm=64,
        bn=64,
        bk=32,
        warps=2,
        stages=4,
        tol=2e-2,
    ),
]


# ---------------------------------------------------------------------------
# mamba: _state_passing_fwd_kernel (ssd_state_passing.py), as
# _state_passing_fwd launches it: states (batch, nchunks, nheads, dim) with
# dim = headdim * dstate, dA_chunk_cumsum = dA_cumsum[..., -1] (a strided,
# unaligned view), grid (cdiv(dim, BLOCK_SIZE), batch, nheads), seqlen and
# chunk_size 0 without seq_idx.


def spf_signature(c):
    b, nc, h, d = c["batch"], c["nchunks"], c["nheads"], c["dim"]
    cs, L = c["chunk"], c["seqlen"]
    init, cuts = c["init"], c["cuts"]
    return sig(
        ptr("fp32"),
        ptr("fp32"),
        ptr("fp32"),
        ptr("fp32", aligned=False),
        ptr("fp32"),
        ptr("i32"),
        i32(d),
        i32(nc),
        i32(L if cuts else 0),
        i32(cs if cuts else 0),
        *[i32(v) for v in contiguous(b, nc, h, d)],
        *[i32(v) for v in contiguous(b, nc, h, d)],
        *[i32(v) for v in contiguous(b, h, d)],
        i32(h * nc * 256),
        i32(256),
        i32(nc * 256),
        *[i32(v) for v in (contiguous(b, h, d) if init else (0, 0, 0))],
        *[i32(v) for v in ((L, 1) if cuts else (0, 0))],
        init,
        bool(cuts),
        c["block"],
    )


def spf_setup(c):
    def setup(torch):
        g = generator(torch)
        b, nc, h, d = c["batch"], c["nchunks"], c["nheads"], c["dim"]
        cs, L = c["chunk"], c["seqlen"]
        states = torch.randn(b, nc, h, d, generator=g, device="cuda")
        dA_full = -3.0 * torch.rand(b, h, nc, 256, generator=g, device="cuda")
        dA = dA_full[..., -1]  # (b, h, nc), strides (h * nc * 256, nc * 256, 256)
        out = torch.empty(b, nc, h, d, dtype=torch.float32, device="cuda")
        final = torch.empty(b, h, d, dtype=torch.float32, device="cuda")
        if c["init"]:
            init = torch.randn(b, h, d, generator=g, device="cuda")
            ist = list(init.stride())
        else:
            init, ist = placeholder(torch), [0, 0, 0]
        if c["cuts"]:
            seq_idx = seq_idx_of(torch, b, L, c["cuts"])
            sq = list(seq_idx.stride())
        else:
            seq_idx, sq = placeholder(torch, "i32"), [0, 0]

        s = init.double() if c["init"] else torch.zeros(b, h, d, dtype=torch.float64, device="cuda")
        ref = torch.empty(b, nc, h, d, dtype=torch.float64, device="cuda")
        ref[:, 0] = s
        prev = torch.zeros(b, dtype=torch.int64, device="cuda")
        for ci in range(nc):
            scale = torch.exp(dA[:, :, ci].double())  # (b, h)
            if c["cuts"]:
                new = seq_idx[:, min((ci + 1) * cs, L) - 1].long()
                scale = torch.where((new == prev)[:, None], scale, torch.zeros_like(scale))
                prev = new
            s = scale[..., None] * s + states[:, ci].double()
            if ci < nc - 1:
                ref[:, ci + 1] = s
        return Launch(
            args=[states, out, final, dA, init, seq_idx, d, nc]
            + [L if c["cuts"] else 0, cs if c["cuts"] else 0]
            + list(states.stride())
            + list(out.stride())
            + list(final.stride())
            + [dA.stride(0), dA.stride(2), dA.stride(1)]
            + ist
            + sq,
            grid=(cdiv(d, c["block"]), b, h),
            outputs={1: ref, 2: s},
            atol=1e-4,
            rtol=1e-4,
            bytes=3 * states.numel() * 4,
        )

    return setup


SPF = [
    # Mamba-2: headdim 64 x d_state 128 per head, 8 chunks.
    dict(
        name="mamba_state_passing",
        batch=2,
        nchunks=8,
        nheads=32,
        dim=8192,
        chunk=256,
        seqlen=2048,
        init=False,
        cuts=None,
        block=1024,
    ),
    # Initial states and packed sequences (seq_idx), seqlen 1900.
    dict(
        name="mamba_state_passing_init_seq_idx",
        batch=3,
        nchunks=8,
        nheads=8,
        dim=4096,
        chunk=256,
        seqlen=1900,
        init=True,
        cuts=[[300, 700], [1024], [1899]],
        block=512,
    ),
]


# ---------------------------------------------------------------------------
# mamba: _bmm_chunk_fwd_kernel (ssd_bmm.py), as _bmm_chunk_fwd launches it
# for Mamba-2's CB = C B^T per chunk (4-D inputs with groups): grid
# (cdiv(cs, BM) * cdiv(cs, BN), batch, nchunks * ngroups), dot_dtype from the
# inputs' dtype. The whole chunk_size x chunk_size block is written (0 past
# the sequence's end); with IS_CAUSAL the blocks above the diagonal are
# skipped (left as the poison: NaN expected there).


def bmm_signature(c):
    b, L, ng, k, cs = c["batch"], c["seqlen"], c["ngroups"], c["k"], c["chunk"]
    nc = cdiv(L, cs)
    a = contiguous(b, L, ng, k)
    return sig(
        ptr(c["io"]),
        ptr(c["io"]),
        ptr(c["out"]),
        ptr("i32"),
        i32(L),
        i32(cs),
        i32(k),
        i32(ng),
        *[i32(v) for v in a],
        *[i32(v) for v in a],
        *[i32(v) for v in contiguous(b, nc, ng, cs, cs)],
        *[i32(v) for v in ((L, 1) if c["cuts"] else (0, 0))],
        c["causal"],
        "tl.float16" if c["io"] == "fp16" else "tl.bfloat16",
        bool(c["cuts"]),
        c["bm"],
        c["bn"],
        c["bk"],
    )


def bmm_setup(c):
    def setup(torch):
        g = generator(torch)
        b, L, ng, k, cs = c["batch"], c["seqlen"], c["ngroups"], c["k"], c["chunk"]
        nc = cdiv(L, cs)
        io = dt_of(torch, c["io"])
        Cm = torch.randn(b, L, ng, k, generator=g, device="cuda").to(io)
        Bm = torch.randn(b, L, ng, k, generator=g, device="cuda").to(io)
        out = torch.empty(b, nc, ng, cs, cs, dtype=dt_of(torch, c["out"]), device="cuda")
        if c["cuts"]:
            seq_idx = seq_idx_of(torch, b, L, c["cuts"])
            sq = list(seq_idx.stride())
        else:
            seq_idx, sq = placeholder(torch, "i32"), [0, 0]

        ap = torch.zeros(b, nc * cs, ng, k, dtype=torch.float64, device="cuda")
        ap[:, :L] = Cm.double()
        bp = torch.zeros(b, nc * cs, ng, k, dtype=torch.float64, device="cuda")
        bp[:, :L] = Bm.double()
        ap, bp = ap.view(b, nc, cs, ng, k), bp.view(b, nc, cs, ng, k)
        ref = torch.einsum("bcigk,bcjgk->bcgij", ap, bp)
        if c["cuts"]:
            sp = torch.full((b, nc * cs), -1, dtype=torch.int64, device="cuda")
            sp[:, :L] = seq_idx.long()
            sp = sp.view(b, nc, cs)
            same = (sp[:, :, :, None] == sp[:, :, None, :]) & (sp[:, :, :, None] >= 0)
            ref = ref * same[:, :, None].double()
        if c["causal"]:
            i = torch.arange(cs, device="cuda")
            skipped = (i[None, :] // c["bn"]) * c["bn"] >= (i[:, None] // c["bm"] + 1) * c["bm"]
            ref = torch.where(skipped, torch.full_like(ref, float("nan")), ref)
        return Launch(
            args=[Cm, Bm, out, seq_idx, L, cs, k, ng]
            + list(Cm.stride())
            + list(Bm.stride())
            + list(out.stride())
            + sq,
            grid=(cdiv(cs, c["bm"]) * cdiv(cs, c["bn"]), b, nc * ng),
            outputs={2: ref},
            atol=c["tol"],
            rtol=c["tol"],
            flops=2 * b * nc * ng * cs * cs * k,
        )

    return setup


BMM = [
    # Mamba-2 CB: d_state 128, 2 groups, fp16 in, fp32 out, seqlen 1000.
    dict(
        name="mamba_bmm_chunk_fp16",
        batch=2,
        seqlen=1000,
        ngroups=2,
        k=128,
        chunk=256,
        io="fp16",
        out="fp32",
        causal=False,
        cuts=None,
        bm=128,
        bn=128,
        bk=32,
        warps=4,
        stages=4,
        tol=1e-3,
    ),
    # Packed sequences (seq_idx), bf16 in and out.
    dict(
        name="mamba_bmm_chunk_seq_idx_bf16",
        batch=2,
        seqlen=2048,
        ngroups=1,
        k=64,
        chunk=256,
        io="bf16",
        out="bf16",
        causal=False,
        cuts=[[300, 700], [1024]],
        bm=64,
        bn=64,
        bk=32,
        warps=2,
        stages=4,
        tol=2e-2,
    ),
    # Causal: the programs of blocks above the diagonal return at once.
    dict(
        name="mamba_bmm_chunk_causal",
        batch=2,
        seqlen=1000,
        ngroups=1,
        k=128,
        chunk=256,
        io="fp16",
        out="fp32",
        causal=True,
        cuts=None,
        bm=64,
        bn=64,
        bk=32,
        warps=2,
        stages=4,
        tol=1e-3,
    ),
]


# flash-attention's _fwd_kernel (in flashattn_flash_attn_triton.py, no
# case): it calls tl.dot(q, k, trans_b=True), Triton 2.0's API, which
# Triton >= 2.1 rejects too (so does tilec: "'dot' has no keyword argument
# 'trans_b'").


# ---------------------------------------------------------------------------
# flash-attention: _bwd_preprocess_do_o_dot (flash_attn_triton.py), as
# _flash_attn_backward launches it: grid (cdiv(seqlen_q, 128), batch *
# nheads), BLOCK_M 128; Delta (batch, nheads, seqlen_q_rounded) is written
# for every row of the grid (0 past seqlen_q).


def fap_signature(c):
    b, L, h, d = c["batch"], c["seqlen"], c["nheads"], c["d"]
    qs = contiguous(b, L, h, d)
    std = [i32(qs[0]), i32(qs[2]), i32(qs[1])]
    return sig(
        ptr(c["io"]),
        ptr(c["io"]),
        ptr("fp32"),
        *std * 2,
        i32(h),
        i32(L),
        i32(cdiv(L, 128) * 128),
        i32(d),
        128,
        max(npow2(d), 16),
    )


def fap_setup(c):
    def setup(torch):
        g = generator(torch)
        b, L, h, d = c["batch"], c["seqlen"], c["nheads"], c["d"]
        rounded = cdiv(L, 128) * 128
        io = dt_of(torch, c["io"])
        o = torch.randn(b, L, h, d, generator=g, device="cuda").to(io)
        do = torch.randn(b, L, h, d, generator=g, device="cuda").to(io)
        delta = torch.empty(b, h, rounded, dtype=torch.float32, device="cuda")
        ref = torch.zeros(b, h, rounded, dtype=torch.float64, device="cuda")
        ref[:, :, :L] = (o.double() * do.double()).sum(-1).transpose(1, 2)
        return Launch(
            args=[o, do, delta, o.stride(0), o.stride(2), o.stride(1)]
            + [do.stride(0), do.stride(2), do.stride(1), h, L, rounded, d],
            grid=(cdiv(L, 128), b * h),
            outputs={2: ref},
            atol=1e-3,
            rtol=1e-3,
            bytes=2 * o.numel() * o.element_size(),
        )

    return setup


FAP = [
    dict(name="flashattn_bwd_preprocess_1000", batch=4, nheads=16, seqlen=1000, d=64, io="fp16"),
    dict(name="flashattn_bwd_preprocess_d96_bf16", batch=2, nheads=12, seqlen=777, d=96, io="bf16"),
]


# ---------------------------------------------------------------------------
# flash-attention: rotary_kernel (ops/triton/rotary.py), as apply_rotary
# launches it (not in place): grid (cdiv(nheads, BLOCK_H), cdiv(seqlen,
# BLOCK_M), batch), BLOCK_H 2, BLOCK_M 8 (rotary_dim <= 128), cos/sin
# (seqlen_ro, rotary_dim / 2) in the input's dtype. With rotary_dim < headdim
# the kernel leaves the other columns to the host (apply_rotary copies
# them): they keep the poison, NaN expected there.


def rot_signature(c):
    b, L, h, d, rd = c["batch"], c["seqlen"], c["nheads"], c["d"], c["rd"]
    varlen = c["cu"] is not None
    xs = contiguous(sum(c["cu_lens"]), h, d) if varlen else contiguous(b, L, h, d)
    if varlen:
        xs = (0,) + xs
    offsets = c["offsets"]
    return sig(
        ptr(c["io"]),
        ptr(c["io"]),
        ptr(c["io"]),
        ptr(c["io"]),
        ptr("i32"),
        ptr("i32") if isinstance(offsets, list) else i32(offsets),
        i32(L),
        i32(h),
        i32(c["seqlen_ro"]),
        *[i32(v) for v in xs],
        *[i32(v) for v in xs],
        rd,
        isinstance(offsets, list),
        varlen,
        c["interleaved"],
        c["conjugate"],
        2,
        8,
    )


def rot_setup(c):
    def setup(torch):
        g = generator(torch)
        h, d, rd, ro = c["nheads"], c["d"], c["rd"], c["seqlen_ro"]
        io = dt_of(torch, c["io"])
        varlen = c["cu"] is not None
        if varlen:
            lens = c["cu_lens"]
            b, L = len(lens), max(lens)
            x = torch.randn(sum(lens), h, d, generator=g, device="cuda").to(io)
            cu = torch.tensor([0] + [sum(lens[: i + 1]) for i in range(b)], dtype=torch.int32)
            cu = cu.to("cuda")
        else:
            b, L = c["batch"], c["seqlen"]
            x = torch.randn(b, L, h, d, generator=g, device="cuda").to(io)
            cu = placeholder(torch, "i32")
        angle = torch.rand(ro, rd // 2, generator=g, device="cuda") * 6.2831853
        cos, sin = torch.cos(angle).to(io), torch.sin(angle).to(io)
        if isinstance(c["offsets"], list):
            offsets = torch.tensor(c["offsets"], dtype=torch.int32, device="cuda")
        else:
            offsets = c["offsets"]
        out = torch.empty_like(x)

        # Reference: per batch row, positions 0.. of its sequence + offset.
        xb = list(x.double().split(c["cu_lens"], dim=0)) if varlen else list(x.double())
        refs = []
        for i, xi in enumerate(xb):  # xi: (len, h, d)
            n = xi.shape[0]
            off = c["offsets"][i] if isinstance(c["offsets"], list) else c["offsets"]
            cs = cos.double()[off : off + n][:, None, :]
            sn = sin.double()[off : off + n][:, None, :]
            if c["conjugate"]:
                sn = -sn
            r = torch.full_like(xi, float("nan"))
            if c["interleaved"]:
                x0, x1 = xi[..., 0:rd:2], xi[..., 1:rd:2]
                r[..., 0:rd:2] = x0 * cs - x1 * sn
                r[..., 1:rd:2] = x0 * sn + x1 * cs
            else:
                x0, x1 = xi[..., : rd // 2], xi[..., rd // 2 : rd]
                r[..., : rd // 2] = x0 * cs - x1 * sn
                r[..., rd // 2 : rd] = x0 * sn + x1 * cs
            refs.append(r)
        ref = torch.cat(refs, dim=0) if varlen else torch.stack(refs)
        if varlen:
            xs, os_ = (0,) + x.stride(), (0,) + out.stride()
        else:
            xs, os_ = x.stride(), out.stride()
        return Launch(
            args=[out, x, cos, sin, cu, offsets, L, h, ro] + list(os_) + list(xs),
            grid=(cdiv(h, 2), cdiv(L, 8), b),
            outputs={0: ref},
            atol=1e-2,
            rtol=1e-2,
            bytes=2 * x.numel() * x.element_size(),
        )

    return setup


ROT = [
    # Llama-like: headdim 128, full rotary, cos/sin cache of 1024 positions.
    dict(
        name="flashattn_rotary_d128",
        batch=4,
        seqlen=1000,
        nheads=16,
        d=128,
        rd=128,
        seqlen_ro=1024,
        offsets=0,
        cu=None,
        cu_lens=None,
        interleaved=False,
        conjugate=False,
        io="fp16",
    ),
    # GPT-J interleaved layout, per-batch offsets (decoding with a KV cache).
    dict(
        name="flashattn_rotary_interleaved_offsets",
        batch=4,
        seqlen=300,
        nheads=16,
        d=64,
        rd=64,
        seqlen_ro=2048,
        offsets=[0, 17, 512, 1700],
        cu=None,
        cu_lens=None,
        interleaved=True,
        conjugate=False,
        io="bf16",
    ),
    # Varlen (cu_seqlens), partial rotary (48 of 64: BLOCK_K 64), conjugate.
    dict(
        name="flashattn_rotary_varlen_partial",
        batch=3,
        seqlen=None,
        nheads=8,
        d=64,
        rd=48,
        seqlen_ro=1024,
        offsets=5,
        cu=True,
        cu_lens=[513, 77, 1000],
        interleaved=False,
        conjugate=True,
        io="fp16",
    ),
]
for _c in ROT:
    if _c["cu"] is not None:
        _c["seqlen"] = max(_c["cu_lens"])


# ---------------------------------------------------------------------------
# flash-attention: _layer_norm_fwd_1pass_kernel (ops/triton/layer_norm.py),
# as _layer_norm_fwd_impl launches it: grid (M,), BLOCK_N =
# next_power_of_2(N), zero_centered_weight as an int, num_warps one of the
# autotuner's configs, no dropout. (a) the pre-norm residual block:
# residual in fp32, residual_out stored; (b) RMS norm of x + x1 with a
# second weight (parallel blocks), zero-centered weights.


def fln_signature(c):
    M, N, io = c["M"], c["N"], c["io"]
    res = c["residual"]
    par = c["parallel"]
    return sig(
        ptr(io),  # X
        ptr(io),  # Y
        ptr(io),  # W
        ptr(io),  # B
        ptr("fp32"),  # RESIDUAL
        ptr(io),  # X1
        ptr(io),  # W1
        ptr(io),  # B1
        ptr(io),  # Y1
        ptr("fp32" if res else io),  # RESIDUAL_OUT
        ptr("fp32"),  # ROWSCALE
        ptr("i64"),  # SEEDS
        ptr("i1"),  # DROPOUT_MASK
        ptr("i1"),  # DROPOUT_MASK1
        ptr("fp32"),  # Mean
        ptr("fp32"),  # Rstd
        i32(N),
        i32(N),
        i32(N if res else 0),
        i32(N),
        i32(N if par else 0),
        i32(N if par else 0),
        i32(M),
        i32(N),
        "fp32",
        "fp32",
        i32(c["zero_centered"]),
        c["rms"],
        npow2(N),
        res,
        True,
        c["bias"],
        False,
        False,
        False,
        par,
        par,
        False,
    )


def fln_setup(c):
    def setup(torch):
        g = generator(torch)
        M, N, io = c["M"], c["N"], dt_of(torch, c["io"])
        eps = 1e-5 if not c["rms"] else 1e-6

        def randn(*shape, dtype=io, scale=1.0):
            return (scale * torch.randn(*shape, generator=g, device="cuda")).to(dtype)

        x = randn(M, N)
        y = torch.empty_like(x)
        zc = c["zero_centered"]
        w = randn(N, scale=0.1) if zc else (1.0 + randn(N, dtype=torch.float32, scale=0.1)).to(io)
        bias = randn(N) if c["bias"] else placeholder(torch, c["io"])
        f32 = placeholder(torch)
        if c["residual"]:
            residual = randn(M, N, dtype=torch.float32)
            residual_out = torch.empty(M, N, dtype=torch.float32, device="cuda")
        else:
            residual = f32
            residual_out = torch.empty_like(x)
        if c["parallel"]:
            x1, w1 = randn(M, N), randn(N, scale=0.1)
            y1 = torch.empty_like(x)
        else:
            x1 = w1 = y1 = placeholder(torch, c["io"])
        seeds = torch.zeros(16, dtype=torch.int64, device="cuda")
        masks = torch.zeros(16, dtype=torch.bool, device="cuda")
        mean = torch.empty(M, dtype=torch.float32, device="cuda")
        rstd = torch.empty(M, dtype=torch.float32, device="cuda")

        xs = x.double()
        if c["parallel"]:
            xs = xs + x1.double()
        if c["residual"]:
            xs = xs + residual.double()
        mu = xs.mean(-1, keepdim=True) if not c["rms"] else torch.zeros_like(xs[:, :1])
        r = 1.0 / torch.sqrt(((xs - mu) ** 2).mean(-1, keepdim=True) + eps)
        xhat = (xs - mu) * r
        wd = w.double() + (1.0 if zc else 0.0)
        yref = xhat * wd + (bias.double() if c["bias"] else 0.0)
        outputs = {1: yref, 9: xs, 15: r.view(M)}
        if not c["rms"]:
            outputs[14] = mu.view(M)
        if c["parallel"]:
            outputs[8] = xhat * (w1.double() + (1.0 if zc else 0.0))
        return Launch(
            args=[x, y, w, bias, residual, x1, w1, bias, y1, residual_out, f32, seeds]
            + [masks, masks, mean, rstd]
            + [x.stride(0), y.stride(0), residual.stride(0) if c["residual"] else 0]
            + [residual_out.stride(0), x1.stride(0) if c["parallel"] else 0]
            + [y1.stride(0) if c["parallel"] else 0, M, N, eps, 0.0, int(zc)],
            grid=(M,),
            outputs=outputs,
            atol=c["tol"],
            rtol=c["tol"],
            bytes=4 * x.numel() * x.element_size(),
        )

    return setup


FLN = [
    # GPT-style pre-norm block: hidden 2048, fp16 activations, fp32 residual.
    dict(
        name="flashattn_layer_norm_residual",
        M=2000,
        N=2048,
        io="fp16",
        residual=True,
        parallel=False,
        bias=True,
        rms=False,
        zero_centered=0,
        warps=8,
        tol=1e-2,
    ),
    # RMS norm of x + x1 with two zero-centered weights, hidden 5120 (BLOCK_N
    # 8192), bf16.
    dict(
        name="flashattn_rms_norm_parallel_bf16",
        M=1537,
        N=5120,
        io="bf16",
        residual=False,
        parallel=True,
        bias=False,
        rms=True,
        zero_centered=1,
        warps=16,
        tol=3e-2,
    ),
]


# ---------------------------------------------------------------------------
# flash-linear-attention: l2norm_fwd_kernel and l2norm_fwd_kernel1
# (fla/modules/l2norm.py), as l2norm_fwd launches them on x.view(-1, D):
# D <= 512 -> l2norm_fwd_kernel, grid (cdiv(T, BT),), NB = cdiv(T, 2048 *
# 32), BT and num_warps one of the autotuner's configs; D > 512 ->
# l2norm_fwd_kernel1, grid (T,). BD = next_power_of_2(D).


def l2_signature(c):
    T, D, io = c["T"], c["D"], c["io"]
    head = [ptr(io), ptr(io), ptr("fp32"), "fp32"]
    if c["kernel"] == "l2norm_fwd_kernel1":
        return sig(*head, i32(D), npow2(D))
    return sig(*head, "i32", D, npow2(D), cdiv(T, 2048 * 32), c["bt"])


def l2_setup(c):
    def setup(torch):
        g = generator(torch)
        T, D, io = c["T"], c["D"], dt_of(torch, c["io"])
        eps = 1e-6
        x = torch.randn(T, D, generator=g, device="cuda").to(io)
        y = torch.empty_like(x)
        rstd = torch.empty(T, dtype=torch.float32, device="cuda")
        xd = x.double()
        r = 1.0 / torch.sqrt((xd * xd).sum(-1) + eps)
        if c["kernel"] == "l2norm_fwd_kernel1":
            args, grid = [x, y, rstd, eps, D], (T,)
        else:
            args, grid = [x, y, rstd, eps, T], (cdiv(T, c["bt"]),)
        return Launch(
            args=args,
            grid=grid,
            outputs={1: xd * r[:, None], 2: r},
            atol=1e-3,
            rtol=1e-2,
            bytes=2 * x.numel() * x.element_size(),
        )

    return setup


L2 = [
    # q of a DeltaNet layer: (2, 1000, 16, 128) -> 32000 rows of 128, bf16.
    dict(
        name="fla_l2norm_d128",
        kernel="l2norm_fwd_kernel",
        T=32000,
        D=128,
        io="bf16",
        bt=16,
        warps=4,
    ),
    # Ragged: 11988 rows of 100 (BD 128, boundary checks on both axes), fp16.
    dict(
        name="fla_l2norm_d100",
        kernel="l2norm_fwd_kernel",
        T=11988,
        D=100,
        io="fp16",
        bt=32,
        warps=8,
    ),
    # D > 512: one row per program, 3000 rows of 768 (BD 1024), fp16.
    dict(
        name="fla_l2norm1_d768",
        kernel="l2norm_fwd_kernel1",
        T=3000,
        D=768,
        io="fp16",
        bt=None,
        warps=4,
    ),
]


# ---------------------------------------------------------------------------
# flash-linear-attention: fused_recurrent_fwd_kernel
# (fla/ops/common/fused_recurrent.py), as fused_recurrent_fwd launches it:
# BK = min(next_power_of_2(K), 64), BV likewise, grid (NV * NK * N * H,),
# o (NK, B, T, H, V) float32 (one partial output per key block; the host
# sums them), ht float32, num_warps one of the autotuner's configs.


def fr_signature(c):
    H, K, V, io = c["H"], c["K"], c["V"], c["io"]
    varlen = c["cu"] is not None
    return sig(
        ptr(io),
        ptr(io),
        ptr(io),
        ptr("fp32"),  # g
        ptr("fp32"),  # g_gamma
        ptr("fp32"),  # gk
        ptr("fp32"),  # gv
        ptr("fp32"),  # o
        ptr("fp32"),  # h0
        ptr("fp32"),  # ht
        ptr("i64"),  # cu_seqlens
        "fp32",
        "i32",
        "i32",
        H,
        K,
        V,
        min(npow2(K), 64),
        min(npow2(V), 64),
        c["reverse"],
        False,
        c["gate"] == "g_gamma",
        c["gate"] == "gk",
        False,
        True,
        True,
        varlen,
        c["v_first"],
    )


def fr_setup(c):
    def setup(torch):
        g = generator(torch)
        H, K, V, io = c["H"], c["K"], c["V"], dt_of(torch, c["io"])
        BK, BV = min(npow2(K), 64), min(npow2(V), 64)
        NK, NV = cdiv(K, BK), cdiv(V, BV)
        if c["cu"] is not None:
            lens = c["cu"]
            B, T, N = 1, sum(lens), len(lens)
            starts = [sum(lens[:i]) for i in range(N)]
            cu = torch.tensor([0] + [sum(lens[: i + 1]) for i in range(N)], dtype=torch.int64)
            cu = cu.to("cuda")
        else:
            B, T, N = c["B"], c["T"], c["B"]
            lens, starts = [T] * B, [i * T for i in range(B)]
            cu = placeholder(torch, "i64")

        def randn(*shape, dtype=io):
            return torch.randn(*shape, generator=g, device="cuda").to(dtype)

        q, k, v = randn(B, T, H, K), randn(B, T, H, K), randn(B, T, H, V)
        gk = g_gamma = placeholder(torch)
        if c["gate"] == "gk":
            gk = torch.nn.functional.logsigmoid(randn(B, T, H, K, dtype=torch.float32)) / 16
        else:
            g_gamma = torch.log(1 - 2.0 ** (-5.0 - torch.arange(H, device="cuda").float()))
        h0 = (
            randn(N, H, V, K, dtype=torch.float32)
            if c["v_first"]
            else randn(N, H, K, V, dtype=torch.float32)
        )
        o = torch.empty(NK, B, T, H, V, dtype=torch.float32, device="cuda")
        ht = torch.empty_like(h0)
        scale = K**-0.5

        # Reference: state [K, V] per (sequence, head), float64.
        qf, kf, vf = (t.double().reshape(B * T, H, -1) for t in (q, k, v))
        o_ref = torch.zeros(NK, B * T, H, V, dtype=torch.float64, device="cuda")
        ht_ref = torch.empty(N, H, K, V, dtype=torch.float64, device="cuda")
        gkf = gk.double().reshape(B * T, H, K) if c["gate"] == "gk" else None
        for n in range(N):
            h = h0[n].double()
            h = h.transpose(-1, -2) if c["v_first"] else h.clone()  # (H, K, V)
            steps = range(lens[n] - 1, -1, -1) if c["reverse"] else range(lens[n])
            for t in steps:
                r = starts[n] + t
                if c["gate"] == "gk":
                    h = h * torch.exp(gkf[r])[:, :, None]
                else:
                    h = h * torch.exp(g_gamma.double())[:, None, None]
                h = h + kf[r][:, :, None] * vf[r][:, None, :]
                prod = h * (qf[r] * scale)[:, :, None]  # (H, K, V)
                for i in range(NK):
                    o_ref[i, r] = prod[:, i * BK : (i + 1) * BK].sum(1)
            ht_ref[n] = h
        if c["v_first"]:
            ht_ref = ht_ref.transpose(-1, -2)
        return Launch(
            args=[q, k, v, placeholder(torch), g_gamma, gk, placeholder(torch), o, h0, ht, cu]
            + [scale, B, T],
            grid=(NV * NK * N * H,),
            outputs={7: o_ref.view(NK, B, T, H, V), 9: ht_ref},
            atol=1e-3,
            rtol=1e-3,
            flops=4 * B * T * H * K * V,
        )

    return setup


FR = [
    # GLA: per-key decay gk, K = V = 128 (2 x 2 blocks of 64), fp16.
    dict(
        name="fla_fused_recurrent_gla",
        B=2,
        T=256,
        H=8,
        K=128,
        V=128,
        gate="gk",
        reverse=False,
        v_first=False,
        cu=None,
        io="fp16",
        warps=4,
    ),
    # Retention-like per-head decay (g_gamma), varlen, reverse, [V, K] states.
    dict(
        name="fla_fused_recurrent_gamma_varlen_rev",
        B=None,
        T=None,
        H=4,
        K=64,
        V=64,
        gate="g_gamma",
        reverse=True,
        v_first=True,
        cu=[100, 37, 300],
        io="bf16",
        warps=8,
    ),
]


# ---------------------------------------------------------------------------
# flash-linear-attention: chunk_global_cumsum_scalar_kernel and
# chunk_global_cumsum_vector_kernel (fla/ops/utils/cumsum.py), as
# chunk_global_cumsum_scalar/_vector launch them: grid (N * H,) and
# (cdiv(S, BS), N * H), BS = min(32, next_power_of_2(S)), output float32,
# BT / num_warps / num_stages one of the autotuner's configs. Inputs are
# log-decays (logsigmoid), as gated linear attention feeds them.


def cum_signature(c):
    H, io = c["H"], c["io"]
    varlen = c["cu"] is not None
    B = 1 if varlen else c["B"]
    head = [ptr(io), ptr("fp32"), "fp32", ptr("i32"), "i32", B, H]
    flags = [c["reverse"], c["scale"] is not None, varlen]
    if c["kernel"] == "chunk_global_cumsum_scalar_kernel":
        return sig(*head, c["bt"], *flags)
    S = c["S"]
    return sig(*head, S, c["bt"], min(32, npow2(S)), *flags)


def cum_setup(c):
    def setup(torch):
        g = generator(torch)
        H, io = c["H"], dt_of(torch, c["io"])
        vector = c["kernel"] == "chunk_global_cumsum_vector_kernel"
        if c["cu"] is not None:
            lens = c["cu"]
            B, T = 1, sum(lens)
            cu = torch.tensor(
                [0] + [sum(lens[: i + 1]) for i in range(len(lens))], dtype=torch.int32
            )
            cu = cu.to("cuda")
            segs = lens
        else:
            B, T = c["B"], c["T"]
            cu = placeholder(torch, "i32")
            segs = [T] * B
        N = len(segs)
        shape = (B, T, H, c["S"]) if vector else (B, T, H)
        s = torch.nn.functional.logsigmoid(torch.randn(*shape, generator=g, device="cuda")).to(io)
        o = torch.empty(*shape, dtype=torch.float32, device="cuda")
        scale = c["scale"] if c["scale"] is not None else 1.0

        sd = s.double().reshape(B * T, *shape[2:])
        parts = []
        for piece in sd.split(segs, dim=0):
            if c["reverse"]:
                piece = piece.flip(0).cumsum(0).flip(0)
            else:
                piece = piece.cumsum(0)
            parts.append(piece)
        ref = (torch.cat(parts, dim=0) * scale).view(*shape)
        if vector:
            bs = min(32, npow2(c["S"]))
            grid = (cdiv(c["S"], bs), N * H)
        else:
            grid = (N * H,)
        return Launch(
            args=[s, o, scale, cu, T],
            grid=grid,
            outputs={1: ref},
            atol=1e-3,
            rtol=1e-4,
            bytes=s.numel() * (s.element_size() + 4),
        )

    return setup


CUM = [
    # [B, T, H] gates (simple GLA / GDN), forward, fp32.
    dict(
        name="fla_global_cumsum_scalar",
        kernel="chunk_global_cumsum_scalar_kernel",
        B=4,
        T=2000,
        H=16,
        S=None,
        cu=None,
        reverse=False,
        scale=None,
        io="fp32",
        bt=64,
        warps=4,
        stages=2,
    ),
    # [1, T, H, S] gates (GLA), varlen, reverse, scaled, bf16 in.
    dict(
        name="fla_global_cumsum_vector_varlen_rev",
        kernel="chunk_global_cumsum_vector_kernel",
        B=None,
        T=None,
        H=8,
        S=100,
        cu=[700, 1200, 1100],
        reverse=True,
        scale=0.5,
        io="bf16",
        bt=64,
        warps=4,
        stages=3,
    ),
]


# ---------------------------------------------------------------------------

CASES = (
    [
        Case(
            name=c["name"],
            file="mamba_selective_state_update.py",
            kernel="_selective_scan_update_kernel",
            signature=ssu_signature(c),
            num_warps=ssu_block(c["dstate"])[1],
            setup=ssu_setup(c),
        )
        for c in SSU
    ]
    + [
        Case(
            name=c["name"],
            file="mamba_layernorm_gated.py",
            kernel="_layer_norm_fwd_1pass_kernel",
            signature=lng_signature(c),
            num_warps=lng_warps(c),
            setup=lng_setup(c),
        )
        for c in LNG
    ]
    + [
        Case(
            name=c["name"],
            file="mamba_ssd_chunk_state.py",
            kernel="_chunk_cumsum_fwd_kernel",
            signature=ccs_signature(c),
            setup=ccs_setup(c),
        )
        for c in CCS
    ]
    + [
        Case(
            name=c["name"],
            file="mamba_ssd_chunk_state.py",
            kernel="_chunk_state_fwd_kernel",
            signature=cst_signature(c),
            num_warps=c["warps"],
            num_stages=c["stages"],
            setup=cst_setup(c),
        )
        for c in CST
    ]
    + [
        Case(
            name=c["name"],
            file="mamba_ssd_state_passing.py",
            kernel="_state_passing_fwd_kernel",
            signature=spf_signature(c),
            setup=spf_setup(c),
        )
        for c in SPF
    ]
    + [
        Case(
            name=c["name"],
            file="mamba_ssd_bmm.py",
            kernel="_bmm_chunk_fwd_kernel",
            signature=bmm_signature(c),
            num_warps=c["warps"],
            num_stages=c["stages"],
            setup=bmm_setup(c),
        )
        for c in BMM
    ]
    + [
        Case(
            name=c["name"],
            file="flashattn_flash_attn_triton.py",
            kernel="_bwd_preprocess_do_o_dot",
            signature=fap_signature(c),
            setup=fap_setup(c),
        )
        for c in FAP
    ]
    + [
        Case(
            name=c["name"],
            file="flashattn_rotary.py",
            kernel="rotary_kernel",
            signature=rot_signature(c),
            setup=rot_setup(c),
        )
        for c in ROT
    ]
    + [
        Case(
            name=c["name"],
            file="flashattn_layer_norm.py",
            kernel="_layer_norm_fwd_1pass_kernel",
            signature=fln_signature(c),
            num_warps=c["warps"],
            setup=fln_setup(c),
        )
        for c in FLN
    ]
    + [
        Case(
            name=c["name"],
            file="fla_l2norm.py",
            kernel=c["kernel"],
            signature=l2_signature(c),
            num_warps=c["warps"],
            setup=l2_setup(c),
        )
        for c in L2
    ]
    + [
        Case(
            name=c["name"],
            file="fla_fused_recurrent.py",
            kernel="fused_recurrent_fwd_kernel",
            signature=fr_signature(c),
            num_warps=c["warps"],
            setup=fr_setup(c),
        )
        for c in FR
    ]
    + [
        Case(
            name=c["name"],
            file="fla_cumsum.py",
            kernel=c["kernel"],
            signature=cum_signature(c),
            num_warps=c["warps"],
            num_stages=c["stages"],
            setup=cum_setup(c),
        )
        for c in CUM
    ]
)
