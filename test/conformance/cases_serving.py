"""Conformance cases: LLM training and serving kernels -- unsloth
(kernels/unsloth_*.py), vLLM (kernels/vllm_*.py) and SGLang
(kernels/sglang_*.py).

Each configuration is one the project's host code launches (its constexprs,
num_warps and num_stages as the wrapper computes them); the references are
float64, with the casts the kernels make on purpose (unsloth's "exact copy
from HF" rounding of the activation to the input dtype) applied to them.
"""

from corpus import Case, Launch


def cdiv(a, b):
    return (a + b - 1) // b


def _gen(torch):
    return torch.Generator(device="cuda").manual_seed(0)


# Tolerances of an elementwise kernel storing f16/bf16: the kernel rounds an
# f32 intermediate where the reference rounds the float64 one (at most one
# unit in the last place apart), then rounds its result.
_ELEMENTWISE_TOL = {"float16": (2e-3, 4e-3), "bfloat16": (2e-2, 2e-2)}


# -- unsloth: GEGLU / SwiGLU (kernels/unsloth_geglu.py, unsloth_swiglu.py) --
#
# The host wrappers launch grid (cdiv(n, 1024),) with BLOCK_SIZE=1024 and
# LONG_INDEXING=0 (n below 2**31 - 4096), default num_warps. n = rows * hd
# with hd = 11008 (Llama-2-7B's intermediate size) and 1023 rows: n % 1024 =
# 256, so the last program is partial.


def _gelu_exact_parts(torch, e):
    f_partial = 0.5 * (torch.erf(e * 0.5**0.5) + 1.0)
    df_de = f_partial + 0.3989422804014327 * e * torch.exp(-0.5 * e * e)
    return f_partial, df_de  # f = f_partial * e


def _gelu_approx_parts(torch, e):
    s = 0.7978845608028654
    a = s * e
    b = a * 0.044715 * e * e
    T = 1.0 + torch.tanh(a + b)
    T2 = 0.5 * T
    Q2 = -T2 * (T - 2.0) * (a + 3.0 * b)
    return T2, T2 + Q2  # f = T2 * e, df/de


def _silu_parts(torch, e):
    se = torch.sigmoid(e)
    return se, se * (1.0 + e * (1.0 - se))  # f = se * e, df/de


_ACTIVATIONS = {
    "gelu_exact": _gelu_exact_parts,
    "gelu_approx": _gelu_approx_parts,
    "silu": _silu_parts,
}


def glu_forward(act, dtype_name, rows, hd):
    """h = act(e).to(dtype) * g (_exact_forward_kernel, _approx_forward_kernel,
    _fg_kernel)."""

    def setup(torch):
        g = _gen(torch)
        dtype = getattr(torch, dtype_name)
        n = rows * hd
        e = torch.randn(rows, hd, device="cuda", generator=g).to(dtype)
        up = torch.randn(rows, hd, device="cuda", generator=g).to(dtype)
        h = torch.empty_like(e)
        ed = e.double()
        f_partial, _ = _ACTIVATIONS[act](torch, ed)
        f = (f_partial * ed).to(dtype).double()
        atol, rtol = _ELEMENTWISE_TOL[dtype_name]
        return Launch(
            args=[e, up, h, n],
            grid=(cdiv(n, 1024),),
            outputs={2: f * up.double()},
            atol=atol,
            rtol=rtol,
            bytes=3 * n * e.element_size(),
        )

    return setup


def glu_backward(act, dtype_name, rows, hd):
    """In place: DW <- h = f * g, e <- df = DW * f, g <- de = (DW * g) * df/de
    (_exact_backward_kernel, _approx_backward_kernel, _DWf_DW_dfg_kernel)."""

    def setup(torch):
        gen = _gen(torch)
        dtype = getattr(torch, dtype_name)
        n = rows * hd
        DW = torch.randn(rows, hd, device="cuda", generator=gen).to(dtype)
        e = torch.randn(rows, hd, device="cuda", generator=gen).to(dtype)
        g = torch.randn(rows, hd, device="cuda", generator=gen).to(dtype)
        ed, gd, DWd = e.double(), g.double(), DW.double()
        f_partial, df_de = _ACTIVATIONS[act](torch, ed)
        f = (f_partial * ed).to(dtype).double()
        dg = (DWd * gd).to(dtype).double()  # the kernel's f16/bf16 product
        atol, rtol = _ELEMENTWISE_TOL[dtype_name]
        return Launch(
            args=[DW, e, g, n],
            grid=(cdiv(n, 1024),),
            outputs={0: f * gd, 1: DWd * f, 2: dg * df_de},
            atol=atol,
            rtol=rtol,
            poison=False,
            bytes=6 * n * e.element_size(),
        )

    return setup


