"""Conformance cases: Liger-Kernel (kernels/liger_*.py).

Each case launches a kernel as Liger's host code does (its wrappers in
src/liger_kernel/ops/*.py): BLOCK_SIZE and num_warps as its
calculate_settings (liger_kernel/ops/utils.py) picks them, copied here by
hand; the constexpr modes (casting mode, reduction, ...) as its wrappers
pass them. Where the wrapper sizes the grid by the device's SM count (the
backward kernels that write one partial dW row per program), the cases fix
it at SM_COUNT = 132 (an H100 SXM), so that a constexpr derived from it is
known at compile time; the expected values are then the per-program partial
rows the kernel writes, not the sums the wrapper returns.

The references are float64, computed from the inputs as the kernel sees them
(bf16 inputs are rounded once, when made), by the formula of each op; where
the kernel reads a cached statistic (RSTD, Mean), the reference uses the same
cached values.
"""

from corpus import Case, Launch


def cdiv(a, b):
    return (a + b - 1) // b


def next_power_of_2(n):
    return 1 << (n - 1).bit_length()


def calculate_settings(n):
    """liger_kernel.ops.utils.calculate_settings, on CUDA (not HIP)."""
    block = next_power_of_2(n)
    assert block <= 65536
    num_warps = 4
    if block >= 32768:
        num_warps = 32
    elif block >= 8192:
        num_warps = 16
    elif block >= 2048:
        num_warps = 8
    return block, num_warps


# The SM count that the backward wrappers size their grid by (an H100 SXM).
SM_COUNT = 132

# Tolerances (atol, rtol) of outputs stored as bf16 (one rounding of the
# result, sometimes of an intermediate too) and as fp32.
BF16 = dict(atol=1e-2, rtol=1e-2)
FP32 = dict(atol=1e-5, rtol=1e-4)

DTYPES = {"bf16": "bfloat16", "fp32": "float32"}
SIZE = {"bf16": 2, "fp32": 4}


def _dtype(torch, dt):
    return getattr(torch, DTYPES[dt])


def _gen(torch):
    return torch.Generator(device="cuda").manual_seed(0)


def _randn(torch, g, shape, dtype, scale=1.0, shift=0.0):
    x = torch.randn(shape, device="cuda", generator=g, dtype=torch.float32)
    return (x * scale + shift).to(dtype)


def _partial_rows(torch, t, programs, rows_per_program):
    """Per-program sums of the rows of t (rows x cols), program p summing
    rows [p * rows_per_program, (p + 1) * rows_per_program)."""
    rows, cols = t.shape
    padded = torch.zeros(programs * rows_per_program, cols, dtype=t.dtype, device=t.device)
    padded[:rows] = t
    return padded.view(programs, rows_per_program, cols).sum(1)


def _strided_rows(torch, t, programs):
    """Per-program sums of the rows of t, program p summing rows p,
    p + programs, p + 2 * programs, ..."""
    rows, cols = t.shape
    per = cdiv(rows, programs)
    padded = torch.zeros(per * programs, cols, dtype=t.dtype, device=t.device)
    padded[:rows] = t
    return padded.view(per, programs, cols).sum(0)


# -- rms_norm ---------------------------------------------------------------
# _CASTING_MODE_LLAMA = 0, _CASTING_MODE_GEMMA = 1 (Llama: rstd in fp32, the
# weight multiply in the input dtype; Gemma: everything in fp32). RSTD is fp32
# in both modes.
RMS_EPS = 1e-6


def rms_norm_fwd(rows, cols, dt, offset):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        x = _randn(torch, g, (rows, cols), dtype)
        w = _randn(torch, g, (cols,), dtype, scale=0.1, shift=1.0 - offset)
        y = torch.empty_like(x)
        rstd = torch.empty(rows, dtype=torch.float32, device="cuda")
        xd, wd = x.double(), w.double()
        r = torch.rsqrt((xd * xd).mean(-1) + RMS_EPS)
        return Launch(
            args=[y, cols, x, cols, w, 1, rstd, 1, cols, RMS_EPS, offset],
            grid=(rows,),
            outputs={0: xd * r[:, None] * (offset + wd), 6: r},
            bytes=2 * SIZE[dt] * rows * cols,
            **(BF16 if dt == "bf16" else FP32),
        )

    return setup


def rms_norm_bwd(rows, cols, dt, offset, in_place):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        x = _randn(torch, g, (rows, cols), dtype)
        w = _randn(torch, g, (cols,), dtype, scale=0.1, shift=1.0 - offset)
        dy = _randn(torch, g, (rows, cols), dtype)
        xd, wd, dyd = x.double(), w.double(), dy.double()
        # RSTD as the forward kernel caches it (fp32).
        rstd = torch.rsqrt((xd * xd).mean(-1) + RMS_EPS).float()
        # Liger's default is in_place=True: dX is dY.
        dx = dy if in_place else torch.zeros_like(dy)
        dw = torch.empty(SM_COUNT, cols, dtype=torch.float32, device="cuda")
        rows_per_program = cdiv(rows, SM_COUNT)
        r = rstd.double()[:, None]
        m = dyd * (wd + offset)
        dx_ref = r * m - r**3 / cols * (m * xd).sum(-1, keepdim=True) * xd
        dw_ref = _partial_rows(torch, dyd * xd * r, SM_COUNT, rows_per_program)
        return Launch(
            args=[dy, cols, dx, cols, x, cols, w, 1, rstd, 1, dw, cols]
            + [rows, cols, offset, rows_per_program],
            grid=(SM_COUNT,),
            outputs={2: dx_ref, 10: dw_ref},
            poison=not in_place,
            bytes=3 * SIZE[dt] * rows * cols,
            # bf16: the Llama mode rounds each dW term to bf16 (twice) before
            # summing them; partial sums near 0 keep that absolute error.
            **(dict(atol=1e-1, rtol=2e-2) if dt == "bf16" else FP32),
        )

    return setup


