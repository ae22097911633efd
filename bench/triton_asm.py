"""Dumps what Triton makes of a peer kernel (bench/peers.py) at one
configuration -- its TTGIR, PTX and cubin -- for comparison with tilec's
output of the same source (run on the GPU machine; files go to OUT).

    python3 bench/triton_asm.py OUT attention D=64 BM=64 BN=64 nw=4 ns=2 [causal=1] [dtype=bf16]
    python3 bench/triton_asm.py OUT matmul BM=128 BN=128 BK=64 nw=8 ns=5 [dtype=f32]
    python3 bench/triton_asm.py OUT layernorm N=16384 BLOCK=16384 nw=8 ns=3 [dtype=f32]
    python3 bench/triton_asm.py OUT transpose M=8100 N=8200 BM=128 BN=64 nw=8 [dtype=f32]
"""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402


def attention(args):
    D, BM, BN = int(args.get("D", 64)), int(args.get("BM", 64)), int(args.get("BN", 64))
    nw, ns = int(args.get("nw", 4)), int(args.get("ns", 2))
    causal = bool(int(args.get("causal", 0)))
    dt = torch.bfloat16 if args.get("dtype") == "bf16" else torch.float16
    q, k, v = (torch.randn(2, 1024, D, device="cuda", dtype=dt) for _ in range(3))
    out = torch.empty_like(q)
    grid = ((1024 + BM - 1) // BM, 2)
    compiled = peers.attention_kernel[grid](
        out, q, k, v, 1024, q.stride(0), q.stride(1), 0.125,
        HEAD_DIM=D, BLOCK_M=BM, BLOCK_N=BN, CAUSAL=causal, num_warps=nw, num_stages=ns,
    )  # fmt: skip
    name = "attention_d%d_%dx%d_w%d_s%d%s" % (D, BM, BN, nw, ns, "_c" if causal else "")
    return name, compiled


def matmul(args):
    BM, BN, BK = int(args.get("BM", 128)), int(args.get("BN", 128)), int(args.get("BK", 64))
    nw, ns = int(args.get("nw", 4)), int(args.get("ns", 3))
    dt = torch.float32 if args.get("dtype") == "f32" else torch.float16
    M = N = K = 1024
    a = torch.randn(M, K, device="cuda", dtype=dt)
    b = torch.randn(K, N, device="cuda", dtype=dt)
    c = torch.empty(M, N, device="cuda", dtype=dt)
    grid = ((M // BM) * (N // BN),)
    compiled = peers.matmul_kernel[grid](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
        c.stride(0), c.stride(1), BM=BM, BN=BN, BK=BK, G=8, num_warps=nw, num_stages=ns,
    )  # fmt: skip
    name = "matmul_%s_%dx%dx%d_w%d_s%d" % (args.get("dtype", "f16"), BM, BN, BK, nw, ns)
    return name, compiled


def layernorm(args):
    N, BLOCK = int(args.get("N", 16384)), int(args.get("BLOCK", 16384))
    nw, ns = int(args.get("nw", 8)), int(args.get("ns", 3))
    dt = torch.float32 if args.get("dtype") == "f32" else torch.float16
    M = 64
    x = torch.randn(M, N, device="cuda", dtype=dt)
    w = torch.randn(N, device="cuda", dtype=dt)
    b = torch.randn(N, device="cuda", dtype=dt)
    y = torch.empty_like(x)
    mean = torch.empty(M, device="cuda", dtype=torch.float32)
    rstd = torch.empty_like(mean)
    compiled = peers.layernorm_kernel[(M,)](
        y, x, w, b, mean, rstd, x.stride(0), N, 1e-5, BLOCK=BLOCK, num_warps=nw, num_stages=ns
    )
    name = "layernorm_%s_n%d_b%d_w%d_s%d" % (args.get("dtype", "f16"), N, BLOCK, nw, ns)
    return name, compiled


def transpose(args):
    M, N = int(args.get("M", 8100)), int(args.get("N", 8200))
    BM, BN, nw = int(args.get("BM", 128)), int(args.get("BN", 64)), int(args.get("nw", 8))
    dt = torch.float32 if args.get("dtype") == "f32" else torch.float16
    x = torch.randn(M, N, device="cuda", dtype=dt)
    out = torch.empty((N, M), device="cuda", dtype=dt)
    grid = ((M + BM - 1) // BM, (N + BN - 1) // BN)
    compiled = peers.transpose_kernel[grid](
        out, x, M, N, x.stride(0), out.stride(0), BLOCK_M=BM, BLOCK_N=BN, num_warps=nw
    )
    name = "transpose_%s_%dx%d_%dx%d_w%d" % (args.get("dtype", "f16"), M, N, BM, BN, nw)
    return name, compiled


def main():
    out_dir, kernel = sys.argv[1], sys.argv[2]
    args = dict(a.split("=", 1) for a in sys.argv[3:])
    name, compiled = {
        "attention": attention,
        "matmul": matmul,
        "layernorm": layernorm,
        "transpose": transpose,
    }[kernel](args)
    os.makedirs(out_dir, exist_ok=True)
    for key in ("ttgir", "ptx", "cubin"):
        text = compiled.asm.get(key)
        if text is None:
            continue
        mode = "wb" if isinstance(text, bytes) else "w"
        with open(os.path.join(out_dir, "%s.%s" % (name, key)), mode) as f:
            f.write(text)
    print(
        name,
        "n_regs",
        getattr(compiled, "n_regs", "?"),
        "spills",
        getattr(compiled, "n_spills", "?"),
    )


if __name__ == "__main__":
    main()
