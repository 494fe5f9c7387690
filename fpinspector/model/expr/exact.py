"""The exact (infinitely precise) value of a whole expression, per element.

The steps' real operations are applied to the exact inputs (denormal inputs at their real
value: the flush is one of the errors this measures), with nothing rounded: ``mad`` is
a*b + c, ``_sat`` the clamp, ``movc`` picks by the exact comparison, ``f32tof16`` /
``f16tof32`` / ``mov`` pass the real value on. A reinterpreted value (asfloat/asuint of a
computed result) has no real meaning: the model's bits stand in for it.

How: :mod:`.exact_fast` runs the whole array in double-double with an error bound per
element; elements whose bound is too wide for the purpose (or whose comparisons, floors or
square roots sit within the bound of their threshold) are recomputed exactly, one by one,
with Fractions and mpmath (:mod:`.exact_scalar`). Two purposes:

- ``"value"`` (evaluate_expr): the bound must be under 2^-70 of the value, so hi + lo is the
  exact value to 70 bits;
- ``"map"`` (error maps): the bound must be under 2^-20 ULP of the result format, so the
  ULP error a map shows is within 2^-20 ULP of the true error (exp2/log2 run in float64
  with a 2^-50 relative bound here, and rarely need the exact path).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..engine.ulp import ulp_at
from ..formats import F16, FloatFormat
from .exact_fast import fast_exact
from .exact_scalar import Real, exact_op, exact_sat, to_pair
from .instructions import instruction
from .program import Program, Ref

__all__ = ["expression_exact", "exact_element", "REL_BOUND", "MAP_ULP_BOUND"]

REL_BOUND = 2.0 ** -70
MAP_ULP_BOUND = 2.0 ** -20


def _scalar_of(bits: int, kind: str, fmt: FloatFormat) -> Real:
    if kind == "bool":
        return bool(bits)
    if kind == "uint":
        return int(bits)
    f = fmt if kind == "float" else F16
    b = int(bits) & (0xFFFF if kind == "half" else f.mask)
    v = f.exact_value(b)
    if not isinstance(v, float) and v == 0:
        return -0.0 if b & f.sign_mask else 0.0
    return v


def _modify(v: Real, ref: Ref) -> Real:
    if ref.abs:
        v = abs(v) if not (isinstance(v, float) and math.isnan(v)) else v
    return -v if ref.neg else v


def exact_element(program: Program, slots: Sequence[int], model: Sequence[int]) -> list[Real]:
    """Exact value of every step for one element (Fraction / mpf / float / bool / int)."""
    fmt = _fmt(program)
    vals: list[Real] = []
    for step in program.steps:
        half = instruction(step.op).reads_half
        args = []
        for r in step.args:
            if r.src == "step" and not r.cast and not (
                    half and program.steps[r.index].kind != "half"):
                v = vals[r.index]
            else:
                bits = (slots[r.index] if r.src == "input" else program.consts[r.index].bits
                        if r.src == "const" else model[r.index])
                kind = "half" if half else r.kind
                v = _scalar_of(int(bits), kind, fmt)
            args.append(_modify(v, r))
        v = exact_op(step.op, args)
        vals.append(exact_sat(v) if step.sat else v)
    return vals


def _fmt(program: Program) -> FloatFormat:
    from ..formats import get_format  # noqa: PLC0415

    return get_format(program.format)


def expression_exact(program: Program, slots: Sequence[np.ndarray], model: Sequence[np.ndarray],
                     shape: tuple[int, ...], purpose: str = "value"
                     ) -> tuple[list[np.ndarray], list[np.ndarray], int]:
    """(hi per output, lo per output, elements recomputed exactly).

    ``model`` are the model's step results (for reinterpretations); ``purpose`` "value"
    or "map" sets the bound (module docstring).
    """
    fmt = _fmt(program)
    approx = fast_exact(program, slots, model, fmt, shape)
    need = np.zeros(shape, bool)
    for step, kind in program.outputs:
        a = approx[step]
        if kind in ("bool", "uint"):
            need |= a.bad
            continue
        f = fmt if kind == "float" else F16
        with np.errstate(invalid="ignore", over="ignore"):
            tol = (REL_BOUND * np.abs(a.hi) if purpose == "value"
                   else MAP_ULP_BOUND * ulp_at(a.hi, a.lo, f))
            ok = (a.err <= tol) | ~np.isfinite(a.hi)
        need |= a.bad | ~ok
    his = [np.array(np.broadcast_to(approx[i].hi, shape)) for i, _ in program.outputs]
    los = [np.array(np.broadcast_to(approx[i].lo, shape), dtype=np.float64)
           for i, _ in program.outputs]
    idx = np.flatnonzero(need)
    if idx.size:
        flat_slots = [np.broadcast_to(np.asarray(s), shape).reshape(-1) for s in slots]
        flat_model = [np.broadcast_to(np.asarray(m), shape).reshape(-1) for m in model]
        for k in idx:
            vals = exact_element(program, [int(s[k]) for s in flat_slots],
                                 [int(m[k]) for m in flat_model])
            for o, (si, kind) in enumerate(program.outputs):
                hi, lo = to_pair(vals[si])
                his[o].reshape(-1)[k] = hi
                los[o].reshape(-1)[k] = lo
    return his, los, int(idx.size)
