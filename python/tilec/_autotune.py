"""tilec.autotune: the fastest of several compile configurations of a kernel,
timed on the caller's arguments, remembered per problem key."""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import sys
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from ._kernel import Grid, Kernel, PathLike, compile
from .errors import TilecError


class Config:
    """One candidate: constexpr values and launch options (None keeps the
    kernel's ``@kernel(...)`` value)."""

    def __init__(
        self,
        constexprs: Optional[Mapping[str, Any]] = None,
        num_warps: Optional[int] = None,
        num_stages: Optional[int] = None,
        num_ctas: int = 1,
        maxnreg: Optional[int] = None,
        pre_hook: Optional[Callable[..., Any]] = None,
    ) -> None:
        # Triton's triton.Config takes these too; tilec has no clusters,
        # register caps or hooks per config.
        if num_ctas != 1 or maxnreg is not None or pre_hook is not None:
            raise TypeError(
                "tilec.Config: num_ctas other than 1, maxnreg and pre_hook are not supported"
            )
        self.constexprs: Dict[str, Any] = dict(constexprs or {})
        self.num_warps = num_warps
        self.num_stages = num_stages

    @property
    def kwargs(self) -> Dict[str, Any]:
        """The constexprs (Triton's name for them)."""
        return self.constexprs

    def __repr__(self) -> str:
        parts = ["%s=%r" % kv for kv in sorted(self.constexprs.items())]
        if self.num_warps:
            parts.append("num_warps=%d" % self.num_warps)
        if self.num_stages:
            parts.append("num_stages=%d" % self.num_stages)
        return "Config(%s)" % ", ".join(parts)


# Winners of this process: record key -> config index.
_chosen: Dict[str, int] = {}


def _torch_timer(run: Callable[[], None], warmup: int, reps: int) -> float:
    """Median milliseconds of ``run`` over ``reps`` launches timed with CUDA
    events on torch's current stream, after ``warmup`` launches."""
    torch = sys.modules.get("torch")
    if torch is None:
        raise TilecError("tilec.autotune times kernels with torch.cuda events: import torch")
    for _ in range(warmup):
        run()
    pairs = [
        (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
        for _ in range(reps)
    ]
    for start, end in pairs:  # Back to back; one wait at the end.
        start.record()
        run()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(start.elapsed_time(end) for start, end in pairs)


def _record_key(
    source: PathLike,
    kernel: Optional[str],
    configs: Sequence[Config],
    key: str,
    options: Mapping[str, Any],
    arch: str,
) -> str:
    text = os.fspath(source)
    if "\n" not in text and os.path.isfile(text):
        with open(text, "rb") as f:
            text = text + "\0" + f.read().decode("utf-8", "replace")
    blob = json.dumps(
        [
            "tilec-py-autotune-1",
            text,
            kernel,
            [repr(c) for c in configs],
            key,
            sorted((k, repr(v)) for k, v in options.items()),
            arch,
        ]
    )
    return hashlib.sha256(blob.encode()).hexdigest()


def _record_path(cache_dir: Optional[str], digest: str) -> Optional[str]:
    if cache_dir is None:
        cache_dir = os.environ.get("TILEC_CACHE_DIR") or os.path.join(
            os.path.expanduser("~"), ".cache", "tilec"
        )
    if not cache_dir:
        return None
    return os.path.join(cache_dir, "autotune", "py-%s.json" % digest)


def autotune(
    source: Any = None,
    configs: Optional[Sequence[Config]] = None,
    grid: Optional[Grid] = None,
    *args: Any,
    kernel: Optional[str] = None,
    key: Any = "",
    warmup: int = 2,
    reps: int = 10,
    timer: Optional[Callable[[Callable[[], None], int, int], float]] = None,
    cache_dir: Optional[str] = None,
    **options: Any,
) -> Any:
    """Two forms. As a decorator, Triton's: ``@tilec.autotune(configs=[...],
    key=["n", ...])`` above ``@tilec.jit`` (also ``reset_to_zero=``,
    ``restore_value=``, ``prune_configs_by={"early_config_prune": f}``):
    the first launch with a new key (the values of the named arguments and
    the dtypes of the tensors) times every config on its arguments and keeps
    the fastest for that key (docs/python.md).

    As a function: compiles ``kernel`` of ``source`` once per config (``options`` are
    ``tilec.compile``'s: arch, signature, ...), launches each on ``args``
    with ``grid`` (a function of the metadata dict, as for launches, gets
    each config's constexprs), and returns the fastest Kernel (median of
    ``reps`` CUDA-event-timed launches after ``warmup``). The choice is
    remembered per source text, kernel, configs, options, arch and ``key``
    (describe the problem size there: ``"M=4096,N=4096"``) in this process
    and in ``<cache_dir>/autotune/`` (default the kernel cache's directory;
    ``""``: memory only), so a later call compiles only the winner. Configs
    that fail to compile or launch are skipped; if all fail, a TilecError
    lists why. The launches write the arguments: outputs a kernel
    accumulates into are not reset between them."""
    if source is None or isinstance(source, (list, tuple)):
        from ._decorators import autotune_decorator

        return autotune_decorator(
            source if source is not None else configs or [],
            key or [],
            warmup=warmup,
            reps=reps,
            timer=timer,
            **options,
        )
    if not configs or grid is None:
        raise ValueError("tilec.autotune: no configs given" if not configs else "no grid given")
    time_it = timer or _torch_timer

    def build(config: Config) -> Kernel:
        return compile(
            source,
            kernel=kernel,
            constexprs=config.constexprs,
            num_warps=config.num_warps,
            num_stages=config.num_stages,
            cache_dir=cache_dir,
            **options,
        )

    first: Optional[Kernel] = None
    failures: List[str] = []
    try:
        first = build(configs[0])
    except Exception as error:  # noqa: BLE001 - reported with the others
        failures.append("%r: %s" % (configs[0], error))
    arch = first.arch if first is not None else str(options.get("arch"))
    digest = _record_key(source, kernel, configs, key, options, arch)
    path = _record_path(cache_dir, digest)
    index = _chosen.get(digest)
    if index is None and path and os.path.isfile(path):
        try:
            with open(path, encoding="utf-8") as f:
                stored = int(json.load(f)["index"])
            if 0 <= stored < len(configs):
                index = stored
        except (OSError, ValueError, KeyError, TypeError):
            index = None
    if index is not None:
        _chosen[digest] = index
        return first if index == 0 and first is not None else build(configs[index])

    best: Optional[Kernel] = None
    best_ms = float("inf")
    best_index = 0
    for i, config in enumerate(configs):
        try:
            k = first if i == 0 else build(config)
            if k is None:
                continue
            launch = k[grid]
            ms = time_it(lambda: launch(*args), warmup, reps)
        except Exception as error:  # noqa: BLE001 - a config that fails is skipped
            if i or first is not None:
                failures.append("%r: %s" % (config, error))
            continue
        if ms < best_ms:
            best, best_ms, best_index = k, ms, i
    if best is None:
        raise TilecError("tilec.autotune: every config failed:\n  " + "\n  ".join(failures))
    _chosen[digest] = best_index
    if path:
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            temp = "%s.%d.tmp" % (path, os.getpid())
            with open(temp, "w", encoding="utf-8") as f:
                json.dump(
                    {"index": best_index, "config": repr(configs[best_index]), "ms": best_ms}, f
                )
            os.replace(temp, path)
        except OSError:
            pass  # Remembering is best effort.
    return best
