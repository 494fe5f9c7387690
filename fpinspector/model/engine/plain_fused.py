"""Plain-element kernel for f32 mad (a * b + c) (see engine/plain.py for the idea).

Plain: a, b, c normal; the exact product, the exact result, both serial-order extremes
(cmin, cmax: each step rounded down / up by ``tol.ulp``) and every intermediate step are
in [2^-124, 2^126] in magnitude, and the F32-FUSED window [hi - err, hi + err] stays on
the sign of hi at least 2^-125 from zero. Then no flush, zero, INF or NaN rule applies
and the window is ops_arith.eval_fused's, computed with the same arithmetic.
"""

from __future__ import annotations

import numpy as np

from . import grid
from .result import Ctx
from .tolerances import Tolerance

__all__ = ["f32_mad"]

_LO, _HI = 2.0**-124, 2.0**126


def _in_range(v: np.ndarray, plain: np.ndarray) -> None:
    m = np.abs(v)
    plain &= m >= _LO
    plain &= m <= _HI


def _steps(h: np.ndarray, l: np.ndarray, t: float) -> tuple[np.ndarray, np.ndarray]:
    """ops_arith._step down and up for normal h + l: the extreme values of one step."""
    from .plain import _F32, _window
    from .plain_binary import _values

    if t == 0.5:
        v = grid.values(grid.rne(h, l, _F32), _F32)
        return v, v
    u = grid.ulp_at(h, l, _F32) * t
    klo, khi = _window(h, u, u, l)
    return _values(klo), _values(khi)


def f32_mad(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]):
    """Kernel for tolerance kinds fused (d3d11 / d3d10) and cr (ieee754)."""
    from .plain import _F32, _normal32, _plain_parts, _window

    fmt = ctx.fmt
    pa, pb, pc = (np.asarray(o, dtype=np.uint32) for o in operands)
    plain = _normal32(pa)
    plain &= _normal32(pb)
    plain &= _normal32(pc)
    if not plain.any():
        return plain, None
    with np.errstate(invalid="ignore"):
        a, b, c = (p.view(np.float32).astype(np.float64) for p in (pa, pb, pc))
    with np.errstate(all="ignore"):
        p = a * b  # exact: 48 significant bits
        _in_range(p, plain)
        # what sum_exact's expansion of [p, 0, c, 0] reduces to: TwoSum(c, p), exact
        hi, lo = grid.two_sum(c, p)
        _in_range(hi, plain)
    if not plain.any():
        return plain, None
    all_plain = bool(plain.all())
    if not all_plain:  # scratch elements: 1 * 1 + 1, overwritten later
        for v, s in ((p, 1.0), (c, 1.0), (hi, 2.0), (lo, 0.0)):
            np.putmask(v, ~plain, s)
    bits = grid.rne(hi, lo, fmt)
    kb = grid.to_key(bits, fmt)
    fused = tol.kind == "fused"
    if fused:
        t = tol.ulp
        with np.errstate(all="ignore"):
            p_lo, p_hi = _steps(p, np.zeros_like(p), t)
            s, e = grid.two_sum(p_lo, c)
            _in_range(s, plain)
            cmin = _steps(s, e, t)[0]
            s, e = grid.two_sum(p_hi, c)
            _in_range(s, plain)
            cmax = _steps(s, e, t)[1]
            _in_range(cmin, plain)
            _in_range(cmax, plain)
            err = np.maximum(hi - cmin, cmax - hi)
            np.maximum(err, 0.0, out=err)
            ah = np.abs(hi)
            plain &= ah - err >= 2.0**-125
            plain &= ah + err <= _HI
        if not plain.any():
            return plain, None
        if not plain.all():
            all_plain = False
            for v, sc in ((hi, 2.0), (lo, 0.0), (err, 0.0), (cmin, 2.0), (cmax, 2.0)):
                np.putmask(v, ~plain, sc)
        klo, khi = _window(hi, err, err, lo)
        np.minimum(klo, kb, out=klo)
        np.maximum(khi, kb, out=khi)
        for cv in (cmin, cmax):
            kc = grid.to_key(cv.astype(np.float32).view(np.uint32), _F32)
            np.minimum(klo, kc, out=klo)
            np.maximum(khi, kc, out=khi)
    else:  # cr
        klo, khi = kb, kb.copy()
    parts = _plain_parts(ctx, tol, bits, hi, lo, klo, khi, 3)
    parts.fired["F32-INFINF"] = np.zeros(bits.shape, bool)
    if fused:
        parts.fired["F32-FUSED"] = np.ones(bits.shape, bool)
    else:
        parts.fired["IEEE-RNE" if ctx.rules == "ieee754" else "F32-PREC"] = np.ones(
            bits.shape, bool)
    return (None if all_plain else plain), parts
