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
