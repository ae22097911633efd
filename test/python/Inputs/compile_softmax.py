"""wheel.test's check of an installed package: where it loaded libtilec.so
from, and the start of a kernel's PTX (argv[1]: examples/softmax.tile)."""

import sys

import tilec

print(tilec.library_path)
print(tilec.compile(sys.argv[1], constexprs={"BLOCK": 1024}).ptx[:400])