def _glu_case(name, file, kernel, dtype, setup):
    ptr = "*fp16:16" if dtype == "float16" else "*bf16:16"
    return Case(
        name=name,
        file=file,
        kernel=kernel,
        signature="%s, %s, %s, i32:16, 1024, 0" % (ptr, ptr, ptr),
        setup=setup,
        notes="n = 1023 * 11008 (a partial last block), %s" % dtype,
    )


# -- unsloth: RMS norm (kernels/unsloth_rms_layernorm.py) --
#
# Fast_RMS_Layernorm: BLOCK_SIZE, num_warps = calculate_settings(n_cols)
# (next power of two; 8 warps from 2048, 16 from 8192); the row strides,
# n_cols and eps are constexprs; r holds 1/rms per row (float32).


def rms_forward(dtype_name, rows, cols, eps):
    def setup(torch):
        g = _gen(torch)
        dtype = getattr(torch, dtype_name)
        X = torch.randn(rows, cols, device="cuda", generator=g).to(dtype)
        W = (1.0 + 0.1 * torch.randn(cols, device="cuda", generator=g)).to(dtype)
        Y = torch.empty_like(X)
        r = torch.empty(rows, dtype=torch.float32, device="cuda")
        Xd = X.double()
        inv = torch.rsqrt(Xd.pow(2).mean(-1, keepdim=True) + eps)
        normed = (Xd * inv).to(dtype).double()
        atol, rtol = _ELEMENTWISE_TOL[dtype_name]
        return Launch(
            args=[Y, X, W, r],
            grid=(rows,),
            outputs={0: normed * W.double(), 3: inv[:, 0]},
            atol=atol,
            rtol=rtol,
            bytes=2 * rows * cols * X.element_size(),
        )

    return setup


def rms_backward(dtype_name, rows, cols, eps, gemma):
    """GEMMA=False: dX is dY (the wrapper passes dY for both), written in
    place; GEMMA=True: a separate dX and the weight used as (W + 1)."""

    def setup(torch):
        g = _gen(torch)
        dtype = getattr(torch, dtype_name)
        dY = torch.randn(rows, cols, device="cuda", generator=g).to(dtype)
        X = torch.randn(rows, cols, device="cuda", generator=g).to(dtype)
        W = (0.1 * torch.randn(cols, device="cuda", generator=g)).to(dtype)
        if not gemma:
            W = W + 1.0
        r = torch.rsqrt(X.float().pow(2).mean(-1) + eps)  # what the forward saved
        rd = r.double()[:, None]
        normed = X.double() * rd
        dY_W = dY.double() * (W.double() + 1.0 if gemma else W.double())
        rowsum = (dY_W * normed).sum(-1, keepdim=True)
        dX_ref = rd / cols * (cols * dY_W - normed * rowsum)
        dX = torch.empty_like(dY) if gemma else dY
        atol, rtol = _ELEMENTWISE_TOL[dtype_name]
        return Launch(
            args=[dY, dX, X, W, r],
            grid=(rows,),
            outputs={1: dX_ref} if gemma else {0: dX_ref},
            atol=2 * atol,
            rtol=rtol,
            poison=gemma,
            bytes=3 * rows * cols * X.element_size(),
        )

    return setup


# -- unsloth: cross-entropy loss (kernels/unsloth_cross_entropy_loss.py) --
#
# Fast_CrossEntropyLoss.forward: a vocabulary up to 65536 takes
# _cross_entropy_forward (BLOCK_SIZE, num_warps = calculate_settings(vocab):
# 32768 and 32 warps for Llama-2's 32000); a larger one takes
# _chunked_cross_entropy_forward over chunks of 65536 with 32 warps, writing
# one logsumexp per chunk (the host then reduces them) and -x as the loss
# (Gemma 2: 256000 entries, final logit softcapping 30.0). Labels are int64,
# -100 marks ignored rows (loss 0).


def _ce_inputs(torch, rows, vocab):
    g = _gen(torch)
    logits = (3.0 * torch.randn(rows, vocab, device="cuda", generator=g)).to(torch.bfloat16)
    labels = torch.randint(0, vocab, (rows,), device="cuda", generator=g)
    ignore = torch.rand(rows, device="cuda", generator=g) < 0.1
    labels = torch.where(ignore, torch.full_like(labels, -100), labels)
    return logits, labels