def rms_norm_cases():
    cases = []
    for dt, cols, mode, offset, name in (
        ("bf16", 4096, 0, 0.0, "llama_bf16_4096"),
        ("fp32", 4000, 1, 1.0, "gemma_fp32_4000"),
    ):
        block, warps = calculate_settings(cols)
        ty = "*%s:16" % dt
        cases.append(
            Case(
                name="liger_rms_norm_fwd_" + name,
                file="liger_rms_norm.py",
                kernel="_rms_norm_forward_kernel",
                signature="%s, i32:16, %s, i32:16, %s, i32:1, *fp32:16, i32:1, i32:16, fp32, fp32, "
                "%d, True, %d" % (ty, ty, ty, mode, block),
                num_warps=warps,
                setup=rms_norm_fwd(4096, cols, dt, offset),
            )
        )
        in_place = dt == "bf16"
        cases.append(
            Case(
                name="liger_rms_norm_bwd_" + name,
                file="liger_rms_norm.py",
                kernel="_rms_norm_backward_kernel",
                signature="%s, i32:16, %s, i32:16, %s, i32:16, tl.%s, %s, i32:1, *fp32:16, i32:1, "
                "*fp32:16, i32:16, i32:16, i32:16, fp32, i32:16, %d, True, %d"
                % (ty, ty, ty, DTYPES[dt], ty, mode, block),
                num_warps=warps,
                setup=rms_norm_bwd(4096, cols, dt, offset, in_place),
                notes="dX %s; grid of %d programs, partial dW rows"
                % ("in place (dX is dY)" if in_place else "separate", SM_COUNT),
            )
        )
    return cases


# -- layer_norm -------------------------------------------------------------
# Mean and RSTD are stored in the input dtype.
LN_EPS = 1e-5


def layer_norm_fwd(rows, cols, dt):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        x = _randn(torch, g, (rows, cols), dtype, scale=2.0, shift=1.0)
        w = _randn(torch, g, (cols,), dtype)
        b = _randn(torch, g, (cols,), dtype, scale=0.1)
        y = torch.empty_like(x)
        mean = torch.empty(rows, dtype=dtype, device="cuda")
        rstd = torch.empty(rows, dtype=dtype, device="cuda")
        xd = x.double()
        mu = xd.mean(-1, keepdim=True)
        r = torch.rsqrt(((xd - mu) ** 2).mean(-1, keepdim=True) + LN_EPS)
        return Launch(
            args=[y, cols, x, cols, w, 1, b, 1, mean, 1, rstd, 1, cols, LN_EPS],
            grid=(rows,),
            outputs={0: (xd - mu) * r * w.double() + b.double(), 8: mu[:, 0], 10: r[:, 0]},
            bytes=2 * SIZE[dt] * rows * cols,
            **(BF16 if dt == "bf16" else FP32),
        )

    return setup


def layer_norm_bwd(rows, cols, dt):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        x = _randn(torch, g, (rows, cols), dtype, scale=2.0, shift=1.0)
        w = _randn(torch, g, (cols,), dtype)
        dy = _randn(torch, g, (rows, cols), dtype)
        xd, wd, dyd = x.double(), w.double(), dy.double()
        # Mean and RSTD as the forward kernel stores them (input dtype).
        mu = xd.mean(-1)
        mean = mu.to(dtype)
        rstd = torch.rsqrt(((xd - mu[:, None]) ** 2).mean(-1) + LN_EPS).to(dtype)
        dx = torch.empty_like(x)
        dw = torch.empty(SM_COUNT, cols, dtype=torch.float32, device="cuda")
        db = torch.empty(SM_COUNT, cols, dtype=torch.float32, device="cuda")
        rows_per_program = cdiv(rows, SM_COUNT)
        m, r = mean.double()[:, None], rstd.double()[:, None]
        x_hat = (xd - m) * r
        wdy = wd * dyd
        c1 = (x_hat * wdy).sum(-1, keepdim=True) / cols
        c2 = wdy.sum(-1, keepdim=True) / cols
        return Launch(
            args=[x, cols, w, mean, 1, rstd, 1, dx, cols, dw, cols, db, cols, dy, cols, rows, cols],
            grid=(SM_COUNT,),
            outputs={
                7: (wdy - (x_hat * c1 + c2)) * r,
                9: _partial_rows(torch, dyd * x_hat, SM_COUNT, rows_per_program),
                11: _partial_rows(torch, dyd, SM_COUNT, rows_per_program),
            },
            bytes=3 * SIZE[dt] * rows * cols,
            **(BF16 if dt == "bf16" else FP32),
        )

    return setup


