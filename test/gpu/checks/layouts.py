"""The register layouts the compiler can produce for 2-D f16/f32 tiles, and
one tilegpu-level kernel per conversion between two of them (the layout
pairs of issue 21). Standard library only: the manifest and the generator
(test/gpu/layout_pairs.py, which writes the kernels as .mlir files for
`tilec`, docs/spec.md §3) read it without numpy.

The layouts are those the passes make (the same rules, in Python):
  blocked  convert-tile-to-tilegpu's default (one element a thread, rows
           fastest) and tilegpu-coalesce's (16-byte vectors along rows, or
           along columns for a tile contiguous down its columns), and for
           f32 the tf32 K-major staging layout of tilegpu-accelerate-matmul
           (8 lanes along rows by 4 along columns);
  mma v2   mma.sync accumulators: the warps as accelerate-matmul splits them
           (chooseWarps) and all warps along M (chained dots, attention);
  dot_op   mma.sync A and B operands of that accumulator (kWidth 2 for f16,
           1 for tf32), A of the chained accumulator;
  mma v3   wgmma accumulators (warps [num_warps, 1], instrShape [64, N, 16];
           f32, and f16 as attention's truncated P) and, for f16, the A
           operand from registers (kWidth 2). sm_90a only.

Each kernel loads a tile in layout `src` from a row-major M x N array
(masked to the first m rows and n columns), converts it to `dst`
(tilegpu.convert_layout) and stores it from `dst` into the same places of
the output. (tilegpu has no slices of dot_op layouts, so a dot_op side
computes its offsets and mask in the default blocked layout and converts
them: the data itself is loaded and stored in `src` and `dst`.) Kernels
without an mma v3 layout are compiled for sm_80, those with one for sm_90a.

In the "full" configurations every ordered pair of distinct layouts gets a
kernel; in the others, every layout to and from the default blocked layout
and each tensor-core layout to and from each other (the accumulator to its
operands and back).
"""

# (dtype, M, N, num_warps, every pair?)
CONFIGS = (
    ("f16", 64, 64, 4, True),
    ("f32", 64, 64, 4, True),
    ("f16", 128, 64, 8, True),
    ("f16", 16, 16, 4, False),
    ("f32", 16, 16, 4, False),
    ("f16", 32, 32, 4, False),
    ("f32", 32, 32, 4, False),
    ("f32", 128, 64, 8, False),
    ("f16", 64, 128, 4, False),
    ("f32", 64, 128, 8, False),
)
BYTES = {"f16": 2, "f32": 4}


class Layout:
    """One layout of an M x N tile: `name` (in variant names), `attr` (its
    #tilegpu attribute), `aliases` (the #NAME = ... lines it needs, its own
    last), `v3` (needs sm_90a)."""

    def __init__(self, name, attr, v3=False, parent=None):
        self.name, self.attr, self.v3, self.parent = name, attr, v3, parent
        self.blocked = attr.startswith("#tilegpu.blocked")

    def alias_lines(self, alias):
        """The alias definitions for this layout named `alias`."""
        lines = []
        attr = self.attr
        if self.parent is not None:
            lines += self.parent.alias_lines(alias + "_parent")
            attr = attr.replace("PARENT", "#" + alias + "_parent")
        return lines + ["#%s = %s" % (alias, attr)]


def _lst(values):
    return "[" + ", ".join(str(v) for v in values) + "]"