def ce_forward(rows, vocab):
    def setup(torch):
        logits, labels = _ce_inputs(torch, rows, vocab)
        loss = torch.empty(rows, dtype=torch.float32, device="cuda")
        lse = torch.empty(rows, dtype=torch.float32, device="cuda")
        L = logits.double()
        lse_ref = torch.logsumexp(L, -1)
        x = L.gather(1, labels.clamp(min=0)[:, None])[:, 0]
        loss_ref = torch.where(labels != -100, lse_ref - x, torch.zeros_like(x))
        return Launch(
            args=[logits, vocab, loss, lse, labels],
            grid=(rows,),
            outputs={2: loss_ref, 3: lse_ref},
            atol=2e-4,
            rtol=1e-4,
            bytes=rows * vocab * 2,
        )

    return setup


def ce_chunked_forward(rows, vocab, softcap, block=65536):
    def setup(torch):
        logits, labels = _ce_inputs(torch, rows, vocab)
        n_chunks = cdiv(vocab, block)
        loss = torch.empty(rows, dtype=torch.float32, device="cuda")
        lse = torch.empty(rows, n_chunks, dtype=torch.float32, device="cuda")
        L = softcap * torch.tanh(logits.double() / softcap)
        lse_ref = torch.stack(
            [torch.logsumexp(L[:, c * block : (c + 1) * block], -1) for c in range(n_chunks)],
            dim=1,
        )
        x = L.gather(1, labels.clamp(min=0)[:, None])[:, 0]
        loss_ref = torch.where(labels != -100, -x, torch.zeros_like(x))
        return Launch(
            args=[logits, loss, lse, labels],
            grid=(rows, n_chunks),
            outputs={1: loss_ref, 2: lse_ref},
            atol=2e-4,
            rtol=1e-4,
            bytes=rows * vocab * 2,
        )

    return setup


# -- vLLM: split-KV paged decode attention
# (kernels/vllm_triton_decode_attention.py) --
#
# decode_attention_fwd: one query token per request; q (batch, heads, 128)
# f16; the KV cache (pages, PAGE_SIZE, kv_heads, 128) f16 addressed through
# the request's page table Req_to_tokens (batch, pages) int32; NUM_KV_SPLITS
# = 8 splits of each request's sequence, each written by stage 1 to
# attn_logits (batch, heads, splits, Lv + 1) f32 as the split's normalized
# output and, in the last column, its logsumexp; stage 2 merges the splits
# into o (batch, heads, 128) f16 and lse (batch, heads) f32. The host's
# launches: stage 1 MHA (kv_group_num 1): BLOCK_N 64, 4 warps, 2 stages,
# grid (batch, heads, splits); grouped (GQA): BLOCK_N 32, BLOCK_H 16, 4
# warps, 2 stages, grid (batch, cdiv(heads, min(16, group)), splits);
# stage 2: 4 warps, 2 stages, grid (batch, heads). k_scale is the host's
# dummy 1-element float32 tensor (USE_FP8=False).

_DECODE_LENS = [1000, 1537, 2048, 2999, 3333, 4000, 1234, 3777]
_SPLITS = 8
_HEAD_DIM = 128


def _split_bounds(length, splits):
    per = cdiv(length, splits)
    return [(per * s, min(per * s + per, length)) for s in range(splits)]


