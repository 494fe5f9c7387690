"""Error maps over expressions: two variables (or vector components) as the A and B axes,
every other variable fixed, the whole expression's model-vs-exact and GPU-vs-model error
per element, and the first step where the GPU leaves the allowed set.

The stage plugs into :func:`fpinspector.model.sweep.run_sweep` like the single-op stage,
so maps, summaries, .npz files and the error-map widget work unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .bindings import bind
from .evaluate import ExprEvaluation
from .judge import judge_gpu
from .lower import lower
from .program import ExprType, Program

__all__ = ["ExprStage", "ExprStageRecipe", "expr_sweep_setup", "axis_slot", "COMPONENTS"]

#: how a vector result becomes one map value: the worst component, or one of them
COMPONENTS = ("worst", "x", "y", "z", "w")


def axis_slot(program: Program, name: str) -> int:
    """Input slot of an axis name: ``a`` (a float variable) or ``n.y`` (one component)."""
    var, _, comp = name.partition(".")
    idx = "xyzw".find(comp) if comp else 0
    for k, inp in enumerate(program.inputs):
        if inp.name == var and inp.comp == idx:
            if inp.kind != "float":
                raise ValueError(f"axis {name}: only float variables can be swept")
            if comp and (len(comp) != 1 or inp.n == 1):
                raise ValueError(f"axis {name}: pick one component of a vector, e.g. {var}.x")
            return k
    raise ValueError(f"axis {name}: the expression reads no such variable"
                     + (f" (it reads {', '.join(program.variables)})" if program.variables else ""))


def expr_sweep_setup(text: str, axes: Sequence[str], fixed: Mapping[str, Any],
                     format: str = "f32") -> tuple[Program, list[int], list[np.ndarray]]:
    """Lower ``text`` with the axis variables as floats and the others bound by ``fixed``.

    Returns (program, axis slots, fixed slot values: a 0-d array per slot, None on axes).
    """
    if not 1 <= len(axes) <= 2:
        raise ValueError("a map sweeps one or two variables")
    if len(set(axes)) != len(axes):
        raise ValueError("the two axes are the same variable: pick two")
    types, values = bind(fixed, format)
    for name in axes:
        var, _, comp = name.partition(".")
        if var in types and not comp:
            raise ValueError(f"{var} is both an axis and bound to a value")
        if not comp:
            types[var] = ExprType("float")
        elif var not in types:
            raise ValueError(f"axis {name}: bind the vector {var} too (its other components)")
    program = lower(text, types, format)
    slots: list[Any] = [np.asarray(values[i.name][i.comp]) if i.name in values else None
                        for i in program.inputs]
    axis_slots = [axis_slot(program, a) for a in axes]
    if len(set(axis_slots)) != len(axis_slots):
        raise ValueError("the two axes are the same variable")
    for k in axis_slots:
        slots[k] = None
    missing = [program.inputs[k].label for k, s in enumerate(slots)
               if s is None and k not in axis_slots]
    if missing:
        raise ValueError(f"bind {', '.join(missing)}")
    return program, axis_slots, slots


class ExprStage:
    """Sweep stage: operands of a chunk -> the map's columns for the whole expression.

    Parameters
    ----------
    program : Program
    axis_slots : list of int
        Input slots the domain's operands feed (A, then B).
    slots : list of ndarray or None
        Fixed input slots (0-d arrays), None on the axes.
    rules, options
        As for :func:`fpinspector.model.evaluate`.
    gpu : object, optional
        With ``submit(program, slots) -> Future`` of per-step words (``ExprGpu``).
    component : {"worst", "x", "y", "z", "w"}
        Which component of a vector result the map shows (default: the one with the
        largest model-vs-exact error, element by element).

    Notes
    -----
    Columns: ``model``, ``exact``, ``err_model``, ``ok_model``, ``fired`` (every step's
    rules); with a GPU ``gpu``, ``err_gpu`` (vs exact), ``err_gpu_model`` (steps between
    GPU and model results), ``ok_gpu`` (every GPU step allowed on its own inputs) and
    ``first_bad`` (first such step, -1 where none).
    """

    def __init__(self, program: Program, axis_slots: list[int], slots: list[Any],
                 rules: str = "d3d11", options: Any = None, gpu: Any = None,
                 component: str = "worst") -> None:
        if component not in COMPONENTS:
            raise ValueError(f"component must be one of {', '.join(COMPONENTS)}")
        n = len(program.outputs)
        if component != "worst" and "xyzw".index(component) >= n:
            raise ValueError(f"the result has {n} component(s): no .{component}")
        self.program, self.axis_slots, self.slots = program, axis_slots, slots
        self.rules, self.options, self.gpu, self.component = rules, options, gpu, component
        self.timings: dict[str, float] = {}

    @property
    def result_format(self) -> str:
        kind = self.program.outputs[0][1]
        return {"float": self.program.format, "half": "f16", "uint": "u32", "bool": "bool"}[kind]

    def recipe(self) -> ExprStageRecipe | None:
        """What a sweep worker process needs to build this stage (picklable), so that a big
        map runs on every core; None with a GPU: the expression's GPU session holds its GL
        context in this process, so such a sweep runs on stage threads."""
        if self.gpu is not None:
            return None
        return ExprStageRecipe(self.program, list(self.axis_slots), list(self.slots),
                               self.rules, self.options, self.component)

    def _tick(self, name: str, t0: float) -> float:
        t = time.perf_counter()
        self.timings[name] = self.timings.get(name, 0.0) + t - t0
        return t

    def __call__(self, operands: tuple[np.ndarray, ...]) -> dict[str, Any]:
        from ..sweep import ulp_distance  # noqa: PLC0415

        t = time.perf_counter()
        slots = list(self.slots)
        for k, ops in zip(self.axis_slots, operands):
            slots[k] = ops
        fut = self.gpu.submit(self.program, slots) if self.gpu is not None else None
        ev = ExprEvaluation(self.program, slots, self.rules, self.options, exact="map")
        model = [np.broadcast_to(r, ev.shape) for r in ev.result]
        t = self._tick("model", t)
        errs = ev.ulp_error()
        pick = self._pick(errs, ev.shape)
        take = lambda cols: np.choose(pick, cols) if len(cols) > 1 else np.asarray(cols[0])  # noqa: E731
        out: dict[str, Any] = {"model": take(model), "exact": take(ev.exact).astype(np.float64),
                               "err_model": take(errs), "ok_model": np.ones(ev.shape, bool)}
        fired: dict[str, np.ndarray] = {}
        for s in ev.steps:
            for rule, m in s.fired.items():
                fired[rule] = fired[rule] | m if rule in fired else np.array(m, bool)
        out["fired"] = {r: np.broadcast_to(m, ev.shape) for r, m in fired.items()}
        t = self._tick("exact_and_rules", t)
        if fut is not None:
            words = fut.result()
            t = self._tick("gpu_wait", t)
            j = judge_gpu(ev, words)
            g = [np.broadcast_to(j.gpu[o], ev.shape) for o, _ in self.program.outputs]
            gerr = ev.ulp_error(g)
            out["gpu"] = take(g)
            out["err_gpu"] = take(gerr)
            out["err_gpu_model"] = ulp_distance(out["gpu"], out["model"], self.result_format)
            out["ok_gpu"] = j.first_bad < 0
            out["first_bad"] = j.first_bad.astype(np.int16)
            self._tick("compare", t)
        return out

    def _pick(self, errs: list[np.ndarray], shape: tuple) -> np.ndarray:
        if self.component != "worst":
            return np.full(shape, "xyzw".index(self.component), np.intp)
        if len(errs) == 1:
            return np.zeros(shape, np.intp)
        mag = np.stack([np.where(np.isnan(e), np.inf, np.abs(e)) for e in errs])
        return np.argmax(mag, axis=0)


@dataclass
class ExprStageRecipe:
    """:meth:`ExprStage.recipe`: the stage's arguments (no GPU); ``build()`` runs in the
    worker process."""

    program: Program
    axis_slots: list[int]
    slots: list[Any]
    rules: str
    options: Any
    component: str

    def build(self) -> ExprStage:
        return ExprStage(self.program, self.axis_slots, self.slots, self.rules, self.options,
                         None, self.component)