def blocked_layout(shape, num_warps, spt, order):
    """tilegpu's getBlockedLayout (LayoutUtils.cpp): lanes then warps along
    `order` (fastest first), as many as fit, the rest along the fastest
    (lanes) and slowest (warps) dimension."""
    tpw, wpc = [1, 1], [1, 1]
    lanes = 32
    for d in order:
        tpw[d] = min(lanes, max(1, shape[d] // spt[d]))
        lanes //= tpw[d]
    tpw[order[0]] *= lanes
    warps = num_warps
    for d in order:
        wpc[d] = min(warps, max(1, shape[d] // (spt[d] * tpw[d])))
        warps //= wpc[d]
    wpc[order[-1]] *= warps
    return spt, tpw, wpc, order


def blocked(name, spt, tpw, wpc, order):
    attr = "#tilegpu.blocked<{sizePerThread = %s, threadsPerWarp = %s, warpsPerCTA = %s, " % (
        _lst(spt),
        _lst(tpw),
        _lst(wpc),
    )
    return Layout(name, attr + "order = %s}>" % _lst(order))


def choose_warps(m, n, num_warps):
    """accelerate-matmul's chooseWarps: the warps of an mma.sync tile."""
    wm, wn = 1, 1
    while wm * wn < num_warps:
        can_m, can_n = m // (16 * wm * 2) >= 1, n // (8 * wn * 2) >= 1
        if can_m and (m // wm >= n // wn or not can_n):
            wm *= 2
        elif can_n:
            wn *= 2
        else:
            wm *= 2
    return wm, wn


def mma(version, wm, wn, instr):
    attr = "#tilegpu.mma<{versionMajor = %d, warpsPerCTA = [%d, %d], instrShape = %s}>" % (
        version,
        wm,
        wn,
        _lst(instr),
    )
    return Layout("m%d_%dx%d" % (version, wm, wn), attr, v3=version == 3)


def dot_op(prefix, op_idx, parent, k_width):
    attr = "#tilegpu.dot_op<{opIdx = %d, parent = PARENT, kWidth = %d}>" % (op_idx, k_width)
    name = "%s%s_k%d" % (prefix, parent.name[1:], k_width)
    return Layout(name, attr, v3=parent.v3, parent=parent)


def layouts(dtype, m, n, num_warps):
    """The layouts of an m x n `dtype` tile with `num_warps` warps."""
    shape = (m, n)
    vec = 16 // BYTES[dtype]
    per_thread = max(1, m * n // (32 * num_warps))
    out = [blocked("blk", *blocked_layout(shape, num_warps, [1, 1], [1, 0]))]
    v = min(vec, per_thread, n)
    out.append(blocked("row%d" % v, *blocked_layout(shape, num_warps, [1, v], [1, 0])))
    v = min(vec, per_thread, m)
    out.append(blocked("col%d" % v, *blocked_layout(shape, num_warps, [v, 1], [0, 1])))
    if dtype == "f32" and n % 4 == 0 and m % 8 == 0:
        # relayoutForKMajorStaging of an A operand (K = dim 1).
        wk = min(num_warps, n // 4)
        out.append(blocked("kmaj", [1, 1], [8, 4], [num_warps // wk, wk], [0, 1]))
    k_width = 2 if dtype == "f16" else 1
    wm, wn = choose_warps(m, n, num_warps)
    acc = mma(2, wm, wn, [16, 8])
    out += [acc, dot_op("a", 0, acc, k_width), dot_op("b", 1, acc, k_width)]
    if (wm, wn) != (num_warps, 1) and m % (16 * num_warps) == 0:
        chained = mma(2, num_warps, 1, [16, 8])
        out += [chained, dot_op("a", 0, chained, k_width)]
    if num_warps % 4 == 0 and m % (16 * num_warps) == 0 and n % 8 == 0 and n <= 256:
        wgmma = mma(3, num_warps, 1, [64, n, 16])
        out.append(wgmma)
        if dtype == "f16":
            out.append(dot_op("a", 0, wgmma, 2))
    return out


class Pair:
    """One conversion kernel: `variant` (its manifest name, also the
    kernel's), the tile, the two layouts and the arch it is compiled for."""

    def __init__(self, dtype, m, n, num_warps, src, dst):
        self.dtype, self.m, self.n, self.num_warps = dtype, m, n, num_warps
        self.src, self.dst = src, dst
        self.variant = "cvt_%s_%dx%d_w%d_%s_to_%s" % (dtype, m, n, num_warps, src.name, dst.name)
        self.arch = "sm_90a" if src.v3 or dst.v3 else "sm_80"
        self.config = (dtype, m, n, num_warps)
        self.index_layout = layouts(dtype, m, n, num_warps)[0]


def pairs():
    """Every conversion kernel, in a fixed order."""
    out = []
    for dtype, m, n, nw, full in CONFIGS:
        ls = layouts(dtype, m, n, nw)
        for src in ls:
            for dst in ls:
                if src is dst:
                    continue
                tensor_cores = not src.blocked and not dst.blocked
                if full or src is ls[0] or dst is ls[0] or tensor_cores:
                    out.append(Pair(dtype, m, n, nw, src, dst))
    return out


PAIRS = pairs()


def _tile_indices(lines, tag, layout, alias, m, n):
    """Appends the ops computing, in layout #alias, the offsets r * n + c
    and the mask r < m & c < n of an M x N tile; returns their names. A
    dot_op layout has no slices (no make_range in it): its offsets and mask
    are computed in #idx (the default blocked layout) and converted."""
    if layout is not None and layout.parent is not None:
        off, mask = _tile_indices(lines, tag + "i", None, "idx", m, n)
        lines += [
            "%%%s_off = tilegpu.convert_layout %s : tensor<%dx%dxi32, #idx> -> "
            "tensor<%dx%dxi32, #%s>" % (tag, off, m, n, m, n, alias),
            "%%%s_mask = tilegpu.convert_layout %s : tensor<%dx%dxi1, #idx> -> "
            "tensor<%dx%dxi1, #%s>" % (tag, mask, m, n, m, n, alias),
        ]
        return "%%%s_off" % tag, "%%%s_mask" % tag
    t = lambda s, e="i32": "tensor<%s%s, #%s>" % (s, e, alias)  # noqa: E731
    rows = "#tilegpu.slice<{dim = 1, parent = #%s}>" % alias
    cols = "#tilegpu.slice<{dim = 0, parent = #%s}>" % alias
    M, N = m, n
    lines += [
        "%%%s_r = tile.make_range {end = %d : i32, start = 0 : i32} : tensor<%dxi32, %s>"
        % (tag, M, M, rows),
        "%%%s_r2 = tile.expand_dims %%%s_r {axis = 1 : i32} : tensor<%dxi32, %s> -> %s"
        % (tag, tag, M, rows, t("%dx1x" % M)),
        "%%%s_c = tile.make_range {end = %d : i32, start = 0 : i32} : tensor<%dxi32, %s>"
        % (tag, N, N, cols),
        "%%%s_c2 = tile.expand_dims %%%s_c {axis = 0 : i32} : tensor<%dxi32, %s> -> %s"
        % (tag, tag, N, cols, t("1x%dx" % N)),
        "%%%s_ld = tile.splat %%n : %s" % (tag, t("%dx1x" % M)),
        "%%%s_ro = arith.muli %%%s_r2, %%%s_ld : %s" % (tag, tag, tag, t("%dx1x" % M)),
        "%%%s_rb = tile.broadcast %%%s_ro : %s -> %s"
        % (tag, tag, t("%dx1x" % M), t("%dx%dx" % (M, N))),
        "%%%s_cb = tile.broadcast %%%s_c2 : %s -> %s"
        % (tag, tag, t("1x%dx" % N), t("%dx%dx" % (M, N))),
        "%%%s_off = arith.addi %%%s_rb, %%%s_cb : %s" % (tag, tag, tag, t("%dx%dx" % (M, N))),
        "%%%s_ms = tile.splat %%m : %s" % (tag, t("%dx1x" % M)),
        "%%%s_rm = arith.cmpi slt, %%%s_r2, %%%s_ms : %s" % (tag, tag, tag, t("%dx1x" % M)),
        "%%%s_ns = tile.splat %%n : %s" % (tag, t("1x%dx" % N)),
        "%%%s_cm = arith.cmpi slt, %%%s_c2, %%%s_ns : %s" % (tag, tag, tag, t("1x%dx" % N)),
        "%%%s_rmb = tile.broadcast %%%s_rm : %s -> %s"
        % (tag, tag, t("%dx1x" % M, "i1"), t("%dx%dx" % (M, N), "i1")),
        "%%%s_cmb = tile.broadcast %%%s_cm : %s -> %s"
        % (tag, tag, t("1x%dx" % N, "i1"), t("%dx%dx" % (M, N), "i1")),
        "%%%s_mask = arith.andi %%%s_rmb, %%%s_cmb : %s"
        % (tag, tag, tag, t("%dx%dx" % (M, N), "i1")),
    ]
    return "%%%s_off" % tag, "%%%s_mask" % tag


def kernel_text(pair):
    """The tilegpu-level .mlir of `pair`'s kernel: @VARIANT(out, inp, m, n)
    copies inp[:m, :n] (rows n apart) to out through the conversion."""
    el, M, N = pair.dtype, pair.m, pair.n
    lines = [
        "// %s: %dx%d %s, %d warps, %s -> %s (test/gpu/layout_pairs.py)"
        % (pair.variant, M, N, el, pair.num_warps, pair.src.name, pair.dst.name)
    ]
    lines += pair.src.alias_lines("src") + pair.dst.alias_lines("dst")
    if pair.src.parent is not None or pair.dst.parent is not None:
        lines += pair.index_layout.alias_lines("idx")
    lines.append("module attributes {tilegpu.num_warps = %d : i32} {" % pair.num_warps)
    body = []
    tile = "tensor<%dx%dx%s, #%%s>" % (M, N, el)
    ptrs = "tensor<%dx%dx!tile.ptr<%s>, #%%s>" % (M, N, el)
    offs = "tensor<%dx%dxi32, #%%s>" % (M, N)
    off, mask = _tile_indices(body, "s", pair.src, "src", M, N)
    body += [
        "%%in = tile.splat %%inp : %s" % (ptrs % "src"),
        "%%in_p = tile.addptr %%in, %s : %s, %s" % (off, ptrs % "src", offs % "src"),
        "%%x = tile.load %%in_p, %s : %s" % (mask, ptrs % "src"),
        "%%y = tilegpu.convert_layout %%x : %s -> %s" % (tile % "src", tile % "dst"),
    ]
    off, mask = _tile_indices(body, "d", pair.dst, "dst", M, N)
    body += [
        "%%o = tile.splat %%out : %s" % (ptrs % "dst"),
        "%%o_p = tile.addptr %%o, %s : %s, %s" % (off, ptrs % "dst", offs % "dst"),
        "tile.store %%o_p, %%y, %s : %s" % (mask, ptrs % "dst"),
        "return",
    ]
    lines.append(
        "  func.func @%s(%%out: !tile.ptr<%s> {tile.divisibility = 16 : i32}, "
        "%%inp: !tile.ptr<%s> {tile.divisibility = 16 : i32}, %%m: i32, %%n: i32) "
        "attributes {tile.kernel} {" % (pair.variant, el, el)
    )
    lines += ["    " + line for line in body]
    lines += ["  }", "}", ""]
    return "\n".join(lines)
