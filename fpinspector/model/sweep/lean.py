"""Lean model columns for "ordinary" chunks of exhaustive f32 sqrt / rcp sweeps.

Why: in exhaustive order a chunk of consecutive f32 patterns (up to 2^23 of them) has one
sign and one biased exponent. When that exponent is normal and the op's result stays
normal, every element of the chunk is "plain" (engine/plain.py): its model pattern is the
correctly rounded exact value, the model is inside its own allowed window, and the same
single accuracy rule decided it. The stage columns (model, exact, err_model, ok_model,
fired) then need only the engine's own primitives (``transcendental``, ``grid.rne``,
``grid.ulp_at``), not the full evaluation record (window keys, NaN/flush masks, per-rule
dicts, splicing). Half of an exhaustive sqrt sweep (negative normal operands) is a chunk
of NaN results whose columns are constants.

Anything else (mixed sign or exponent, zero/denormal/INF/NaN operands, rcp results near
the flush or overflow boundary, other rule sets, options, custom evaluators) returns None
and the caller evaluates the chunk with the engine. Equality of the columns with the
engine's is proved in tests/model/test_sweep_lean.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..formats import get_format

__all__ = ["LEAN_OPS", "lean_supported", "lean_columns"]

#: Ops with a lean chunk path (f32 operands, d3d10/d3d11 rules, default options).
LEAN_OPS = ("sqrt", "rcp")
_RULES = ("d3d10", "d3d11")
_F32 = get_format("f32")
_ACC = "F32-SQRT-RCP"  # the accuracy rule of sqrt / rcp under d3d10 / d3d11 (§3.1.3)


def lean_supported(op: str, fmt: str, rules: str, options: Any, fixed: tuple) -> bool:
    """Whether chunks of this sweep may take :func:`lean_columns` (default options only:
    an option could change the window or the rules fired)."""
    return op in LEAN_OPS and fmt == "f32" and rules in _RULES and not options and not fixed


def _chunk_class(b: np.ndarray) -> int | None:
    """The common sign + biased exponent (top 9 bits) of every pattern, else None."""
    if b.size == 0:
        return None
    top = b >> np.uint32(23)
    lo, hi = int(top.min()), int(top.max())
    return lo if lo == hi else None


def lean_columns(op: str, operand: np.ndarray) -> dict[str, Any] | None:
    """Stage columns ``model, exact, err_model, ok_model, fired`` for one chunk of f32
    ``op`` operands (d3d10/d3d11, default options), or None when the chunk is not
    ordinary and needs the full engine.

    Parameters
    ----------
    op : {"sqrt", "rcp"}
        The unary op.
    operand : ndarray of uint32
        The chunk's operand patterns (1-D).

    Returns
    -------
    dict or None
        The columns ``ModelStage`` would produce from ``evaluate`` (bit-for-bit equal),
        or None.
    """
    b = np.asarray(operand)
    if op not in LEAN_OPS or b.dtype != np.uint32 or b.ndim != 1:
        return None
    cls = _chunk_class(b)
    if cls is None:
        return None
    sign, e = cls >> 8, cls & 0xFF
    if e == 0 or e == 0xFF:  # zero / denormal (F32-FTZ) or INF / NaN operands
        return None
    n = b.size
    if op == "sqrt" and sign:  # F32-SQRTNEG: NaN result, any NaN allowed (F32-NANOUT)
        return {"model": np.full(n, _F32.quiet_nan, np.uint32),
                "exact": np.full(n, np.nan), "err_model": np.zeros(n),
                "ok_model": np.ones(n, bool),
                "fired": {"F32-NANOUT": np.ones(n, bool), "F32-SQRTNEG": np.ones(n, bool)}}
    # rcp: |1/x| in (2^(126-e), 2^(127-e)]; e <= 251 keeps it >= 2^-125 (no F32-FTZ
    # of the result or of a window end). sqrt of a normal number is always normal.
    if op == "rcp" and e > 251:
        return None
    from ..engine import grid  # noqa: PLC0415 - lazy, as stages.engine()
    from ..engine.exact import transcendental  # noqa: PLC0415

    x = b.view(np.float32).astype(np.float64)
    with np.errstate(all="ignore"):
        hi, lo = transcendental(op, x, _F32)
    model = grid.rne(hi, lo, _F32)
    err = model.view(np.float32).astype(np.float64)  # decode of a normal pattern
    err -= hi  # the engine's ulp_error: (v - hi - lo) / ulp_at(hi, lo)
    err -= lo
    err /= grid.ulp_at(hi, lo, _F32, specials=False)
    return {"model": model, "exact": hi, "err_model": err, "ok_model": np.ones(n, bool),
            "fired": {_ACC: np.ones(n, bool)}}