def layer_norm_cases():
    cases = []
    for dt, rows, cols in (("bf16", 4096, 4096), ("fp32", 2048, 4000)):
        block, warps = calculate_settings(cols)
        ty = "*%s:16" % dt
        cases.append(
            Case(
                name="liger_layer_norm_fwd_%s_%d" % (dt, cols),
                file="liger_layer_norm.py",
                kernel="_layer_norm_forward_kernel",
                signature="%s, i32:16, %s, i32:16, %s, i32:1, %s, i32:1, %s, i32:1, %s, i32:1, "
                "i32:16, fp32, %d" % (ty, ty, ty, ty, ty, ty, block),
                num_warps=warps,
                setup=layer_norm_fwd(rows, cols, dt),
            )
        )
        cases.append(
            Case(
                name="liger_layer_norm_bwd_%s_%d" % (dt, cols),
                file="liger_layer_norm.py",
                kernel="_layer_norm_backward_kernel",
                signature="%s, i32:16, %s, %s, i32:1, %s, i32:1, %s, i32:16, *fp32:16, i32:16, "
                "*fp32:16, i32:16, %s, i32:16, i32:16, i32:16, %d, %d"
                % (ty, ty, ty, ty, ty, ty, cdiv(rows, SM_COUNT), block),
                num_warps=warps,
                setup=layer_norm_bwd(rows, cols, dt),
                notes="grid of %d programs, partial dW/dB rows" % SM_COUNT,
            )
        )
    return cases


# -- swiglu and geglu ------------------------------------------------------
# Forward: c = act(a) * b. Backward: da and db written over a and b.
SQRT_2_OVER_PI = 0.7978845608028654


def _gelu_tanh(torch, a):
    t = torch.tanh(SQRT_2_OVER_PI * (a + 0.044715 * a**3))
    return 0.5 * a * (1 + t), t


def glu_fwd(act, rows, cols, dt, gate_multiplier=None):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        a = _randn(torch, g, (rows, cols), dtype)
        b = _randn(torch, g, (rows, cols), dtype)
        c = torch.empty_like(a)
        ad, bd = a.double(), b.double()
        if act == "silu":
            ad = ad * gate_multiplier
            ref = ad * torch.sigmoid(ad) * bd
            args = [a, b, c, cols, gate_multiplier]
        else:
            ref = _gelu_tanh(torch, ad)[0] * bd
            args = [a, b, c, cols]
        return Launch(
            args=args,
            grid=(rows,),
            outputs={2: ref},
            bytes=3 * SIZE[dt] * rows * cols,
            **(BF16 if dt == "bf16" else FP32),
        )

    return setup


def glu_bwd(act, rows, cols, dt, gate_multiplier=None):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        a = _randn(torch, g, (rows, cols), dtype)
        b = _randn(torch, g, (rows, cols), dtype)
        dc = _randn(torch, g, (rows, cols), dtype)
        ad, bd, dcd = a.double(), b.double(), dc.double()
        if act == "silu":
            ad = ad * gate_multiplier
            s = torch.sigmoid(ad)
            silu = ad * s
            db = dcd * silu
            da = dcd * (silu * (1 - s) + s) * bd * gate_multiplier
            args = [dc, a, b, cols, gate_multiplier]
        else:
            gelu, t = _gelu_tanh(torch, ad)
            db = dcd * gelu
            da = (
                dcd
                * bd
                * (
                    0.5 * (1 + t)
                    + 0.5 * ad * (1 - t * t) * (SQRT_2_OVER_PI * (1 + 3 * 0.044715 * ad * ad))
                )
            )
            args = [dc, a, b, cols]
        return Launch(
            args=args,
            grid=(rows,),
            outputs={1: da, 2: db},
            poison=False,  # written over the inputs a and b
            bytes=5 * SIZE[dt] * rows * cols,
            **(BF16 if dt == "bf16" else FP32),
        )

    return setup


def glu_cases():
    cases = []
    # SwiGLU: Llama-3-8B's intermediate size (bf16) and Llama-2-7B's (fp32,
    # with a gate multiplier).
    for dt, rows, cols, gm in (("bf16", 4096, 14336, 1.0), ("fp32", 2048, 11008, 0.5)):
        block, warps = calculate_settings(cols)
        ty = "*%s:16" % dt
        sig = "%s, %s, %s, i32:16, fp32, %d, %d" % (ty, ty, ty, cols, block)
        cases.append(
            Case(
                name="liger_swiglu_fwd_%s_%d" % (dt, cols),
                file="liger_swiglu.py",
                kernel="_swiglu_forward_kernel",
                signature=sig,
                num_warps=warps,
                setup=glu_fwd("silu", rows, cols, dt, gm),
            )
        )
        if dt == "bf16":
            cases.append(
                Case(
                    name="liger_swiglu_bwd_%s_%d" % (dt, cols),
                    file="liger_swiglu.py",
                    kernel="_swiglu_backward_kernel",
                    signature=sig,
                    num_warps=warps,
                    setup=glu_bwd("silu", rows, cols, dt, gm),
                )
            )
    # GEGLU: Gemma-2B's intermediate size (bf16) and a ragged fp32 one.
    for dt, rows, cols in (("bf16", 2048, 16384), ("fp32", 2048, 11008)):
        block, warps = calculate_settings(cols)
        ty = "*%s:16" % dt
        sig = "%s, %s, %s, i32:16, %d, %d" % (ty, ty, ty, cols, block)
        cases.append(
            Case(
                name="liger_geglu_fwd_%s_%d" % (dt, cols),
                file="liger_geglu.py",
                kernel="_geglu_tanh_forward_kernel",
                signature=sig,
                num_warps=warps,
                setup=glu_fwd("gelu", rows, cols, dt),
            )
        )
        cases.append(
            Case(
                name="liger_geglu_bwd_%s_%d" % (dt, cols),
                file="liger_geglu.py",
                kernel="_geglu_tanh_backward_kernel",
                signature=sig,
                num_warps=warps,
                setup=glu_bwd("gelu", rows, cols, dt),
            )
        )
    return cases


