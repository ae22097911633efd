"""device_print (test/gpu/debug.tile)."""
import ctypes
import os
import sys
import tempfile

from checks.harness import np, test


@test("debug", "device_print")
def t_dprint(t):
    k = t.k("dprint")
    x = (1000 + np.arange(8)).astype(np.int32)
    xd = t.inp(x)
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            k((1,), x=xd)
        finally:
            sys.stdout.flush()
            try:  # the driver writes device printf through C stdio
                ctypes.CDLL(None).fflush(None)
            except Exception:
                pass
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode(errors="replace")
    want = ["pid (0, 0, 0) idx (%d) val: %d" % (i, 1000 + i) for i in range(8)]
    missing = [w for w in want if w not in text]
    t.record(
        "8 lines 'pid (0, 0, 0) idx (i) val: v'",
        not missing,
        "missing %d; got %r" % (len(missing), text[:300])
        if missing
        else "%d lines printed" % text.count("\n"),
    )