def decode_stage1(heads, kv_heads, page_size, logit_cap):
    def setup(torch):
        g = _gen(torch)
        D = _HEAD_DIM
        B = len(_DECODE_LENS)
        sm_scale = 1.0 / D**0.5
        # Pages of each request, scattered over the cache by a permutation.
        pages_per_req = [cdiv(n, page_size) for n in _DECODE_LENS]
        num_pages = sum(pages_per_req) + 7
        table_width = 4096 // page_size
        perm = torch.argsort(torch.rand(num_pages, device="cuda", generator=g))
        table = torch.zeros(B, table_width, dtype=torch.int32, device="cuda")
        start = 0
        for b, p in enumerate(pages_per_req):
            table[b, :p] = perm[start : start + p].to(torch.int32)
            start += p
        q = torch.randn(B, heads, D, device="cuda", generator=g).to(torch.float16)
        k_buf = torch.randn(num_pages, page_size, kv_heads, D, device="cuda", generator=g)
        v_buf = torch.randn(num_pages, page_size, kv_heads, D, device="cuda", generator=g)
        k_buf, v_buf = k_buf.to(torch.float16), v_buf.to(torch.float16)
        seq_lens = torch.tensor(_DECODE_LENS, dtype=torch.int32, device="cuda")
        att_out = torch.empty(B, heads, _SPLITS, D + 1, dtype=torch.float32, device="cuda")
        k_scale = torch.ones(1, dtype=torch.float32, device="cuda")

        # Reference: each split's softmax-weighted V and logsumexp.
        expected = torch.full(
            (B, heads, _SPLITS, D + 1), float("nan"), dtype=torch.float64, device="cuda"
        )
        k_flat = k_buf.view(-1, kv_heads, D)
        v_flat = v_buf.view(-1, kv_heads, D)
        group = heads // kv_heads
        for b, n in enumerate(_DECODE_LENS):
            pos = torch.arange(n, device="cuda")
            loc = table[b, pos // page_size].long() * page_size + pos % page_size
            K = k_flat[loc].double().repeat_interleave(group, dim=1)  # (n, heads, D)
            V = v_flat[loc].double().repeat_interleave(group, dim=1)
            s = torch.einsum("hd,nhd->hn", q[b].double(), K) * sm_scale
            if logit_cap > 0:
                s = logit_cap * torch.tanh(s / logit_cap)
            for sp, (lo, hi) in enumerate(_split_bounds(n, _SPLITS)):
                if hi <= lo:
                    continue  # not written
                lse = torch.logsumexp(s[:, lo:hi], -1)
                p = torch.exp(s[:, lo:hi] - lse[:, None])
                expected[b, :, sp, :D] = torch.einsum("hn,nhd->hd", p, V[lo:hi])
                expected[b, :, sp, D] = lse
        args = [
            q,
            k_buf,
            v_buf,
            sm_scale,
            table,
            seq_lens,
            att_out,
            k_scale,
            table.stride(0),
            q.stride(0),
            q.stride(1),
            k_buf.stride(-3),
            k_buf.stride(-2),
            v_buf.stride(-3),
            v_buf.stride(-2),
            att_out.stride(0),
            att_out.stride(1),
            att_out.stride(2),
        ]
        if heads == kv_heads:
            grid = (B, heads, _SPLITS)
        else:
            grid = (B, cdiv(heads, min(16, group)), _SPLITS)
        total = sum(_DECODE_LENS)
        return Launch(
            args=args,
            grid=grid,
            outputs={6: expected},
            atol=1e-2,
            rtol=1e-2,
            bytes=2 * total * kv_heads * D * 2,
            flops=4 * total * heads * D,
        )

    return setup


def _decode_stage1_signature(kv_group, page_size, logit_cap, grouped):
    # q_head_num, BLOCK_DPE and BLOCK_H only in the grouped kernel.
    head = "*fp16:16, *fp16:16, *fp16:16, fp32, *i32:16, *i32:16, *fp32:16, *fp32:16"
    # table, q (2), k (2), v (2), attn_logits (3): (B, 32, 8, 129) f32.
    strides = "i32:16, i32:16, i32:16, i32:16, i32:16, i32:16, i32:16, i32:16, i32, i32"
    if grouped:
        consts = "%d, 32, 128, 0, 128, 32, 16, %d, %d, %s, 128, 128, False" % (
            kv_group,
            _SPLITS,
            page_size,
            logit_cap,
        )
    else:
        consts = "%d, 128, 128, 64, %d, %d, %s, 128, 128, False" % (
            kv_group,
            _SPLITS,
            page_size,
            logit_cap,
        )
    return ", ".join([head, strides, consts])


# Stage 2 reads attn_logits as stage 1 left it; here they are made directly
# (random split outputs and logsumexps), with short requests whose later
# splits are empty (NaN in the input: stage 2 must skip them).
_STAGE2_LENS = [1, 5, 10, 100, 1000, 2500, 4000, 37]


def decode_stage2(heads):
    def setup(torch):
        g = _gen(torch)
        D = _HEAD_DIM
        B = len(_STAGE2_LENS)
        mid = torch.randn(B, heads, _SPLITS, D + 1, device="cuda", generator=g)
        mid[..., D] = 2.0 * mid[..., D] + 6.0
        valid = torch.zeros(B, _SPLITS, dtype=torch.bool)
        for b, n in enumerate(_STAGE2_LENS):
            for sp, (lo, hi) in enumerate(_split_bounds(n, _SPLITS)):
                valid[b, sp] = hi > lo
                if hi <= lo:
                    mid[b, :, sp, :] = float("nan")
        seq_lens = torch.tensor(_STAGE2_LENS, dtype=torch.int32, device="cuda")
        o = torch.empty(B, heads, D, dtype=torch.float16, device="cuda")
        lse = torch.empty(B, heads, dtype=torch.float32, device="cuda")
        o_ref = torch.empty(B, heads, D, dtype=torch.float64, device="cuda")
        lse_ref = torch.empty(B, heads, dtype=torch.float64, device="cuda")
        for b in range(B):
            splits = [sp for sp in range(_SPLITS) if valid[b, sp]]
            m = mid[b][:, splits].double()  # (heads, n_valid, D + 1)
            w = torch.softmax(m[..., D], -1)
            o_ref[b] = torch.einsum("hs,hsd->hd", w, m[..., :D])
            lse_ref[b] = torch.logsumexp(m[..., D], -1)
        return Launch(
            args=[
                mid,
                o,
                lse,
                seq_lens,
                mid.stride(0),
                mid.stride(1),
                mid.stride(2),
                o.stride(0),
                o.stride(1),
                lse.stride(0),
            ],
            grid=(B, heads),
            outputs={1: o_ref, 2: lse_ref},
            atol=2e-3,
            rtol=2e-3,
            bytes=mid.numel() * 4 + o.numel() * 2,
        )

    return setup


# -- SGLang: prefill (context) attention (kernels/sglang_prefill_attention.py) --
#
# context_attention_fwd: the prompts of a batch packed along the token axis
# (q, k, v, o: (tokens, heads, head_dim) f16), B_Start_Loc / B_Seqlen int32;
# BLOCK = 128 on sm_90 (64 before), num_warps 8 for head_dim > 64, 4 else;
# num_stages 1; grid (batch, heads, cdiv(max_len, BLOCK)). Causal with GQA
# (32 query heads, 8 KV heads, head_dim 128), and non-causal with
# head_dim 80 (the vision tower of Qwen2-VL: 16 heads of 80, padded to 128).


def prefill(lens, heads, kv_heads, head_dim, causal, block=128):
    def setup(torch):
        g = _gen(torch)
        total = sum(lens)
        q = torch.randn(total, heads, head_dim, device="cuda", generator=g).to(torch.float16)
        k = torch.randn(total, kv_heads, head_dim, device="cuda", generator=g).to(torch.float16)
        v = torch.randn(total, kv_heads, head_dim, device="cuda", generator=g).to(torch.float16)
        o = torch.empty_like(q)
        starts = [sum(lens[:i]) for i in range(len(lens))]
        b_start = torch.tensor(starts, dtype=torch.int32, device="cuda")
        b_len = torch.tensor(lens, dtype=torch.int32, device="cuda")
        sm_scale = 1.0 / head_dim**0.5
        group = heads // kv_heads
        expected = torch.empty(total, heads, head_dim, dtype=torch.float64, device="cuda")
        for s, n in zip(starts, lens):
            qb = q[s : s + n].double().transpose(0, 1)  # (heads, n, d)
            kb = k[s : s + n].double().repeat_interleave(group, dim=1).transpose(0, 1)
            vb = v[s : s + n].double().repeat_interleave(group, dim=1).transpose(0, 1)
            scores = qb @ kb.transpose(1, 2) * sm_scale
            if causal:
                future = torch.ones(n, n, dtype=torch.bool, device="cuda").triu(1)
                scores = scores.masked_fill(future, float("-inf"))
            expected[s : s + n] = (torch.softmax(scores, -1) @ vb).transpose(0, 1)
        pairs = sum(n * (n + 1) // 2 if causal else n * n for n in lens)
        return Launch(
            args=[
                q,
                k,
                v,
                sm_scale,
                b_start,
                b_len,
                o,
                q.stride(0),
                q.stride(1),
                k.stride(0),
                k.stride(1),
                v.stride(0),
                v.stride(1),
                o.stride(0),
                o.stride(1),
            ],
            grid=(len(lens), heads, cdiv(max(lens), block)),
            outputs={6: expected},
            atol=1e-2,
            rtol=1e-2,
            flops=4 * pairs * heads * head_dim,
        )

    return setup


# -- vLLM: fused MoE (kernels/vllm_fused_moe.py) --
#
# fused_experts on 256 tokens, 8 experts, top-2, hidden 1024, intermediate
# 2048, f16: the gate/up GEMM (w1: (8, 4096, 1024), C (256, 2, 4096), top_k
# 2, no routing weight) and the down GEMM (w2: (8, 1024, 2048), A the 512
# activated rows, C (256, 2, 1024), top_k 1, MUL_ROUTED_WEIGHT). The default
# config for M = 256 > E (no tuned file): BLOCK_SIZE_M/N/K 64/64/32,
# GROUP_SIZE_M 8, SPLIT_K 1, Triton's default 4 warps and 3 stages; grid
# cdiv(EM, 64) * cdiv(N, 64). moe_align_block_size's outputs are built here:
# each expert's (token, slot) indices, padded with numel to a multiple of
# BLOCK_SIZE_M, the expert of each block, and the padded count; the id
# buffer has vLLM's size numel + E * (BLOCK_SIZE_M - 1) (EM). The bias and
# quantization-scale pointers (None in vLLM's launch, unread without
# HAS_BIAS and quantization) are 1-element dummies: tilec's --signature has
# no None.

_MOE_TOKENS, _MOE_EXPERTS, _MOE_TOPK, _MOE_HIDDEN, _MOE_INTER = 256, 8, 2, 1024, 2048
_MOE_BM = 64


def _moe_routing(torch, g):
    logits = torch.randn(_MOE_TOKENS, _MOE_EXPERTS, device="cuda", generator=g)
    weights, ids = torch.topk(torch.softmax(logits, -1), _MOE_TOPK, dim=-1)
    weights = weights / weights.sum(-1, keepdim=True)
    flat = ids.flatten().tolist()
    numel = len(flat)
    sorted_ids, block_experts = [], []
    for e in range(_MOE_EXPERTS):
        idx = [i for i, x in enumerate(flat) if x == e]
        padded = cdiv(len(idx), _MOE_BM) * _MOE_BM
        sorted_ids += idx + [numel] * (padded - len(idx))
        block_experts += [e] * (padded // _MOE_BM)
    num_post = len(sorted_ids)
    em = numel + _MOE_EXPERTS * (_MOE_BM - 1)
    sorted_ids += [numel] * (em - num_post)
    block_experts += [0] * (cdiv(em, _MOE_BM) - len(block_experts))

    def i32(x):
        return torch.tensor(x, dtype=torch.int32, device="cuda")

    return (
        weights.float().contiguous(),
        flat,
        i32(sorted_ids),
        i32(block_experts),
        i32([num_post]),
        em,
    )


def fused_moe(down):
    def setup(torch):
        g = _gen(torch)
        weights, flat, sorted_ids, expert_ids, num_post, em = _moe_routing(torch, g)
        if down:
            M, K, N, top_k = _MOE_TOKENS * _MOE_TOPK, _MOE_INTER, _MOE_HIDDEN, 1
        else:
            M, K, N, top_k = _MOE_TOKENS, _MOE_HIDDEN, 2 * _MOE_INTER, _MOE_TOPK
        A = torch.randn(M, K, device="cuda", generator=g).to(torch.float16)
        B = (torch.randn(_MOE_EXPERTS, N, K, device="cuda", generator=g) / K**0.5).to(
            torch.float16
        )
        C = torch.empty(_MOE_TOKENS, _MOE_TOPK, N, dtype=torch.float16, device="cuda")
        dummy_bias = torch.zeros(1, dtype=torch.float16, device="cuda")
        dummy_scale = torch.ones(1, dtype=torch.float32, device="cuda")
        numel = _MOE_TOKENS * _MOE_TOPK
        num_valid = M * top_k  # 512 either way

        # Reference: row i = (token, slot) of C is A[i // top_k] @ B[e_i].T,
        # times the routing weight of i in the down GEMM.
        ids = torch.tensor(flat, device="cuda")
        rows = torch.arange(numel, device="cuda")
        expected = torch.empty(numel, N, dtype=torch.float64, device="cuda")
        Ad = A.double()
        for e in range(_MOE_EXPERTS):
            sel = rows[ids == e]
            expected[sel] = Ad[sel // top_k] @ B[e].double().T
        if down:
            expected *= weights.double().flatten()[:, None]
        args = [
            A,
            B,
            C,
            dummy_bias,
            dummy_scale,
            dummy_scale,
            weights,
            sorted_ids,
            expert_ids,
            num_post,
            N,
            K,
            em,
            num_valid,
            A.stride(0),
            A.stride(1),
            B.stride(0),
            B.stride(2),
            B.stride(1),
            C.stride(1),
            C.stride(2),
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        ]
        return Launch(
            args=args,
            grid=(cdiv(em, _MOE_BM) * cdiv(N, 64),),
            outputs={2: expected.view(_MOE_TOKENS, _MOE_TOPK, N)},
            atol=2e-3,
            rtol=2e-3,
            flops=2 * numel * N * K,
            bytes=B.numel() * 2 + A.numel() * 2 + C.numel() * 2,
        )

    return setup


def _moe_signature(down):
    # a, b, c, b_bias, a_scale, b_scale, topk_weights, sorted_token_ids,
    # expert_ids, num_tokens_post_padded
    ptrs = "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, *fp32:16, " + (
        "*i32:16, *i32:16, *i32:16"
    )
    # N, K, EM (1016), num_valid_tokens (512)
    dims = "i32:16, i32:16, i32, i32:16"
    # am, ak (1), be, bk (1), bn, cm, cn (1), then the unused scale and bias
    # strides (0)
    strides = "i32:16, i32, i32:16, i32, i32:16, i32:16, i32, " + ", ".join(["i32:16"] * 7)
    consts = "0, 0, 64, 64, 32, 8, 1, %s, %d, tl.float16, False, False, False, False, False" % (
        "True" if down else "False",
        1 if down else _MOE_TOPK,
    )
    return ", ".join([ptrs, dims, strides, consts])


_ROWS, _HD = 1023, 11008

CASES = [
    # unsloth GEGLU / SwiGLU
    _glu_case(
        "unsloth_geglu_exact_fwd",
        "unsloth_geglu.py",
        "_exact_forward_kernel",
        "float16",
        glu_forward("gelu_exact", "float16", _ROWS, _HD),
    ),
    _glu_case(
        "unsloth_geglu_exact_bwd",
        "unsloth_geglu.py",
        "_exact_backward_kernel",
        "bfloat16",
        glu_backward("gelu_exact", "bfloat16", _ROWS, _HD),
    ),
    _glu_case(
        "unsloth_geglu_approx_fwd",
        "unsloth_geglu.py",
        "_approx_forward_kernel",
        "bfloat16",
        glu_forward("gelu_approx", "bfloat16", _ROWS, _HD),
    ),
    _glu_case(
        "unsloth_geglu_approx_bwd",
        "unsloth_geglu.py",
        "_approx_backward_kernel",
        "float16",
        glu_backward("gelu_approx", "float16", _ROWS, _HD),
    ),
    _glu_case(
        "unsloth_swiglu_fg",
        "unsloth_swiglu.py",
        "_fg_kernel",
        "bfloat16",
        glu_forward("silu", "bfloat16", _ROWS, _HD),
    ),
    _glu_case(
        "unsloth_swiglu_dwf_dw_dfg",
        "unsloth_swiglu.py",
        "_DWf_DW_dfg_kernel",
        "float16",
        glu_backward("silu", "float16", _ROWS, _HD),
    ),
    # unsloth RMS norm
    Case(
        name="unsloth_rms_layernorm_fwd_4096",
        file="unsloth_rms_layernorm.py",
        kernel="_rms_layernorm_forward",
        signature="*fp16:16, 4096, *fp16:16, 4096, *fp16:16, 1, *fp32:16, 1, 4096, 1e-05, 4096",
        num_warps=8,
        setup=rms_forward("float16", 4096, 4096, 1e-5),
        notes="Llama-2-7B hidden size, 4096 rows",
    ),
    Case(
        name="unsloth_rms_layernorm_fwd_5120_bf16",
        file="unsloth_rms_layernorm.py",
        kernel="_rms_layernorm_forward",
        signature="*bf16:16, 5120, *bf16:16, 5120, *bf16:16, 1, *fp32:16, 1, 5120, 1e-06, 8192",
        num_warps=16,
        setup=rms_forward("bfloat16", 1000, 5120, 1e-6),
        notes="Llama-2-13B hidden size: BLOCK_SIZE 8192 > n_cols (masked), 16 warps",
    ),
    Case(
        name="unsloth_rms_layernorm_bwd_4096",
        file="unsloth_rms_layernorm.py",
        kernel="_rms_layernorm_backward",
        signature=(
            "*fp16:16, 4096, *fp16:16, 4096, *fp16:16, 4096, *fp16:16, 1, *fp32:16, 1, "
            "4096, 1e-05, False, 4096"
        ),
        num_warps=8,
        setup=rms_backward("float16", 4096, 4096, 1e-5, gemma=False),
        notes="GEMMA=False: dX is dY, written in place",
    ),
    Case(
        name="unsloth_rms_layernorm_bwd_gemma_3072",
        file="unsloth_rms_layernorm.py",
        kernel="_rms_layernorm_backward",
        signature=(
            "*bf16:16, 3072, *bf16:16, 3072, *bf16:16, 3072, *bf16:16, 1, *fp32:16, 1, "
            "3072, 1e-06, True, 4096"
        ),
        num_warps=8,
        setup=rms_backward("bfloat16", 1024, 3072, 1e-6, gemma=True),
        notes="GEMMA=True (Gemma-7B hidden size 3072): separate dX, weight + 1",
    ),
    # unsloth cross-entropy
    Case(
        name="unsloth_cross_entropy_fwd_32000",
        file="unsloth_cross_entropy_loss.py",
        kernel="_cross_entropy_forward",
        signature="*bf16:16, i32:16, *fp32:16, *fp32:16, *i64:16, 32000, 32768, False, 0, False, 0",
        num_warps=32,
        setup=ce_forward(1024, 32000),
        notes="Llama-2 vocabulary, bf16 logits, ~10% ignored labels",
    ),
    Case(
        name="unsloth_cross_entropy_chunked_gemma2",
        file="unsloth_cross_entropy_loss.py",
        kernel="_chunked_cross_entropy_forward",
        signature=(
            "*bf16:16, 256000, *fp32:16, *fp32:16, *i64:16, 256000, 4, 65536, True, 30.0, False, 0"
        ),
        num_warps=32,
        setup=ce_chunked_forward(128, 256000, 30.0),
        notes="Gemma 2: 256000 vocabulary in 4 chunks of 65536, logit softcapping 30.0",
    ),
    # vLLM decode attention
    Case(
        name="vllm_decode_stage1_mha",
        file="vllm_triton_decode_attention.py",
        kernel="_fwd_kernel_stage1",
        signature=_decode_stage1_signature(1, 1, 0.0, grouped=False),
        num_warps=4,
        num_stages=2,
        setup=decode_stage1(32, 32, 1, 0.0),
        notes="batch 8, 32 heads, head_dim 128, kv lengths 1000-4000, page size 1, 8 splits",
    ),
    Case(
        name="vllm_decode_stage1_gqa_page16",
        file="vllm_triton_decode_attention.py",
        kernel="_fwd_grouped_kernel_stage1",
        signature=_decode_stage1_signature(4, 16, 0.0, grouped=True),
        num_warps=4,
        num_stages=2,
        setup=decode_stage1(32, 8, 16, 0.0),
        notes="32 query heads over 8 KV heads, page size 16, 8 splits",
    ),
    Case(
        name="vllm_decode_stage1_gqa_logit_cap",
        file="vllm_triton_decode_attention.py",
        kernel="_fwd_grouped_kernel_stage1",
        signature=_decode_stage1_signature(4, 16, 30.0, grouped=True),
        num_warps=4,
        num_stages=2,
        setup=decode_stage1(32, 8, 16, 30.0),
        notes="as vllm_decode_stage1_gqa_page16 with logit_cap 30.0 (Grok-1): the tanh helper",
    ),
    Case(
        name="vllm_decode_stage2",
        file="vllm_triton_decode_attention.py",
        kernel="_fwd_kernel_stage2",
        signature=(
            "*fp32:16, *fp16:16, *fp32:16, *i32:16, i32:16, i32, i32, i32:16, i32:16, i32:16, "
            "8, 128, 128"
        ),
        num_warps=4,
        num_stages=2,
        setup=decode_stage2(32),
        notes="merge of 8 splits; lengths 1..4000, empty splits skipped (NaN in the input)",
    ),
    # SGLang prefill attention
    Case(
        name="sglang_prefill_causal_gqa",
        file="sglang_prefill_attention.py",
        kernel="_fwd_kernel",
        signature=(
            "*fp16:16, *fp16:16, *fp16:16, fp32, *i32:16, *i32:16, *fp16:16, "
            "i32:16, i32:16, i32:16, i32:16, i32:16, i32:16, i32:16, i32:16, "
            "4, 128, 128, 128, True, 128"
        ),
        num_warps=8,
        num_stages=1,
        setup=prefill([1000, 517, 1536, 129, 1, 64, 777, 300], 32, 8, 128, True),
        notes="8 ragged prompts (1..1536 tokens), 32 query heads over 8 KV heads",
    ),
    Case(
        name="sglang_prefill_noncausal_d80",
        file="sglang_prefill_attention.py",
        kernel="_fwd_kernel",
        signature=(
            "*fp16:16, *fp16:16, *fp16:16, fp32, *i32:16, *i32:16, *fp16:16, "
            "i32:16, i32:16, i32:16, i32:16, i32:16, i32:16, i32:16, i32:16, "
            "1, 128, 128, 128, False, 80"
        ),
        num_warps=8,
        num_stages=1,
        setup=prefill([1024, 256, 1600, 64], 16, 16, 80, False),
        notes="vision-tower shape: 16 heads of 80 (BLOCK_DMODEL 128, masked), non-causal",
    ),
    # vLLM fused MoE
    Case(
        name="vllm_fused_moe_gate_up",
        file="vllm_fused_moe.py",
        kernel="fused_moe_kernel",
        signature=_moe_signature(down=False),
        setup=fused_moe(down=False),
        notes="256 tokens, 8 experts, top-2: (256 x 1024) x w1 (8, 4096, 1024)",
    ),
    Case(
        name="vllm_fused_moe_down",
        file="vllm_fused_moe.py",
        kernel="fused_moe_kernel",
        signature=_moe_signature(down=True),
        setup=fused_moe(down=True),
        notes="512 routed rows x w2 (8, 1024, 2048), times the routing weights",
    ),
]
