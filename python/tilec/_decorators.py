"""``@tilec.heuristics`` and the decorator form of ``tilec.autotune``, as
Triton spells them, over ``@tilec.jit`` kernels:

    @tilec.autotune(configs=[tilec.Config({"BLOCK": 128}, num_warps=4), ...], key=["n"])
    @tilec.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
    @tilec.jit
    def kernel(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr): ...

Both wrap anything with ``bind``, ``kernel``, ``interpret`` and ``[grid]``
(a JITFunction or another of them); the lambdas get Triton's ``args``
dict: the launch's arguments by parameter name, with the constexprs the
decorators above set.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ._autotune import Config, _torch_timer
from .errors import TilecError

_OPTIONS = ("num_warps", "num_stages")


class _Wrapper:
    """Delegates a JITFunction's description to the wrapped object."""

    fn: Any

    @property
    def source(self) -> str:
        return self.fn.source

    @property
    def name(self) -> str:
        return self.fn.name

    @property
    def arg_names(self) -> List[str]:
        return self.fn.arg_names

    def bind(self, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Dict[str, Any]:
        return self.fn.bind(args, kwargs)


class Heuristics(_Wrapper):
    """Constexprs computed from each launch's arguments."""

    def __init__(self, fn: Any, values: Mapping[str, Callable[[Dict[str, Any]], Any]]) -> None:
        self.fn = fn
        self.values = dict(values)

    def _with(self, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Dict[str, Any]:
        bound = self.bind(args, kwargs)
        kwargs = dict(kwargs)
        for name, value_of in self.values.items():
            kwargs[name] = bound[name] = value_of(bound)
        return kwargs

    def kernel(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn.kernel(*args, **self._with(args, kwargs))

    def interpret(self, grid: Any, *args: Any, max_ops: int = 0, **kwargs: Any) -> None:
        self.fn.interpret(grid, *args, max_ops=max_ops, **self._with(args, kwargs))

    def __getitem__(self, grid: Any) -> Callable[..., None]:
        def launch(*args: Any, stream: Any = None, launch_pdl: bool = False, **kwargs: Any) -> None:
            self.fn[grid](*args, stream=stream, launch_pdl=launch_pdl, **self._with(args, kwargs))

        return launch


def heuristics(
    values: Mapping[str, Callable[[Dict[str, Any]], Any]]
) -> Callable[[Any], Heuristics]:
    """``@tilec.heuristics({"NAME": lambda args: ...})``, as Triton's."""
    return lambda fn: Heuristics(fn, values)


class Autotuner(_Wrapper):
    """The fastest config per key, timed on the first launch with that key."""

    def __init__(
        self,
        fn: Any,
        configs: Sequence[Config],
        key: Sequence[str],
        reset_to_zero: Sequence[str] = (),
        restore_value: Sequence[str] = (),
        prune_configs_by: Optional[Mapping[str, Any]] = None,
        warmup: int = 2,
        reps: int = 10,
        timer: Optional[Callable[[Callable[[], None], int, int], float]] = None,
    ) -> None:
        if not configs:
            raise ValueError("tilec.autotune: no configs given")
        unknown = set(prune_configs_by or {}) - {"early_config_prune"}
        if unknown:
            raise TypeError(
                "tilec.autotune: prune_configs_by supports early_config_prune only, got %s"
                % ", ".join(sorted(unknown))
            )
        self.fn = fn
        self.configs = list(configs)
        self.key = list(key)
        self.reset_to_zero = list(reset_to_zero or ())
        self.restore_value = list(restore_value or ())
        self.early_config_prune = (prune_configs_by or {}).get("early_config_prune")
        self.warmup = warmup
        self.reps = reps
        self.timer = timer or _torch_timer
        self.cache: Dict[Tuple[Any, ...], Config] = {}
        self.timings: Dict[Tuple[Any, ...], Dict[str, float]] = {}
        self.best_config: Optional[Config] = None

    def _key(self, bound: Mapping[str, Any]) -> Tuple[Any, ...]:
        # The key's arguments, and (as Triton) the dtypes of the tensors.
        values = tuple(bound.get(name) for name in self.key)
        dtypes = tuple(str(v.dtype) for v in bound.values() if hasattr(v, "dtype"))
        return values + dtypes

    def _apply(self, config: Config, kwargs: Mapping[str, Any]) -> Dict[str, Any]:
        settings = dict(config.constexprs)
        for option in _OPTIONS:
            if getattr(config, option):
                settings[option] = getattr(config, option)
        conflicts = sorted(set(settings) & set(kwargs))
        if conflicts:
            raise TypeError(
                "tilec.autotune: %s set both by the launch and by the configs"
                % ", ".join(conflicts)
            )
        return dict(kwargs, **settings)

    def _tune(
        self, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any], bound: Dict[str, Any]
    ) -> Config:
        configs = self.configs
        if self.early_config_prune is not None:
            configs = list(self.early_config_prune(configs, bound, **kwargs))
        saved = {name: bound[name].clone() for name in self.restore_value}
        timings: Dict[str, float] = {}
        failures: List[str] = []
        best: Optional[Config] = None
        for config in configs:
            settings = self._apply(config, kwargs)
            launch = self.fn[grid]

            def run() -> None:
                for name in self.reset_to_zero:
                    bound[name].zero_()
                launch(*args, **settings)

            try:
                ms = self.timer(run, self.warmup, self.reps)
            except Exception as error:  # noqa: BLE001 - a config that fails is skipped
                failures.append("%r: %s" % (config, error))
                continue
            finally:
                for name, value in saved.items():
                    bound[name].copy_(value)
            timings[repr(config)] = ms
            if best is None or ms < timings[repr(best)]:
                best = config
        if best is None:
            raise TilecError("tilec.autotune: every config failed:\n  " + "\n  ".join(failures))
        self.timings[self._key(bound)] = timings
        return best

    def _config_for(self, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Config:
        bound = self.bind(args, kwargs)
        key = self._key(bound)
        config = self.cache.get(key)
        if config is None:
            config = self.cache[key] = self._tune(grid, args, kwargs, bound)
        self.best_config = config
        return config

    def __getitem__(self, grid: Any) -> Callable[..., None]:
        def launch(*args: Any, stream: Any = None, launch_pdl: bool = False, **kwargs: Any) -> None:
            config = self._config_for(grid, args, kwargs)
            self.fn[grid](
                *args, stream=stream, launch_pdl=launch_pdl, **self._apply(config, kwargs)
            )

        return launch

    def kernel(self, *args: Any, **kwargs: Any) -> Any:
        """The Kernel of the first config (the choice needs a launch)."""
        return self.fn.kernel(*args, **self._apply(self.best_config or self.configs[0], kwargs))

    def interpret(self, grid: Any, *args: Any, max_ops: int = 0, **kwargs: Any) -> None:
        """Interprets the first config (or the chosen one): nothing is timed."""
        config = self.best_config or self.configs[0]
        self.fn.interpret(grid, *args, max_ops=max_ops, **self._apply(config, kwargs))


def autotune_decorator(
    configs: Sequence[Config], key: Sequence[str], **options: Any
) -> Callable[[Any], Autotuner]:
    """``@tilec.autotune(configs=[...], key=[...])``, as Triton's."""
    return lambda fn: Autotuner(fn, configs, key, **options)
