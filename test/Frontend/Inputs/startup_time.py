"""Runs `PROGRAM --version` 11 times; fails when the median wall time is
above LIMIT milliseconds (a wide bound: tests do not measure speed)."""
import statistics
import subprocess
import sys
import time

program, limit_ms = sys.argv[1], float(sys.argv[2])
times = []
for _ in range(11):
    start = time.perf_counter()
    subprocess.run([program, "--version"], check=True, stdout=subprocess.DEVNULL)
    times.append((time.perf_counter() - start) * 1000)
median = statistics.median(times)
print("%s --version: median %.1f ms over %d runs" % (program, median, len(times)))
sys.exit(0 if median <= limit_ms else 1)
