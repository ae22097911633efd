#!/bin/sh
# Stands in for nvdisasm/cuobjdump in emit-sass.test: prints its name, its
# arguments and the first bytes of the cubin it was given (the last one).
echo "disassembler $(basename "$0") $*"
for last; do :; done
od -An -c -N4 "$last"
