#!/usr/bin/env python3
"""Writes the layout-pair kernels of the GPU suite (checks/layouts.py: one
tilegpu-level kernel per conversion between two register layouts the
compiler can produce for 2-D f16/f32 tiles) as OUT_DIR/VARIANT.mlir, for
`tilec VARIANT.mlir --arch=ARCH` (sm_80, or sm_90a for mma v3 layouts).

  layout_pairs.py --out DIR            write every kernel
  layout_pairs.py --list               VARIANT<TAB>ARCH, one a line
  layout_pairs.py --out DIR --every N  every N-th kernel only (a sample)

Standard library only. scripts/build-gpu-bundle.sh writes them for the GPU
suite; test/gpu/layout-pairs.test compiles a sample with ptxas.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from checks.layouts import PAIRS, kernel_text  # noqa: E402


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", help="folder to write VARIANT.mlir into")
    ap.add_argument("--list", action="store_true", help="print VARIANT<TAB>ARCH lines")
    ap.add_argument("--every", type=int, default=1, help="keep every N-th kernel")
    args = ap.parse_args()
    if not args.out and not args.list:
        ap.error("give --out DIR or --list")
    chosen = PAIRS[:: max(1, args.every)]
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        for pair in chosen:
            with open(os.path.join(args.out, pair.variant + ".mlir"), "w") as f:
                f.write(kernel_text(pair))
    if args.list:
        for pair in chosen:
            print("%s\t%s" % (pair.variant, pair.arch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
