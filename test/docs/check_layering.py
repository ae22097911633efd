"""Checks the layers of docs/architecture.md ("Layers") against the sources.

Every file belongs to the layer of its folder; each layer may include the
headers of the layers listed for it and nothing else. Prints one line per
include that crosses the picture and exits 1 when there is any.
Usage: check_layering.py SOURCE_ROOT
"""

import os
import re
import sys

SUPPORT = ("tilec/Support/",)
RUNTIME = SUPPORT + ("tilec/Runtime/", "tilec/tilec.h")
# The frontend's checked tree uses the tile dialect's enums, generated into
# an LLVM-only header (TilecTileEnums) that both share.
FRONTEND = SUPPORT + ("tilec/Frontend/", "tilec/Dialect/Tile/IR/TileEnums.h")
COMPILER = SUPPORT + (
    "tilec/Dialect/",
    "tilec/Conversion/",
    "tilec/Analysis/",
    "tilec/Target/",
    "tilec/Interpreter/",
)
ANYTHING = ("tilec/",)

# (folder or file prefix, the include prefixes it may use); the longest
# matching prefix wins.
LAYERS = [
    ("lib/Support/", SUPPORT),
    ("include/tilec/Support/", SUPPORT),
    ("runtime/", RUNTIME),
    ("include/tilec/Runtime/", RUNTIME),
    ("include/tilec/tilec.h", RUNTIME),
    ("frontend/", FRONTEND),
    ("include/tilec/Frontend/", FRONTEND),
    # MLIRGen (MLIRGen*.cpp, MLIRGenParts.h) is the frontend's MLIR half: it
    # also builds tile dialect IR.
    ("frontend/MLIRGen", FRONTEND + ("tilec/Dialect/Tile/",)),
    ("include/tilec/Frontend/MLIRGen.h", FRONTEND + ("tilec/Dialect/Tile/",)),
    ("lib/Dialect/", COMPILER),
    ("lib/Conversion/", COMPILER),
    ("lib/Analysis/", COMPILER),
    ("lib/Target/", COMPILER),
    ("lib/Interpreter/", COMPILER),
    ("include/tilec/Dialect/", COMPILER),
    ("include/tilec/Conversion/", COMPILER),
    ("include/tilec/Analysis/", COMPILER),
    ("include/tilec/Target/", COMPILER),
    ("include/tilec/Interpreter/", COMPILER),
    ("test/lib/", COMPILER),
    # The driver joins the layers.
    ("lib/Driver/", ANYTHING),
    ("lib/JIT/", ANYTHING),
    ("include/tilec/Driver/", ANYTHING),
    ("include/tilec/JIT/", ANYTHING),
    # tile-run and tile-gen run where no compiler is installed.
    ("tools/tile-run/", RUNTIME),
    ("tools/tile-gen/", SUPPORT),
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"(tilec/[^"]+)"')


def layer_of(path):
    best = None
    for prefix, allowed in LAYERS:
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, allowed)
    return best


def main():
    root = sys.argv[1]
    problems = []
    checked = 0
    for folder in ("lib", "include", "frontend", "runtime", "tools", "test/lib"):
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), root)
                layer = layer_of(path)
                if layer is None:
                    continue
                checked += 1
                with open(os.path.join(root, path), encoding="utf-8") as source:
                    for number, line in enumerate(source, 1):
                        match = INCLUDE.match(line)
                        if match and not match.group(1).startswith(layer[1]):
                            problems.append(
                                "%s:%d: includes %s, outside its layer (%s)"
                                % (path, number, match.group(1), layer[0])
                            )
    for problem in problems:
        print(problem)
    print("checked %d files, %d crossing includes" % (checked, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
