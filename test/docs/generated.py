#!/usr/bin/env python3
"""Generates docs/generated/ (scripts/gen-docs.sh writes it with this; the
lit test test/docs/generated.test checks that it is current):

  * DOC.md for every add_mlir_doc(TD DOC DIR COMMAND) of include/**/CMakeLists.txt
    (the pass and op references): mlir-tblgen COMMAND on TD.td, as the
    build's `mlir-doc` target runs it, all in one folder;
  * tilec-help.txt: `tilec --help`;
  * tile-opt-passes.txt: the lines of `tile-opt --help` that name tilec's
    passes and pipelines.

    generated.py --root SRC --tilec BIN --tile-opt BIN --out DIR      (write)
    generated.py --root SRC --tilec BIN --tile-opt BIN --check DIR    (compare)

--check writes into a temporary folder and compares it with DIR file by
file: a diff for each file that differs, a line for each file only one side
has; exit 1 if any. --tblgen is mlir-tblgen (default: the one on PATH, else
/usr/lib/llvm-22's);
--mlir-include the folder of mlir/IR/OpBase.td (default: ../include from
mlir-tblgen's folder).
"""
import argparse
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

TBLGEN = "/usr/lib/llvm-22/bin/mlir-tblgen"  # Debian's, as the build uses
PASS_LINE = re.compile(r"--(tile|tilegpu|convert-tile|tilec)")


def doc_targets(root):
    """(td path, output name, tblgen command) of every add_mlir_doc."""
    out = []
    for cmake in sorted(
        glob.glob(os.path.join(root, "include", "**", "CMakeLists.txt"), recursive=True)
    ):
        with open(cmake) as f:
            text = f.read()
        for args in re.findall(r"^\s*add_mlir_doc\(([^)]*)\)", text, re.M):
            td, doc, _outdir, *command = args.split()
            out.append((os.path.join(os.path.dirname(cmake), td + ".td"), doc, command))
    return out


def generate(root, tilec, tile_opt, tblgen, mlir_include, out):
    os.makedirs(out, exist_ok=True)
    for td, doc, command in doc_targets(root):
        includes = ["-I", os.path.join(root, "include"), "-I", os.path.dirname(td)]
        subprocess.run(
            [
                tblgen,
                *command,
                td,
                *includes,
                "-I",
                mlir_include,
                "-o",
                os.path.join(out, doc + ".md"),
            ],
            check=True,
        )
    with open(os.path.join(out, "tilec-help.txt"), "w") as f:
        subprocess.run([tilec, "--help"], stdout=f, check=True)
    help_text = subprocess.run(
        [tile_opt, "--help"], capture_output=True, text=True, check=True
    ).stdout
    with open(os.path.join(out, "tile-opt-passes.txt"), "w") as f:
        f.writelines(line + "\n" for line in help_text.splitlines() if PASS_LINE.search(line))


def compare(fresh, current):
    """Prints how `current` differs from `fresh`; returns whether it does."""
    names = sorted(set(os.listdir(fresh)) | set(os.listdir(current)))
    stale = False
    for name in names:
        a, b = os.path.join(current, name), os.path.join(fresh, name)
        if not os.path.exists(a) or not os.path.exists(b):
            print("%s: %s" % (name, "missing" if os.path.exists(b) else "generated no more"))
            stale = True
            continue
        with open(a) as f, open(b) as g:
            old, new = f.readlines(), g.readlines()
        if old != new:
            sys.stdout.writelines(difflib.unified_diff(old, new, a, "generated " + name))
            stale = True
    if stale:
        print("docs/generated is not current: run scripts/gen-docs.sh BUILD_DIR")
    return stale


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="the source tree")
    ap.add_argument("--tilec", required=True)
    ap.add_argument("--tile-opt", required=True)
    ap.add_argument("--tblgen", default=shutil.which("mlir-tblgen") or TBLGEN)
    ap.add_argument("--mlir-include")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--out", help="write the files here")
    mode.add_argument("--check", metavar="DIR", help="compare DIR with fresh files")
    a = ap.parse_args()
    tblgen = shutil.which(a.tblgen) or a.tblgen
    mlir_include = a.mlir_include or os.path.join(
        os.path.dirname(os.path.dirname(os.path.realpath(tblgen))), "include"
    )
    if a.out:
        generate(a.root, a.tilec, a.tile_opt, tblgen, mlir_include, a.out)
        return 0
    with tempfile.TemporaryDirectory() as fresh:
        generate(a.root, a.tilec, a.tile_opt, tblgen, mlir_include, fresh)
        return 1 if compare(fresh, a.check) else 0


if __name__ == "__main__":
    sys.exit(main())
