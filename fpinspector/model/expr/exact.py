"""The exact (infinitely precise) value of a whole expression, per element.

The steps' real operations are applied to the exact inputs (denormal inputs at their real
value: the flush is one of the errors this measures), with nothing rounded: ``mad`` is
a*b + c, ``_sat`` the clamp, ``movc`` picks by the exact comparison, ``f32tof16`` /
``f16tof32`` / ``mov`` pass the real value on. A reinterpreted value (asfloat/asuint of a
computed result) has no real meaning: the model's bits stand in for it.

How: :func:`fast_exact` runs the whole array in double-double with an error bound per
element; elements whose bound is too wide for the purpose (or whose comparisons, floors or
square roots sit within the bound of their threshold) are recomputed exactly, one by one,
with Fractions and mpmath. Both are the engine's exact-value entries, per instruction
(engine/exact/: the bounded vector entry ``bounded`` and the scalar entry ``scalar``); this
module only walks the program. Two purposes:

- ``"value"`` (evaluate_expr): the bound must be under 2^-70 of the value, so hi + lo is the
  exact value to 70 bits;
- ``"map"`` (error maps): the bound must be under 2^-20 ULP of the result format, so the
  ULP error a map shows is within 2^-20 ULP of the true error (exp2/log2 run in float64
  with a 2^-50 relative bound here, and rarely need the exact path).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from ..engine.exact.bounded import Approx, exact_approx, saturate, step_of
from ..engine.exact.scalar import Real, entry, exact_sat, to_pair
from ..engine.optable import OPS
from ..engine.ulp import ulp_at
from ..formats import F16, FloatFormat
from .instructions import instruction
from .program import Program, Ref

__all__ = ["expression_exact", "exact_element", "fast_exact", "REL_BOUND", "MAP_ULP_BOUND"]

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


def _decode(bits: np.ndarray, kind: str, fmt: FloatFormat) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        if kind == "float":
            return fmt.decode(np.asarray(bits).astype(fmt.dtype))
        if kind == "half":
            return F16.decode((np.asarray(bits).astype(np.uint32) & 0xFFFF).astype(np.uint16))
        if kind == "bool":
            return np.asarray(bits).astype(bool)
        return np.asarray(bits).astype(np.float64)


def _read(program: Program, ref: Ref, slots: Sequence[np.ndarray], model: Sequence[np.ndarray],
          values: list[Approx], fmt: FloatFormat, shape: tuple[int, ...]) -> Approx:
    if ref.src == "step" and not ref.cast:
        a = values[ref.index]
    else:
        if ref.src == "input":
            bits = slots[ref.index]
        elif ref.src == "const":
            bits = np.asarray(program.consts[ref.index].bits)
        else:
            bits = model[ref.index]
        a = exact_approx(np.broadcast_to(_decode(bits, ref.kind, fmt), shape).astype(
            bool if ref.kind == "bool" else np.float64))
    if ref.abs:
        s = np.where(a.hi < 0, -1.0, 1.0)
        a = Approx(np.abs(a.hi), a.lo * s, a.err, a.bad)
    if ref.neg:
        a = Approx(-a.hi, -a.lo, a.err, a.bad)
    return a




def fast_exact(program: Program, slots: Sequence[np.ndarray], model: Sequence[np.ndarray],
               fmt: FloatFormat, shape: tuple[int, ...]) -> list[Approx]:
    """Approximations (with bounds) of every step's exact value over all elements.

    ``model`` are the model's step results (read where a value is reinterpreted).
    """
    values: list[Approx] = []
    with np.errstate(all="ignore"):
        for step in program.steps:
            args = [_read(program, r, slots, model, values, fmt, shape) for r in step.args]
            r = step.args[0]
            if instruction(step.op).reads_half and not (
                    r.src == "step" and r.plain and not r.cast
                    and program.steps[r.index].kind == "half"):
                args = [_read(program, Ref(r.src, r.index, "half", cast=True), slots, model,
                              values, fmt, shape)]
            v = step_of(step.op, OPS.get(step.op))(*args)
            if step.sat:
                v = saturate(v)
            values.append(v)
    return values


def exact_element(program: Program, slots: Sequence[int], model: Sequence[int],
                  fns: Sequence[Callable[..., Real]] | None = None) -> list[Real]:
    """Exact value of every step for one element (Fraction / mpf / float / bool / int).
    ``fns``: :func:`step_functions` of the program, when the caller has them."""
    fmt = _fmt(program)
    fns = step_functions(program) if fns is None else fns
    vals: list[Real] = []
    for step, fn in zip(program.steps, fns):
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
        v = fn(*args)
        vals.append(exact_sat(v) if step.sat else v)
    return vals


def step_functions(program: Program) -> list[Callable[..., Real]]:
    """Each step's scalar exact function (engine/exact/scalar.py: from its op row where the
    row has one); ValueError for an instruction with none."""
    fns = []
    for step in program.steps:
        fn = entry(step.op, OPS.get(step.op))
        if fn is None:
            raise ValueError(f"no exact semantics for {step.op!r}")
        fns.append(fn)
    return fns


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
        fns = step_functions(program)
        for k in idx:
            vals = exact_element(program, [int(s[k]) for s in flat_slots],
                                 [int(m[k]) for m in flat_model], fns)
            for o, (si, kind) in enumerate(program.outputs):
                hi, lo = to_pair(vals[si])
                his[o].reshape(-1)[k] = hi
                los[o].reshape(-1)[k] = lo
    return his, los, int(idx.size)
