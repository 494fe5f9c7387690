"""The standard sweep stage: the rule engine's ``evaluate`` (model + exact + verdicts),
optionally joined by a GPU capture, producing the columns the runner and plots know.

The engine is imported lazily so sweeps of plain numpy stages work without it.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Mapping

import numpy as np

from .metrics import ulp_distance

__all__ = ["COMPARES", "ModelStage", "op_arity", "result_format_of", "engine"]

#: What a map can show: compare name -> (error column, label).
COMPARES: dict[str, tuple[str, str]] = {
    "gpu_vs_model": ("err_gpu_model", "GPU vs model"),
    "gpu_vs_exact": ("err_gpu", "GPU vs exact"),
    "model_vs_exact": ("err_model", "model vs exact"),
}


def engine() -> Any:
    """The rule engine module (``evaluate``, ``OPS``), with a clear error while it is missing."""
    try:
        from .. import engine as eng  # noqa: PLC0415 - lazy: sweeps also run without it
    except ImportError as exc:
        raise ValueError(f"the rule engine (fpinspector.model.engine) is not available: {exc}") from None
    return eng


def op_arity(op: str) -> int:
    """Number of operands of ``op`` (ValueError for unknown ops)."""
    ops = engine().OPS
    if op not in ops:
        raise ValueError(f"unknown op {op!r}; choose one of {', '.join(sorted(ops))}")
    return int(ops[op].arity)


def result_format_of(op: str, fmt: str, rules: str = "d3d11", options: Any = None) -> str:
    """Result format name of ``op`` on ``fmt`` operands, asked of the engine on one sample."""
    from ..formats import get_format  # noqa: PLC0415

    f = get_format(fmt)
    zeros = [np.zeros(1, f.dtype)] * op_arity(op)
    ev = engine().evaluate(op, *zeros, format=f.name, rules=rules, options=options)
    return str(ev.result_format)


class ModelStage:
    """Stage computing model bits, exact values, ULP errors and verdicts for one chunk.

    Parameters
    ----------
    op, fmt, rules, options
        As for ``fpinspector.model.evaluate``.
    gpu : callable, optional
        ``gpu(op, *operand_bits, format=fmt) -> result bits``. When it also has
        ``submit`` (same arguments, returning a Future), the GPU works on the chunk while
        the model evaluates it.
    evaluate : callable, optional
        Replaces the engine's ``evaluate`` (for tests and alternative models).

    Notes
    -----
    Columns: ``model``, ``exact``, ``err_model`` (model vs exact), ``ok_model``, ``fired``;
    with a GPU also ``gpu``, ``err_gpu`` (GPU vs exact), ``err_gpu_model`` (signed steps
    from model to GPU) and ``ok_gpu`` (GPU result allowed by the rule set).
    """

    def __init__(
        self,
        op: str,
        fmt: str,
        rules: str = "d3d11",
        options: Any = None,
        gpu: Callable[..., np.ndarray] | None = None,
        evaluate: Callable[..., Any] | None = None,
    ) -> None:
        self.op, self.fmt, self.rules, self.options = op, fmt, rules, options
        self.gpu = gpu
        self._evaluate = evaluate or engine().evaluate
        self.timings: dict[str, float] = {}

    def _tick(self, name: str, t0: float) -> float:
        t = time.perf_counter()
        self.timings[name] = self.timings.get(name, 0.0) + t - t0
        return t

    def __call__(self, operands: tuple[np.ndarray, ...]) -> Mapping[str, Any]:
        t = time.perf_counter()
        fut = None
        if self.gpu is not None and hasattr(self.gpu, "submit"):
            fut = self.gpu.submit(self.op, *operands, format=self.fmt)
        ev = self._evaluate(self.op, *operands, format=self.fmt, rules=self.rules,
                            options=self.options)
        model = np.asarray(ev.bits)
        out: dict[str, Any] = {"model": model, "exact": np.asarray(ev.exact, dtype=np.float64)}
        t = self._tick("model", t)
        out["err_model"] = np.asarray(ev.ulp_error(model), dtype=np.float64)
        out["ok_model"] = np.asarray(ev.allowed(model), dtype=bool)
        out["fired"] = {r: np.asarray(m, dtype=bool) for r, m in ev.fired.items()}
        t = self._tick("model_verdict", t)
        if self.gpu is not None:
            g = fut.result() if fut is not None else self.gpu(self.op, *operands, format=self.fmt)
            g = np.asarray(g)
            t = self._tick("gpu_wait", t)
            out["gpu"] = g
            out["err_gpu"] = np.asarray(ev.ulp_error(g), dtype=np.float64)
            out["ok_gpu"] = np.asarray(ev.allowed(g), dtype=bool)
            out["err_gpu_model"] = ulp_distance(g, model, ev.result_format)
            self._tick("gpu_verdict", t)
        return out