# -- cross_entropy ----------------------------------------------------------
# The kernel writes the gradient over the logits X (HAS_GRADIENTS), the
# per-row loss (mean reduction: already divided by the number of
# non-ignored rows) and, when asked, the z loss, the token accuracy and the
# predicted token. Ignored rows: X zeroed, loss and z loss not written (the
# wrapper's zeros), accuracy 0, predicted token -1.
CE_IGNORE = -100
CE_MAX_FUSED_SIZE = 65536 // 2


def ce_setup(
    rows,
    vocab,
    dt,
    label_smoothing=0.0,
    lse_square_scale=0.0,
    softcap=None,
    weighted=False,
    extras=False,
    none_args=False,
):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        x = _randn(torch, g, (rows, vocab), dtype, scale=4.0 if softcap else 1.0)
        target = torch.randint(0, vocab, (rows,), device="cuda", generator=g)
        if extras:
            # Every third row's target is the argmax, so accuracy has ones.
            hit = torch.arange(rows, device="cuda") % 3 == 0
            target = torch.where(hit, x.float().argmax(-1), target)
        ignored = torch.rand(rows, device="cuda", generator=g) < 0.1
        target = torch.where(ignored, torch.full_like(target, CE_IGNORE), target)
        keep = ~ignored
        n_non_ignore = int(keep.sum().item())
        tgt = torch.where(keep, target, torch.zeros_like(target))

        xd = x.double()
        if softcap is not None:
            t = torch.tanh(xd / softcap)
            xs = softcap * t
        else:
            xs = xd
        lse = torch.logsumexp(xs, -1, keepdim=True)
        p = torch.exp(xs - lse)
        eps = label_smoothing / vocab
        onehot = torch.zeros_like(xs).scatter_(1, tgt[:, None], 1.0)
        xs_y = xs.gather(1, tgt[:, None])[:, 0]
        s, ls = lse_square_scale, label_smoothing
        if weighted:
            weight = torch.rand(vocab, device="cuda", generator=g) + 0.5
            # As the wrapper computes them (fp32 sums, passed as floats).
            sum_non_ignore_weight = weight[target[keep]].sum().item()
            weight_sum = weight.sum().item()
            wd = weight.double()
            wy = wd[tgt][:, None]
            grad = (
                (1 - ls) * (p - onehot) * wy / sum_non_ignore_weight
                + eps * (-wd[None, :] + p * weight_sum) / sum_non_ignore_weight
                + 2 * s * lse * p / n_non_ignore
            )
            loss = wy[:, 0] * (lse[:, 0] - xs_y)
            if ls > 0:
                smooth = -eps * (xs * wd).sum(-1) + eps * lse[:, 0] * weight_sum
                loss = loss * (1 - ls) + smooth
            loss = loss / sum_non_ignore_weight
        else:
            weight = torch.empty(1, device="cuda")  # not read (HAS_WEIGHT False)
            sum_non_ignore_weight = n_non_ignore
            weight_sum = 0.0
            grad = (p * (1 + 2 * s * lse) - eps - (1 - ls) * onehot) / n_non_ignore
            loss = lse[:, 0] - xs_y
            if ls > 0:
                loss = loss * (1 - ls) + (-eps * xs.sum(-1) + ls * lse[:, 0])
            loss = loss / n_non_ignore
        z = s * lse[:, 0] ** 2 / n_non_ignore
        loss = loss + z
        if softcap is not None:
            grad = grad * (1 - t * t)
        grad[ignored] = 0
        loss[ignored] = 0
        z[ignored] = 0

        loss_1d = torch.zeros(rows, dtype=dtype, device="cuda")
        z_1d = torch.zeros(rows, dtype=dtype, device="cuda")
        acc = torch.zeros(rows, dtype=torch.float32, device="cuda")
        pred = torch.full((rows,), -1, dtype=torch.int64, device="cuda")
        outputs = {0: grad, 5: loss}
        if none_args:
            # weight, z loss, accuracy, predicted tokens and softcap are None
            # (constexprs in the signature), as the wrapper passes them.
            args = [x, vocab, target, 1, loss_1d, 1, 0, 0]
            args += [vocab, n_non_ignore, sum_non_ignore_weight, weight_sum, CE_IGNORE]
            outputs = {0: grad, 4: loss}
        else:
            stride = 1 if extras else 0
            args = [x, vocab, target, 1, weight, loss_1d, z_1d, 1, acc, stride, pred, stride]
            args += [vocab, n_non_ignore, sum_non_ignore_weight, weight_sum, CE_IGNORE]
            args += [softcap if softcap is not None else 0.0]
        if extras:
            argmax = xs.argmax(-1)
            outputs[6] = z
            outputs[8] = torch.where(keep & (argmax == target), 1.0, 0.0).double()
            outputs[10] = torch.where(keep, argmax, torch.full_like(argmax, -1))
        return Launch(
            args=args,
            grid=(rows,),
            outputs=outputs,
            poison=False,  # the gradient is written over X; ignored rows keep loss 0
            # Gradients of mean-reduced losses over large vocabularies are
            # ~1e-8: a relative check, with an atol far below that.
            atol=1e-12,
            rtol=1e-2 if dt == "bf16" else 1e-4,
            bytes=2 * SIZE[dt] * rows * vocab,
        )

    return setup


