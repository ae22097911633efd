# The Triton 3.6 peer kernels of the benchmark (bench/run_bench.py,
# bench/head_to_head.py) and of bench/triton_baseline.py: matmul (autotuned
# over six configs), softmax, GeLU (tanh through exp) and the implicit-GEMM
# conv2d, with their launchers (an output may be passed in, so that a timed
# call allocates nothing).
import torch
import triton
import triton.language as tl

dev = "cuda"

configs = [
    triton.Config({"BM": 128, "BN": 256, "BK": 64, "G": 8}, num_stages=3, num_warps=8),
    triton.Config({"BM": 128, "BN": 128, "BK": 64, "G": 8}, num_stages=4, num_warps=4),
    triton.Config({"BM": 128, "BN": 128, "BK": 64, "G": 8}, num_stages=3, num_warps=8),
    triton.Config({"BM": 64, "BN": 128, "BK": 32, "G": 8}, num_stages=4, num_warps=4),
    triton.Config({"BM": 128, "BN": 64, "BK": 32, "G": 8}, num_stages=4, num_warps=4),
    triton.Config({"BM": 64, "BN": 64, "BK": 32, "G": 8}, num_stages=5, num_warps=2),
]


@triton.jit
def matmul_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    sam,
    sak,
    sbk,
    sbn,
    scm,
    scn,
    BM: tl.constexpr,
    BN: tl.constexpr,
    BK: tl.constexpr,
    G: tl.constexpr,
):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    width = G * npn
    gid = pid // width
    first = gid * G
    gsz = min(npm - first, G)
    pm = first + (pid % width) % gsz
    pn = (pid % width) // gsz
    rm = (pm * BM + tl.arange(0, BM)) % M
    rn = (pn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        av = tl.load(a, mask=rk[None, :] < K - k * BK, other=0.0)
        bv = tl.load(b, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(av, bv, acc)
        a += BK * sak
        b += BK * sbk
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    c = c_ptr + cm[:, None] * scm + cn[None, :] * scn
    tl.store(c, acc.to(c_ptr.dtype.element_ty), mask=(cm[:, None] < M) & (cn[None, :] < N))


matmul_tuned = triton.autotune(configs=configs, key=["M", "N", "K"])(matmul_kernel)


def tmatmul(a, b, kern=matmul_tuned, c=None, **kw):
    M, K = a.shape
    _, N = b.shape
    if c is None:
        c = torch.empty((M, N), device=dev, dtype=a.dtype)

    def grid(META):
        return (triton.cdiv(M, META["BM"]) * triton.cdiv(N, META["BN"]),)

    kern[grid](
        a,
        b,
        c,
        M,
        N,
        K,
        a.stride(0),
        a.stride(1),
        b.stride(0),
        b.stride(1),
        c.stride(0),
        c.stride(1),
        **kw
    )
    return c


@triton.jit
def softmax_kernel(y_ptr, x_ptr, sx, sy, N, BLOCK: tl.constexpr):
    m = tl.program_id(0)
    n = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + m * sx + n, mask=n < N, other=-float("inf"))
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + m * sy + n, y, mask=n < N)


def tsoftmax(x, y=None):
    M, N = x.shape
    if y is None:
        y = torch.empty_like(x)
    B = triton.next_power_of_2(N)
    nw = 4 if B <= 2048 else (8 if B <= 8192 else 16)
    softmax_kernel[(M,)](y, x, x.stride(0), y.stride(0), N, BLOCK=B, num_warps=nw)
    return y


