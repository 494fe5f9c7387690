"""The standard sweep stage: the rule engine's ``evaluate`` (model + exact + verdicts),
optionally joined by a GPU capture, producing the columns the runner and plots know."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine import OPS, OpSpec
from ..engine import evaluate as engine_evaluate
from ..engine.masked import indices
from ..formats import FORMATS, float_format_of, operand_format
from .metrics import ulp_distance

__all__ = ["COMPARES", "ModelStage", "ModelStageRecipe", "NOT_ELEMENTS", "op_arity",
           "operand_format_of", "result_format_of", "engine_format"]

#: Stage outputs that are not per-element columns: ``gpu_diff`` (indices into the chunk),
#: ``gpu_patched`` (a flag) and ``fired_counts`` (rule ID -> elements), read by the summary.
NOT_ELEMENTS = frozenset({"gpu_diff", "gpu_patched", "fired_counts"})

#: What a map can show: compare name -> (error column, label).
COMPARES: dict[str, tuple[str, str]] = {
    "gpu_vs_model": ("err_gpu_model", "GPU vs model"),
    "gpu_vs_exact": ("err_gpu", "GPU vs exact"),
    "model_vs_exact": ("err_model", "model vs exact"),
}


def op_arity(op: str) -> int:
    """Number of operands of ``op`` (ValueError for unknown ops)."""
    return _spec(op).arity


def _spec(op: str) -> OpSpec:
    if op not in OPS:
        raise ValueError(f"unknown op {op!r}; choose one of {', '.join(sorted(OPS))}")
    return OPS[op]


def result_format_of(op: str, fmt: str, rules: str = "d3d11", options: Any = None) -> str:
    """Result format name of ``op`` on ``fmt`` operands, asked of the engine on one sample."""
    f = operand_format(fmt)
    zeros = [np.zeros(1, f.dtype)] * op_arity(op)
    ev = engine_evaluate(op, *zeros, format=engine_format(f.name), rules=rules,
                         options=options)
    return str(ev.result_format)


def engine_format(fmt: str) -> str:
    """The ``format=`` the engine and the GPU take for ``fmt`` operands
    (:func:`~fpinspector.model.formats.float_format_of`: integer codes go with f32)."""
    return float_format_of(fmt).name


def operand_format_of(op: str, fmt: str) -> str:
    """Operand type name for sweeping ``op`` (the op table's ``operand_type``): ``fmt`` when
    the op takes it, else the op's only operand type (itof takes i32 codes whatever
    ``--format`` says). ValueError when ``op`` takes several types and ``fmt`` is none."""
    return _spec(op).operand_type(fmt).name


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
    fixed : tuple of ndarray, optional
        Constant trailing operands appended to every chunk (e.g. ``C`` of ``mad`` over an
        A x B grid); 0-d patterns that broadcast against the swept operands.

    Notes
    -----
    Columns: ``model``, ``exact``, ``err_model`` (model vs exact), ``ok_model``, ``fired``
    (and ``fired_counts``, rule ID -> its elements, not a column: for the summary);
    with a GPU also ``gpu``, ``err_gpu`` (GPU vs exact), ``err_gpu_model`` (signed steps
    from model to GPU) and ``ok_gpu`` (GPU result allowed by the rule set), plus
    ``gpu_diff`` (indices where the GPU pattern differs from the model's).

    Why the GPU verdicts are computed on ``gpu_diff`` only: where the GPU returns the
    model's own pattern, its error and verdict are the model's (same observation of the
    same evaluation) and the distance is 0. A NaN where the model has a NaN of another
    payload or sign counts as the same too when the engine judges the op's NaN results by
    NaN-ness alone (F32-NANOUT: any NaN where a NaN is allowed; probed once per stage,
    not so for mov), and NaNs are 0 steps apart. Conformant GPUs agree with the model almost
    everywhere, so re-evaluating just the differing elements turns the most expensive
    compare stage into a copy.
    """

    #: Above this fraction of differing elements, verdicts use the whole-chunk evaluation.
    SUBSET_FRACTION = 0.25

    def __init__(
        self,
        op: str,
        fmt: str,
        rules: str = "d3d11",
        options: Any = None,
        gpu: Callable[..., np.ndarray] | None = None,
        evaluate: Callable[..., Any] | None = None,
        fixed: tuple[np.ndarray, ...] = (),
    ) -> None:
        self.op, self.rules, self.options = op, rules, options
        self.fmt = engine_format(fmt)  # integer-code operands: the engine's f32 ops
        self.gpu = gpu
        self.fixed = tuple(np.asarray(f) for f in fixed)
        self._evaluate = evaluate or engine_evaluate
        self.timings: dict[str, float] = {}
        self._nan_probe: bool | None = None
        self._owned: list[Any] = []
        self._zeros: np.ndarray | None = None

    @property
    def arity(self) -> int:
        return op_arity(self.op)

    def recipe(self) -> ModelStageRecipe | None:
        """What a worker process needs to build this stage (picklable), or None where it
        cannot: a custom ``evaluate``, or a GPU capture no other process can reach (one
        whose GL context lives in this process). Each call opens its own GPU connection."""
        if self._evaluate is not engine_evaluate:
            return None
        gpu = None
        if self.gpu is not None:
            connect = getattr(self.gpu, "connect", None)
            gpu = connect() if connect is not None else None
            if gpu is None:
                return None
        return ModelStageRecipe(self.op, self.fmt, self.rules, self.options, self.fixed, gpu)

    def close(self) -> None:
        """Release what the stage owns (a worker's GPU connection; nothing otherwise)."""
        for thing in self._owned:
            thing.close()
        self._owned = []

    def _tick(self, name: str, t0: float) -> float:
        t = time.perf_counter()
        self.timings[name] = self.timings.get(name, 0.0) + t - t0
        return t

    def _eval(self, operands: tuple[np.ndarray, ...]) -> Any:
        layout = getattr(operands, "layout", None)  # (a grid chunk's: GridOperands)
        if layout is not None and self._evaluate is engine_evaluate and not self.fixed:
            return self._evaluate(self.op, *operands, format=self.fmt, rules=self.rules,
                                  options=self.options, layout=layout)
        return self._evaluate(self.op, *operands, *self.fixed, format=self.fmt,
                              rules=self.rules, options=self.options)

    @property
    def gpu_ahead(self) -> bool:
        """Does the GPU take requests ahead (``submit``, a pending result)? Then it works
        while the model evaluates, and a worker can hand it a span (:meth:`start_gpu`)."""
        return self.gpu is not None and hasattr(self.gpu, "submit")

    def start_gpu(self, operands: tuple[np.ndarray, ...]) -> Any:
        """Start the GPU on ``operands`` (a span of several chunks: one request) and return
        the pending result (``.result()``); needs :attr:`gpu_ahead`. Each chunk of the
        span is then called with ``gpu=`` its part of it."""
        gpu: Any = self.gpu  # (a GPU with submit: gpu_ahead)
        return gpu.submit(self.op, *operands, *self.fixed, format=self.fmt)

    def __call__(self, operands: tuple[np.ndarray, ...],
                 gpu: Callable[[], np.ndarray] | None = None) -> Mapping[str, Any]:
        """The chunk's columns. ``gpu``: gives the GPU's result bits of these operands
        (part of a request :meth:`start_gpu` started for a whole span) instead of asking
        the GPU here."""
        t = time.perf_counter()
        fut = None
        if gpu is None and self.gpu_ahead:
            fut = self.start_gpu(operands)
        ev = self._eval(operands)
        model = np.asarray(ev.bits)
        t = self._tick("model", t)
        if hasattr(ev, "model_columns"):  # the engine's one pass: exact, error, rules
            cols = ev.model_columns()
            shape = model.shape
            out: dict[str, Any] = {"model": model, "exact": cols["exact"].reshape(shape)}
            err_model = cols["err_model"].reshape(shape)
            fired = {r: m.reshape(shape) for r, m in cols["fired"].items()}
            if "fired_counts" in cols:
                out["fired_counts"] = cols["fired_counts"]
        else:  # a replaced evaluate (tests, alternative models) or a conversion
            out = {"model": model, "exact": np.asarray(ev.exact, dtype=np.float64)}
            err_model = np.asarray(ev.ulp_error(model), dtype=np.float64)
            fired = {r: np.asarray(m, dtype=bool) for r, m in ev.fired.items()}
        t = self._tick("exact", t)
        ok_model = np.asarray(ev.allowed(model), dtype=bool)
        out["err_model"], out["ok_model"], out["fired"] = err_model, ok_model, fired
        t = self._tick("model_verdict", t)
        if self.gpu is not None:
            if gpu is not None:
                g = gpu()
            elif fut is not None:
                g = fut.result()
            else:
                g = self.gpu(self.op, *operands, *self.fixed, format=self.fmt)
            g = np.asarray(g).reshape(model.shape)
            t = self._tick("gpu_wait", t)
            out["gpu"] = g
            out.update(self._gpu_verdicts(ev, operands, model, g, err_model, ok_model))
            self._tick("compare", t)
        return out

    def _nan_alike(self, rfmt: Any) -> bool:
        """Does the engine judge this op's NaN results by NaN-ness alone? Probed once on
        operands that make NaNs (NaN payloads of both signs, inf - inf, 0 * inf, sqrt(-x)):
        ops that pass a NaN's bits through (mov) care about the payload and say no."""
        if self._nan_probe is None:
            f = FORMATS[self.fmt]  # a float format: engine_format() of the operand type
            vals = np.array([0, f.sign_mask, 1, f.pos_inf, f.pos_inf | f.sign_mask, f.quiet_nan,
                             f.sign_mask | f.quiet_nan, f.quiet_nan | 1, int(f.encode(1.0)),
                             int(f.encode(-2.5)), f.max_finite_bits], dtype=f.dtype)
            k = self.arity - len(self.fixed)  # every combination for up to 3 operands
            grids = np.meshgrid(*[vals] * k, indexing="ij") if k <= 3 else [vals] * k
            ev = self._evaluate(self.op, *(x.ravel() for x in grids), *self.fixed,
                                format=self.fmt, rules=self.rules, options=self.options)
            pats = [rfmt.quiet_nan, rfmt.quiet_nan | rfmt.sign_mask, rfmt.pos_inf + 1, rfmt.mask]
            obs = [np.full(np.shape(ev.bits), p, dtype=rfmt.dtype) for p in pats]
            ok = [np.asarray(ev.allowed(o)) for o in obs]
            err = [np.asarray(ev.ulp_error(o)) for o in obs]
            self._nan_probe = all(np.array_equal(o, ok[0]) for o in ok) and all(
                np.array_equal(e, err[0], equal_nan=True) for e in err)
        return bool(self._nan_probe)

    def _zero_steps(self, shape: tuple[int, ...]) -> np.ndarray:
        """0 steps from the model everywhere: one read-only array per chunk shape, kept
        (outputs are never written to; a fresh one per chunk cost a zero fill)."""
        z = self._zeros
        if z is None or z.shape != shape:
            z = self._zeros = np.zeros(shape, np.float64)
            z.flags.writeable = False
        return z

    def _gpu_verdicts(self, ev: Any, operands: tuple[np.ndarray, ...], model: np.ndarray,
                      g: np.ndarray, err_model: np.ndarray, ok_model: np.ndarray
                      ) -> dict[str, Any]:
        """err_gpu, ok_gpu, err_gpu_model, gpu_diff: full where the GPU differs a lot,
        else copies of the model's verdicts patched on the differing elements (the model's
        own arrays where nothing differs: outputs are never written to)."""
        rf = ev.result_format
        neq = g != model
        fmt = FORMATS.get(rf)
        if fmt is not None and neq.any() and self._nan_alike(fmt):  # NaN vs NaN: same verdicts
            # (whole-chunk masks: where every result is a NaN of another sign, e.g. sqrt of
            # negatives, gathering the differing elements first cost ten times more)
            neq &= ~(fmt.is_nan(g) & fmt.is_nan(model))
        diff = indices(neq)
        if diff.size > self.SUBSET_FRACTION * g.size:
            return {"err_gpu": np.asarray(ev.ulp_error(g), dtype=np.float64),
                    "ok_gpu": np.asarray(ev.allowed(g), dtype=bool),
                    "err_gpu_model": ulp_distance(g, model, rf), "gpu_diff": diff}
        if not diff.size:  # the GPU's verdicts are the model's: the same arrays (read-only)
            return {"err_gpu": err_model, "ok_gpu": ok_model,
                    "err_gpu_model": self._zero_steps(g.shape), "gpu_diff": diff,
                    "gpu_patched": True}
        dist = np.zeros(g.shape, np.float64)
        err_gpu, ok_gpu = err_model.copy(), ok_model.copy()
        sub = self._eval(tuple(np.asarray(o).reshape(-1)[diff] for o in operands))
        gd = g[diff]
        err_gpu[diff] = np.asarray(sub.ulp_error(gd), dtype=np.float64)
        ok_gpu[diff] = np.asarray(sub.allowed(gd), dtype=bool)
        dist[diff] = ulp_distance(gd, model[diff], rf)
        # gpu_patched: err_gpu is err_model outside gpu_diff, and gpu's class is model's
        # there (same pattern or both NaN), so the summary reuses the model's passes
        return {"err_gpu": err_gpu, "ok_gpu": ok_gpu, "err_gpu_model": dist, "gpu_diff": diff,
                "gpu_patched": True}


@dataclass
class ModelStageRecipe:
    """:meth:`ModelStage.recipe`: the stage's arguments and a GPU connection of its own.

    ``build()`` runs in the worker process; the stage it builds owns the connection.
    ``detach()`` closes this process's copy of the connection once the worker has its own.
    """

    op: str
    fmt: str
    rules: str
    options: Any
    fixed: tuple[np.ndarray, ...]
    gpu: Any = None

    def build(self) -> ModelStage:
        stage = ModelStage(self.op, self.fmt, self.rules, options=self.options, gpu=self.gpu,
                           fixed=self.fixed)
        if self.gpu is not None:
            stage._owned.append(self.gpu)
        return stage

    def detach(self) -> None:
        if self.gpu is not None:
            self.gpu.close()
