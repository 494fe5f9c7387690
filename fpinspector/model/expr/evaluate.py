"""evaluate_expr: an expression on bound inputs, step by step under a rule set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..engine.ulp import ulp_error
from ..formats import F16, get_format
from .bindings import bind
from .exact import expression_exact
from .lower import lower
from .program import Program
from .run import run_program
from .step_eval import StepEval

__all__ = ["evaluate_expr", "ExprEvaluation"]


def evaluate_expr(text: str, bindings: Mapping[str, Any], format: str = "f32",
                  rules: str = "d3d11", options: Mapping[str, Any] | None = None,
                  exact: str = "value") -> ExprEvaluation:
    """Evaluate an HLSL-like expression as D3D instructions, step by step.

    Parameters
    ----------
    text : str
        The expression, e.g. ``"n * rsqrt(dot(n, n))"`` (see docs/expressions.md).
    bindings : mapping
        Variable -> value(s): ``{"n": "float3(1e-20, 0, 0)"}``, floats (values), ints and
        integer arrays (bit patterns), lists (vector components); see
        :mod:`fpinspector.model.expr.bindings`. Arrays broadcast (a sweep binds axes).
    format : {"f32", "f16"}
        Format of float values.
    rules : str
        ``"d3d11"`` (default), ``"d3d10"`` or ``"ieee754"``.
    options : mapping, optional
        Rule-engine options, as for :func:`fpinspector.model.evaluate`.
    exact : {"value", "map"}
        How tight the whole expression's exact value must be (see
        :mod:`fpinspector.model.expr.exact`).

    Returns
    -------
    ExprEvaluation

    Raises
    ------
    ExprError
        Syntax, unknown names, type errors, unbound variables (with the position).
    BindingError
        A binding that cannot be read.

    Examples
    --------
    >>> r = evaluate_expr("saturate(a * b + c)", {"a": 1.5, "b": 2.0, "c": -1.0})
    >>> [s.step.instruction for s in r.steps], hex(int(r.bits))
    (['mul', 'add_sat'], '0x3f800000')
    """
    types, values = bind(bindings, format)
    program = lower(text, types, format)
    slots = [values[i.name][i.comp] for i in program.inputs]
    return ExprEvaluation(program, slots, rules, options, exact)


class ExprEvaluation:
    """The result of :func:`evaluate_expr`.

    Attributes
    ----------
    program : Program
        The step list (``program.listing()`` shows it as assembly).
    steps : list of StepEval
        Per step: ``step.op``, ``inputs`` (operand bits as read), ``bits`` (model),
        ``allowed(obs)`` / ``allowed_set(i)``, ``fired``, ``exact``, ``explain_at(i)``.
    shape : tuple
        Shape of the bound inputs broadcast together.
    result : list of ndarray
        The model's result, one array per component (``bits``: stacked on a last axis
        for vectors).
    exact, exact_lo : list of ndarray
        The whole expression's exact value per component (float64 pair; bool for
        comparisons; a uint result's exact value is its bits).
    """

    def __init__(self, program: Program, slots: list[np.ndarray], rules: str,
                 options: Any, exact: str = "value") -> None:
        self.program = program
        self.format = program.format
        self.rules = rules
        self.options = options
        arrs = [np.asarray(s) for s in slots]
        self.shape = np.broadcast_shapes(*(a.shape for a in arrs)) if arrs else ()
        self.slots = arrs
        self.steps: list[StepEval] = run_program(program, arrs, rules, options)
        self._exact_purpose = exact
        self._exact: tuple[list[np.ndarray], list[np.ndarray], int] | None = None

    # -- results -------------------------------------------------------------------------
    @property
    def result(self) -> list[np.ndarray]:
        return [np.broadcast_to(self.steps[i].bits, self.shape) for i, _ in self.program.outputs]

    @property
    def bits(self) -> np.ndarray:
        r = self.result
        return r[0] if len(r) == 1 else np.stack(r, axis=-1)

    @property
    def result_kinds(self) -> list[str]:
        return self.program.result_kinds

    def result_format(self, component: int = 0) -> str:
        """``f32``/``f16`` for floats, ``f16`` for f32tof16's uint, ``u32``, ``bool``."""
        kind = self.result_kinds[component]
        return {"float": self.format, "half": "f16", "uint": "u32", "bool": "bool"}[kind]

    def _ensure_exact(self) -> tuple[list[np.ndarray], list[np.ndarray], int]:
        if self._exact is None:
            model = [s.bits for s in self.steps]
            self._exact = expression_exact(self.program, self.slots, model, self.shape,
                                           self._exact_purpose)
        return self._exact

    @property
    def exact(self) -> list[np.ndarray]:
        his = self._ensure_exact()[0]
        return [h.astype(bool) if k == "bool" else h for h, k in zip(his, self.result_kinds)]

    @property
    def exact_lo(self) -> list[np.ndarray]:
        return self._ensure_exact()[1]

    @property
    def refined(self) -> int:
        """Elements whose exact value came from the exact (Fraction/mpmath) path."""
        return self._ensure_exact()[2]

    def ulp_error(self, observed: list[np.ndarray] | None = None) -> list[np.ndarray]:
        """Per component: signed (observed - exact) in ULPs of the result format (the
        model's result when ``observed`` is None). bool and uint results: 0 when equal,
        INF otherwise."""
        obs = self.result if observed is None else [np.asarray(o) for o in observed]
        out = []
        for c, (o, kind) in enumerate(zip(obs, self.result_kinds)):
            hi, lo = self.exact[c], self.exact_lo[c]
            if kind in ("bool", "uint"):
                ref = hi if kind == "bool" else hi.astype(np.uint64)
                same = o.astype(bool) == ref if kind == "bool" else o.astype(np.uint64) == ref
                out.append(np.where(same, 0.0, np.inf))
                continue
            f = get_format(self.format) if kind == "float" else F16
            oo = o if kind == "float" else (o.astype(np.uint32) & 0xFFFF).astype(np.uint16)
            out.append(ulp_error(oo, hi, lo, f))
        return out

    def __repr__(self) -> str:
        return (f"ExprEvaluation({self.program.text!r}, steps={len(self.steps)}, "
                f"shape={self.shape}, rules={self.rules!r})")