def ce_signature(dt, vocab, ls, s, softcap, weighted, extras, none_args):
    ty = "*%s:16" % dt
    block = min(CE_MAX_FUSED_SIZE, next_power_of_2(vocab))
    if none_args:
        head = "%s, i32:16, *i64:16, i32:1, None, %s, None, i32:1, None, i32:16, None, i32:16, " % (
            ty,
            ty,
        )
    else:
        stride = "i32:1" if extras else "i32:16"
        head = (
            "%s, i32:16, *i64:16, i32:1, *fp32:16, %s, %s, i32:1, *fp32:16, %s, *i64:16, %s, "
            % (
                ty,
                ty,
                ty,
                stride,
                stride,
            )
        )
    return head + 'i32:16, i32, %s, fp32, i32, %r, %r, "mean", %s, %s, %s, %s, %d, %s, %s, True' % (
        "fp32" if weighted else "i32",
        s,
        ls,
        "None" if none_args else "fp32",
        extras,
        extras,
        extras,
        block,
        weighted,
        softcap is not None,
    )


def ce_cases():
    cases = []
    for name, rows, vocab, dt, kw in (
        # Llama-2's vocabulary, bf16, plain mean cross entropy.
        ("bf16_32000", 2048, 32000, "bf16", {}),
        # Llama-3's vocabulary (the loop takes 4 blocks), fp32, label
        # smoothing, z loss, token accuracy and predicted tokens.
        (
            "fp32_128256_smooth_zloss",
            512,
            128256,
            "fp32",
            dict(label_smoothing=0.1, lse_square_scale=1e-4, extras=True),
        ),
        # Gemma-2's vocabulary and logit soft-capping, class weights, bf16.
        ("bf16_256000_softcap_weight", 256, 256000, "bf16", dict(softcap=30.0, weighted=True)),
        # As the wrapper launches the first: None for the unused pointers.
        ("bf16_32000_none_args", 2048, 32000, "bf16", dict(none_args=True)),
    ):
        sig = ce_signature(
            dt,
            vocab,
            kw.get("label_smoothing", 0.0),
            kw.get("lse_square_scale", 0.0),
            kw.get("softcap"),
            kw.get("weighted", False),
            kw.get("extras", False),
            kw.get("none_args", False),
        )
        cases.append(
            Case(
                name="liger_cross_entropy_" + name,
                file="liger_cross_entropy.py",
                kernel="liger_cross_entropy_kernel",
                signature=sig,
                num_warps=32,  # the wrapper's choice on Hopper and earlier
                setup=ce_setup(rows, vocab, dt, **kw),
            )
        )
    return cases


# -- rope --------------------------------------------------------------------
# q (bs, sl, n_qh, hd) and k (bs, sl, n_kh, hd), contiguous, rotated in place;
# cos/sin (cos_bs, sl, hd) as Hugging Face builds them (both halves equal).