@triton.jit
def gelu_kernel(y_ptr, x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    t = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    e = tl.exp(-2.0 * tl.abs(t))
    th = tl.where(t >= 0, 1.0, -1.0) * (1 - e) / (1 + e)
    tl.store(y_ptr + offs, 0.5 * x * (1 + th), mask=m)


def tgelu(x, y=None):
    if y is None:
        y = torch.empty_like(x)
    n = x.numel()
    gelu_kernel[(triton.cdiv(n, 1024),)](y, x, n, BLOCK=1024)
    return y


@triton.jit
def conv_kernel(
    x_ptr,
    w_ptr,
    y_ptr,
    NB,
    H,
    W,
    C,
    K,
    P,
    Q,
    R: tl.constexpr,
    S: tl.constexpr,
    pad,
    BM: tl.constexpr,
    BN: tl.constexpr,
    BK: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)  # output pixel index n*P*Q + p*Q + q
    rn = pid_n * BN + tl.arange(0, BN)  # output channel
    nimg = rm // (P * Q)
    pq = rm % (P * Q)
    p = pq // Q
    q = pq % Q
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for rs in range(0, R * S):
        r = rs // S
        s = rs % S
        h = p + r - pad
        w = q + s - pad
        ok = (rm < NB * P * Q) & (h >= 0) & (h < H) & (w >= 0) & (w < W)
        base = ((nimg * H + h) * W + w) * C
        for c0 in range(0, C, BK):
            rc = c0 + tl.arange(0, BK)
            a = tl.load(
                x_ptr + base[:, None] + rc[None, :], mask=ok[:, None] & (rc[None, :] < C), other=0.0
            )
            b = tl.load(
                w_ptr + rn[None, :] * (R * S * C) + rs * C + rc[:, None],
                mask=(rc[:, None] < C) & (rn[None, :] < K),
                other=0.0,
            )
            acc = tl.dot(a, b, acc)
    y = y_ptr + rm[:, None] * K + rn[None, :]
    tl.store(y, acc.to(y_ptr.dtype.element_ty), mask=(rm[:, None] < NB * P * Q) & (rn[None, :] < K))


CONV_CONFIGS = [(128, 64, 64, 4, 3), (128, 128, 64, 8, 3), (64, 64, 64, 4, 4), (128, 128, 32, 4, 4)]


def tconv(x_nhwc, w_krsc, BM=128, BN=64, BK=64, nw=4, ns=3, y=None):
    NB, H, W, C = x_nhwc.shape
    K, R_, S_, _ = w_krsc.shape
    P, Q = H, W
    if y is None:
        y = torch.empty((NB, P, Q, K), device=dev, dtype=x_nhwc.dtype)
    grid = (triton.cdiv(NB * P * Q, BM), triton.cdiv(K, BN))
    conv_kernel[grid](
        x_nhwc,
        w_krsc,
        y,
        NB,
        H,
        W,
        C,
        K,
        P,
        Q,
        R_,
        S_,
        1,
        BM=BM,
        BN=BN,
        BK=BK,
        num_warps=nw,
        num_stages=ns,
    )
    return y


# ---------------------------------------------------------------- same source, same config
# The Triton kernels of bench/same_source.py, each written to mirror one of
# our .tile kernels statement by statement (the matmul sweep uses
# matmul_kernel above); the caller passes the same block sizes, num_warps
# and num_stages as our variant.


@triton.jit
def attention_kernel(
    out,
    q,
    k,
    v,
    seq_len,
    stride_bh,
    stride_s,
    sm_scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    # examples/attention.tile's attention_fwd
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * stride_bh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)

    q_ptrs = q + base + offs_m[:, None] * stride_s + offs_d[None, :]
    q_tile = tl.load(q_ptrs, mask=offs_m[:, None] < seq_len, other=0.0)
    qk_scale = sm_scale * 1.44269504

    m_i = tl.zeros((BLOCK_M,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    hi = seq_len
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        kv_mask = cols[:, None] < seq_len
        k_tile = tl.load(
            k + base + cols[:, None] * stride_s + offs_d[None, :], mask=kv_mask, other=0.0
        )
        qk = tl.dot(q_tile, tl.trans(k_tile)) * qk_scale
        valid = cols[None, :] < seq_len
        if CAUSAL:
            valid = valid & (offs_m[:, None] >= cols[None, :])
        qk = tl.where(valid, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v_tile = tl.load(
            v + base + cols[:, None] * stride_s + offs_d[None, :], mask=kv_mask, other=0.0
        )
        acc = tl.dot(p.to(v_tile.dtype), v_tile, acc * alpha[:, None])
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = out + base + offs_m[:, None] * stride_s + offs_d[None, :]
    tl.store(o_ptrs, acc.to(q_tile.dtype), mask=offs_m[:, None] < seq_len)


def tattention(q, k, v, sm_scale, causal, BM, BN, nw, ns, out=None):
    """q, k, v: [batch*heads, seq, head_dim], contiguous."""
    BH, S, D = q.shape
    if out is None:
        out = torch.empty_like(q)
    grid = (triton.cdiv(S, BM), BH)
    attention_kernel[grid](
        out,
        q,
        k,
        v,
        S,
        q.stride(0),
        q.stride(1),
        sm_scale,
        HEAD_DIM=D,
        BLOCK_M=BM,
        BLOCK_N=BN,
        CAUSAL=causal,
        num_warps=nw,
        num_stages=ns,
    )
    return out


@triton.jit
def transpose_kernel(
    out, inp, M, N, stride_in, stride_out, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr
):
    # bench/kernels/transpose.tile's transpose_tile
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    tile = tl.load(
        inp + rm[:, None] * stride_in + rn[None, :],
        mask=(rm[:, None] < M) & (rn[None, :] < N),
        other=0.0,
    )
    tl.store(
        out + rn[:, None] * stride_out + rm[None, :],
        tl.trans(tile),
        mask=(rn[:, None] < N) & (rm[None, :] < M),
    )


def ttranspose(x, BM, BN, nw, out=None):
    M, N = x.shape
    if out is None:
        out = torch.empty((N, M), device=dev, dtype=x.dtype)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    transpose_kernel[grid](
        out, x, M, N, x.stride(0), out.stride(0), BLOCK_M=BM, BLOCK_N=BN, num_warps=nw
    )
    return out


@triton.jit
def layernorm_kernel(
    y, x, weight, bias, mean_out, rstd_out, stride, n_cols, eps, BLOCK: tl.constexpr
):
    # examples/layernorm.tile's layernorm_fwd (tutorial 05's forward)
    row = tl.program_id(0)
    x_row = x + row * stride
    y_row = y + row * stride

    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        a = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += a
    mean = tl.sum(acc, axis=0) / n_cols

    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        a = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        d = tl.where(cols < n_cols, a - mean, 0.0)
        acc += d * d
    var = tl.sum(acc, axis=0) / n_cols
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(mean_out + row, mean)
    tl.store(rstd_out + row, rstd)

    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        w_in = tl.load(weight + cols, mask=mask)
        w = w_in.to(tl.float32)
        b = tl.load(bias + cols, mask=mask).to(tl.float32)
        a = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        out = (a - mean) * rstd * w + b
        tl.store(y_row + cols, out.to(w_in.dtype), mask=mask)


def tlayernorm(x, w, b, eps, BLOCK, nw, ns, y=None, mean=None, rstd=None):
    M, N = x.shape
    if y is None:
        y = torch.empty_like(x)
    if mean is None:
        mean = torch.empty(M, device=dev, dtype=torch.float32)
    if rstd is None:
        rstd = torch.empty(M, device=dev, dtype=torch.float32)
    layernorm_kernel[(M,)](
        y, x, w, b, mean, rstd, x.stride(0), N, eps, BLOCK=BLOCK, num_warps=nw, num_stages=ns
    )
    return y
