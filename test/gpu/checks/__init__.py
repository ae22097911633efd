"""The GPU correctness suite that test/gpu/check.py runs. Importing the
package registers every test in harness.TESTS, in the order below (a test's
index seeds its inputs: keep new modules last)."""
from checks import (  # noqa: F401
    indexing,
    creation,
    memory,
    dot,
    sass,
    reduce,
    elementwise,
    casts,
    shape,
    control,
    debug,
    examples,
    regress,
    layout_pairs,
    fp8,
    atomics,
    libdevice,
    scan,
    blocks,
    pipeline,
)