def rope_setup(bs, sl, n_qh, n_kh, hd, dt, cos_bs, backward):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        q = _randn(torch, g, (bs, sl, n_qh, hd), dtype)
        k = _randn(torch, g, (bs, sl, n_kh, hd), dtype)
        inv_freq = 1.0 / (
            500000.0 ** (torch.arange(0, hd, 2, device="cuda", dtype=torch.float32) / hd)
        )
        pos = torch.arange(sl, device="cuda", dtype=torch.float32)[None, :]
        pos = pos + 37.0 * torch.arange(cos_bs, device="cuda", dtype=torch.float32)[:, None]
        freqs = pos[:, :, None] * inv_freq[None, None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().to(dtype), emb.sin().to(dtype)
        c = cos.double()[:, :, None, :]
        s = sin.double()[:, :, None, :]
        if backward:
            s = -s

        def rotate(x):
            x = x.double()
            x1, x2 = x[..., : hd // 2], x[..., hd // 2 :]
            return x * c + torch.cat((-x2, x1), dim=-1) * s

        return Launch(
            args=[q, n_qh * hd, k, n_kh * hd, cos, hd, sin, hd, sl],
            grid=(bs * sl,),
            outputs={0: rotate(q), 2: rotate(k)},
            poison=False,  # in place
            bytes=2 * SIZE[dt] * bs * sl * (n_qh + n_kh) * hd,
            # bf16: q * cos and q * sin are rounded to bf16 before the sum.
            **(dict(atol=3e-2, rtol=1e-2) if dt == "bf16" else FP32),
        )

    return setup


def rope_cases():
    cases = []
    for name, bs, sl, n_qh, n_kh, hd, dt, cos_bs, backward in (
        # Llama-3-8B's heads, bf16, forward, cos/sin shared by the batch.
        ("fwd_bf16_llama3", 2, 2048, 32, 8, 128, "bf16", 1, False),
        # Qwen2-7B's heads (28 query heads: padded to 32), fp32, backward,
        # cos/sin per batch element.
        ("bwd_fp32_qwen2", 2, 1024, 28, 4, 128, "fp32", 2, True),
    ):
        ty = "*%s:16" % dt
        pad_q, pad_k, pad_hd = next_power_of_2(n_qh), next_power_of_2(n_kh), next_power_of_2(hd)
        cases.append(
            Case(
                name="liger_rope_" + name,
                file="liger_rope.py",
                kernel="_triton_rope",
                signature="%s, i32:16, %s, i32:16, %s, i32:16, %s, i32:16, i32:16, "
                "%d, %d, %d, %d, %d, %d, %d, %d, %d, %s"
                % (
                    ty,
                    ty,
                    ty,
                    ty,
                    bs,
                    cos_bs,
                    n_qh,
                    n_kh,
                    hd,
                    pad_q,
                    pad_k,
                    pad_hd,
                    max(pad_q, pad_k),
                    backward,
                ),
                num_warps=4,  # the wrapper passes none: Triton's default
                setup=rope_setup(bs, sl, n_qh, n_kh, hd, dt, cos_bs, backward),
            )
        )
    return cases


# -- jsd ---------------------------------------------------------------------
# X = log Q (student), Y = log P (teacher); element-wise loss and dX, both
# scaled by 1 / n_non_ignore. Without labels n_non_ignore is the row count.
JSD_IGNORE = -100


def jsd_setup(rows, vocab, dt, beta, labels):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        x = torch.log_softmax(_randn(torch, g, (rows, vocab), torch.float32), -1).to(dtype)
        y = torch.log_softmax(_randn(torch, g, (rows, vocab), torch.float32), -1).to(dtype)
        loss = torch.zeros(rows, vocab, dtype=torch.float32, device="cuda")
        dx = torch.full((rows, vocab), float("nan"), dtype=dtype, device="cuda")
        if labels:
            label = torch.randint(0, vocab, (rows,), device="cuda", generator=g)
            ignored = torch.rand(rows, device="cuda", generator=g) < 0.1
            label = torch.where(ignored, torch.full_like(label, JSD_IGNORE), label)
            n = int((~ignored).sum().item())
        else:
            label = torch.empty(1, device="cuda")  # the wrapper's dummy
            ignored = torch.zeros(rows, dtype=torch.bool, device="cuda")
            n = rows
        xd, yd = x.double(), y.double()
        q, p = xd.exp(), yd.exp()
        if beta == 0.0:
            loss_ref = p * (yd - xd)
            dx_ref = -p
        elif beta == 1.0:
            loss_ref = q * (xd - yd)
            dx_ref = loss_ref + q
        else:
            m = beta * p + (1 - beta) * q
            log_m = m.log()
            loss_ref = beta * p * yd + (1 - beta) * q * xd - m * log_m
            dx_ref = (1 - beta) * q * (xd - log_m)
        loss_ref, dx_ref = loss_ref / n, dx_ref / n
        loss_ref[ignored] = 0
        dx_ref[ignored] = 0
        return Launch(
            args=[x, vocab, y, vocab, loss, vocab, dx, vocab, label, n, vocab],
            grid=(rows,),
            outputs={4: loss_ref, 6: dx_ref},
            # Ignored rows keep the wrapper's zero loss; dX starts as NaN.
            poison=False,
            atol=1e-10,
            rtol=1e-2 if dt == "bf16" else 1e-3,
            bytes=(2 * SIZE[dt] + 4 + SIZE[dt]) * rows * vocab,
        )

    return setup


def jsd_cases():
    cases = []
    for name, rows, vocab, dt, beta, labels in (
        ("fp32_beta05", 1024, 32000, "fp32", 0.5, False),
        ("bf16_beta0_fwd_kl", 1024, 32000, "bf16", 0.0, False),
        ("fp32_beta05_labels", 1024, 32000, "fp32", 0.5, True),
    ):
        ty = "*%s:16" % dt
        block = min(65536, next_power_of_2(vocab))
        cases.append(
            Case(
                name="liger_jsd_" + name,
                file="liger_jsd.py",
                kernel="_jsd_kernel",
                signature="%s, i32:16, %s, i32:16, *fp32:16, i32:16, %s, i32:16, %s, %r, %s, %d, "
                "i32:16, %d, %s"
                % (
                    ty,
                    ty,
                    ty,
                    "*i64:16" if labels else "*fp32:16",
                    beta,
                    "i32" if labels else "i32:16",
                    JSD_IGNORE,
                    block,
                    labels,
                ),
                num_warps=4,  # the wrapper passes none: Triton's default
                setup=jsd_setup(rows, vocab, dt, beta, labels),
            )
        )
    return cases


# -- kl_div ------------------------------------------------------------------
# _REDUCTION_MODE_NONE = 0, _REDUCTION_MODE_BATCHMEAN = 3: with a reduction
# the kernel writes one sum per row (the wrapper divides afterwards).
KL_MAX_FUSED_SIZE = 65536 // 4
KL_EPS = 1e-10


def kl_num_warps(block):
    """kl_div.get_num_warps, on CUDA."""
    if block >= 32768:
        return 32
    if block >= 8192:
        return 16
    if block >= 2048:
        return 8
    return 4


def kl_fwd_setup(rows, vocab, log_target, reduction):
    def setup(torch):
        g = _gen(torch)
        y_pred = torch.log_softmax(_randn(torch, g, (rows, vocab), torch.float32), -1)
        y_true = torch.log_softmax(_randn(torch, g, (rows, vocab), torch.float32), -1)
        if not log_target:
            y_true = y_true.exp()
        yp, yt = y_pred.double(), y_true.double()
        if log_target:
            ref = yt.exp() * (yt - yp)
        else:
            ref = yt * (torch.clamp(yt, min=KL_EPS).log() - yp)
        if reduction == 0:
            out = torch.zeros(rows, vocab, dtype=torch.float32, device="cuda")
            stride = vocab
        else:
            out = torch.zeros(rows, dtype=torch.float32, device="cuda")
            stride = 1
            ref = ref.sum(-1)
        return Launch(
            args=[y_pred, vocab, y_true, vocab, out, stride, vocab, KL_EPS],
            grid=(rows,),
            outputs={4: ref},
            atol=1e-12 if reduction == 0 else 1e-6,
            rtol=1e-4,
            bytes=2 * 4 * rows * vocab,
        )

    return setup


def kl_bwd_setup(rows, vocab, dt, log_target):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        target = torch.log_softmax(_randn(torch, g, (rows, vocab), torch.float32), -1)
        if not log_target:
            target = target.exp()
        target = target.to(dtype)
        new_grads = torch.empty_like(target)
        td = target.double()
        return Launch(
            args=[target, vocab, new_grads, vocab, vocab],
            grid=(rows,),
            outputs={2: -td.exp() if log_target else -td},
            atol=1e-12,
            rtol=1e-2 if dt == "bf16" else 1e-5,
            bytes=2 * SIZE[dt] * rows * vocab,
        )

    return setup


def kl_cases():
    cases = []
    for name, rows, vocab, log_target, reduction in (
        ("fwd_fp32_32000_batchmean", 1024, 32000, False, 3),
        # GPT-2's vocabulary: rows not 16-byte aligned.
        ("fwd_fp32_50257_none_log_target", 512, 50257, True, 0),
    ):
        block = min(KL_MAX_FUSED_SIZE, next_power_of_2(vocab))
        v = "i32:16" if vocab % 16 == 0 else "i32"
        ty = "*fp32:16"
        cases.append(
            Case(
                name="liger_kl_div_" + name,
                file="liger_kl_div.py",
                kernel="_kldiv_kernel_forward",
                signature="%s, %s, %s, %s, *fp32:16, %s, %s, fp32, %d, %s, %d"
                % (ty, v, ty, v, v if reduction == 0 else "i32:1", v, block, log_target, reduction),
                num_warps=kl_num_warps(block),
                setup=kl_fwd_setup(rows, vocab, log_target, reduction),
            )
        )
    # Backward: bf16 as the target (tl.exp of bf16 is a Triton error, so
    # the log_target branch runs in fp32).
    block = min(KL_MAX_FUSED_SIZE, next_power_of_2(128256))
    for dt, log_target in (("bf16", False), ("fp32", True)):
        cases.append(
            Case(
                name="liger_kl_div_bwd_%s_128256%s" % (dt, "_log_target" if log_target else ""),
                file="liger_kl_div.py",
                kernel="_kldiv_kernel_backward",
                signature="*%s:16, i32:16, *%s:16, i32:16, i32:16, %d, %s"
                % (dt, dt, block, log_target),
                num_warps=kl_num_warps(block),
                setup=kl_bwd_setup(256, 128256, dt, log_target),
            )
        )
    return cases


# -- softmax -----------------------------------------------------------------


def softmax_fwd(rows, cols):
    def setup(torch):
        g = _gen(torch)
        x = _randn(torch, g, (rows, cols), torch.float32, scale=2.0)
        y = torch.empty_like(x)
        return Launch(
            args=[y, cols, x, cols, cols],
            grid=(rows,),
            outputs={0: torch.softmax(x.double(), -1)},
            atol=1e-7,
            rtol=1e-5,
            bytes=2 * 4 * rows * cols,
        )

    return setup


def softmax_bwd(rows, cols):
    def setup(torch):
        g = _gen(torch)
        y = torch.softmax(_randn(torch, g, (rows, cols), torch.float32, scale=2.0), -1)
        dy = _randn(torch, g, (rows, cols), torch.float32)
        dx = torch.empty_like(y)
        yd, dyd = y.double(), dy.double()
        return Launch(
            args=[dy, cols, y, cols, dx, cols, cols],
            grid=(rows,),
            outputs={4: yd * (dyd - (dyd * yd).sum(-1, keepdim=True))},
            atol=1e-7,
            rtol=1e-5,
            bytes=3 * 4 * rows * cols,
        )

    return setup


def softmax_cases():
    cases = []
    for rows, cols in ((4096, 4096), (2048, 32000)):
        block, warps = calculate_settings(cols)
        cases.append(
            Case(
                name="liger_softmax_fwd_fp32_%d" % cols,
                file="liger_softmax.py",
                kernel="_softmax_single_block_forward_kernel",
                signature="*fp32:16, i32:16, *fp32:16, i32:16, i32:16, %d" % block,
                num_warps=warps,
                setup=softmax_fwd(rows, cols),
            )
        )
    block, warps = calculate_settings(4096)
    cases.append(
        Case(
            name="liger_softmax_bwd_fp32_4096",
            file="liger_softmax.py",
            kernel="_softmax_single_block_backward_kernel",
            signature="*fp32:16, i32:16, *fp32:16, i32:16, *fp32:16, i32:16, i32:16, %d" % block,
            num_warps=warps,
            setup=softmax_bwd(4096, 4096),
        )
    )
    return cases


# -- dyt ---------------------------------------------------------------------
# y = tanh(alpha * x) * gamma + beta. The kernels are autotuned over BLOCK_N,
# num_stages and num_warps; each case takes one of the configs.
DYT_ALPHA = 0.5


def dyt_fwd(rows, cols, dt, block_n):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        x = _randn(torch, g, (rows, cols), dtype, scale=2.0)
        alpha = torch.full((1,), DYT_ALPHA, dtype=dtype, device="cuda")
        gamma = _randn(torch, g, (cols,), dtype, scale=0.1, shift=1.0)
        beta = _randn(torch, g, (cols,), dtype, scale=0.1)
        y = torch.empty_like(x)
        ref = torch.tanh(alpha.double() * x.double()) * gamma.double() + beta.double()
        return Launch(
            args=[x, y, alpha, gamma, beta],
            grid=(cdiv(cols, block_n), rows),
            outputs={1: ref},
            bytes=2 * SIZE[dt] * rows * cols,
            **(BF16 if dt == "bf16" else FP32),
        )

    return setup


def dyt_bwd(rows, cols, dt, block_n):
    def setup(torch):
        g = _gen(torch)
        dtype = _dtype(torch, dt)
        x = _randn(torch, g, (rows, cols), dtype, scale=2.0)
        alpha = torch.full((1,), DYT_ALPHA, dtype=dtype, device="cuda")
        gamma = _randn(torch, g, (cols,), dtype, scale=0.1, shift=1.0)
        dy = _randn(torch, g, (rows, cols), dtype)
        nan = float("nan")
        # DA as the wrapper makes it (zeros: with BLOCK_N > 512 only the
        # first cdiv(N, BLOCK_N) slots of each row are written); the others
        # start as NaN so that an element left unwritten shows.
        da = torch.zeros(SM_COUNT, cdiv(cols, 512), dtype=torch.float32, device="cuda")
        dg = torch.full((SM_COUNT, cols), nan, dtype=torch.float32, device="cuda")
        db = torch.full((SM_COUNT, cols), nan, dtype=torch.float32, device="cuda")
        dx = torch.full((rows, cols), nan, dtype=dtype, device="cuda")
        a, xd, dyd = alpha.double(), x.double(), dy.double()
        t = torch.tanh(a * xd)
        tmp = (1 - t * t) * dyd * gamma.double()
        blocks = cdiv(cols, block_n)
        xtmp = torch.zeros(rows, blocks * block_n, dtype=torch.float64, device="cuda")
        xtmp[:, :cols] = xd * tmp
        da_ref = torch.zeros_like(da, dtype=torch.float64)
        da_ref[:, :blocks] = _strided_rows(torch, xtmp, SM_COUNT).view(SM_COUNT, blocks, -1).sum(-1)
        return Launch(
            args=[dy, dx, da, dg, db, x, alpha, gamma, rows],
            grid=(blocks, SM_COUNT),
            outputs={
                1: a * tmp,
                2: da_ref,
                3: _strided_rows(torch, dyd * t, SM_COUNT),
                4: _strided_rows(torch, dyd, SM_COUNT),
            },
            poison=False,
            bytes=3 * SIZE[dt] * rows * cols,
            **(BF16 if dt == "bf16" else FP32),
        )

    return setup


def dyt_cases():
    cases = []
    for dt, rows, cols, block_n, stages, warps in (
        ("bf16", 4096, 4096, 2048, 2, 8),
        ("fp32", 4096, 4000, 1024, 1, 4),
    ):
        ty = "*%s:16" % dt
        cases.append(
            Case(
                name="liger_dyt_fwd_%s_%d" % (dt, cols),
                file="liger_dyt.py",
                kernel="_dyt_fwd_kernel",
                signature="%s, %s, %s, %s, %s, True, %d, %d" % (ty, ty, ty, ty, ty, cols, block_n),
                num_warps=warps,
                num_stages=stages,
                setup=dyt_fwd(rows, cols, dt, block_n),
            )
        )
    ty = "*bf16:16"
    cases.append(
        Case(
            name="liger_dyt_bwd_bf16_4096",
            file="liger_dyt.py",
            kernel="_dyt_bwd_kernel",
            signature="%s, %s, *fp32:16, *fp32:16, *fp32:16, %s, %s, %s, True, i32:16, 4096, 1024"
            % (ty, ty, ty, ty, ty),
            num_warps=4,
            num_stages=2,
            setup=dyt_bwd(4096, 4096, "bf16", 1024),
            notes="grid of (N / BLOCK_N, %d) programs, partial dA/dG/dB rows" % SM_COUNT,
        )
    )
    return cases


CASES = (
    rms_norm_cases()
    + layer_norm_cases()
    + glu_cases()
    + ce_cases()
    + rope_cases()
    + jsd_cases()
    + kl_cases()
    + softmax_cases()
    + dyt_cases()
)
