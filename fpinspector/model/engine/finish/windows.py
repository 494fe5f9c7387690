"""Tolerance windows: the patterns within a tolerance of the exact value, as key intervals.

A window is built in value space ([exact - down, exact + up], both ends exact to well
below a pattern's spacing: TwoSum plus the residual), turned into the keys of the first
and last pattern inside, then:

- ALLOWED-ZERO: a window relative to the exact value (ULPs, relative error) never
  crosses zero to the other sign. A result of a positive exact value may round down to
  +0, never to -0 (and the other way round); an exact zero allows only itself (0/2 = +0,
  sqrt(-0) = -0, rcp(-INF) = -0, exp(-INF) = +0). An absolute window (log2 for x in
  [0.5, 2]) is centred on the exact value and holds both signs where it reaches across
  zero; its denormals flush to the zero of their own sign.
- it always contains the correctly rounded value (the model's own result before flush);
- exact INF allows only that INF; NaN allows only NaN (F32-NANOUT);
- F32-IDENT pins the identities (x*1, x/-1, x+0, ...) to the exact result;
- F32-FTZ: its ends are flushed and, when the output must be flushed, its denormals
  are left out (option ftz_output=either keeps the unflushed window too).
"""

from __future__ import annotations

import numpy as np

from ...formats import FloatFormat
from .. import grid
from ..allowed import AllowedArrays
from ..context import Ctx
from ..residual import is_zero_residual
from .edges import refine_edges
from .facts import Facts

__all__ = ["value_window", "tolerance_window", "finish_windows", "flush_key", "zero_side",
           "window_top"]


def zero_side(hi: np.ndarray) -> np.ndarray:
    """True where the exact value is on the positive side (> 0, or +0)."""
    return ~np.signbit(hi)


def value_window(hi: np.ndarray, lo: np.ndarray, down: np.ndarray, up: np.ndarray,
                 fmt: FloatFormat,
                 lo_down: np.ndarray | float = 0.0, lo_up: np.ndarray | float = 0.0,
                 ends: list | None = None, absolute: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Keys of the patterns with values in [x - down - lo_down, x + up + lo_up], x = hi + lo,
    never crossing zero to the other sign (ALLOWED-ZERO) except where ``absolute``: an
    absolute window keeps both signs. ``down``/``up`` >= 0 are float64; ``lo_down``/``lo_up``
    are small exact corrections (e.g. the residual's share of a relative tolerance).
    ``ends``, if given, receives each end as (float64, residual)."""
    with np.errstate(invalid="ignore", over="ignore"):
        lh, ll = grid.two_sum(hi, -down)
        hh, hl = grid.two_sum(hi, up)
        ll = ll + lo - lo_down
        hl = hl + lo + lo_up
    if ends is not None:
        ends += [(lh, ll), (hh, hl)]
    klo = grid.to_key(grid.ceil_pat(lh, ll, fmt), fmt)
    khi = grid.to_key(grid.floor_pat(hh, hl, fmt), fmt)
    pos = zero_side(hi)
    clamp = pos if absolute is None else pos & ~absolute
    np.maximum(klo, np.where(clamp, 0, klo), out=klo)
    clamp = ~pos if absolute is None else ~pos & ~absolute
    np.minimum(khi, np.where(clamp, -1, khi), out=khi)
    return klo, khi


def _ulp(f: Facts, t: float) -> np.ndarray:
    u = grid.ulp_at(f.hi, f.lo, f.ctx.fmt) * t
    with np.errstate(invalid="ignore"):
        return np.where(f.finite, u, 0.0)


def _rel(f: Facts, r: float) -> tuple[np.ndarray, np.ndarray]:
    """Relative tolerance r (a power of two): |hi| r is exact, the residual adds lo r."""
    with np.errstate(invalid="ignore"):
        d = np.where(f.finite, np.abs(f.hi) * r, 0.0)
        dl = np.where(f.finite, np.abs(f.lo) * r * np.sign(f.lo) * np.sign(f.hi), 0.0)
    return d, dl


def tolerance_window(f: Facts) -> tuple[np.ndarray, np.ndarray]:
    """Key interval of the tolerance kinds cr, exact, ulp, rel, rel_or_ulp and log."""
    ctx = f.ctx
    tol = ctx.tol
    fmt = ctx.fmt
    k = tol.kind
    kb = grid.to_key(f.unrounded, fmt)
    if k in ("cr", "exact"):
        return kb, kb.copy()
    ends: list[tuple[np.ndarray, np.ndarray]] = []
    if k == "ulp":
        u = _ulp(f, tol.ulp)
        klo, khi = value_window(f.hi, f.lo, u, u, fmt, ends=ends)
    elif k in ("rel", "rel_or_ulp"):
        d, dl = _rel(f, tol.rel)
        klo, khi = value_window(f.hi, f.lo, d, d, fmt, dl, dl, ends=ends)
        if k == "rel_or_ulp":
            u = _ulp(f, tol.ulp)
            ulo, uhi = value_window(f.hi, f.lo, u, u, fmt, ends=ends)
            np.minimum(klo, ulo, out=klo)
            np.maximum(khi, uhi, out=khi)
    elif k == "log":
        near = f.absolute_window  # absolute 2^-21 there, relative elsewhere
        d, dl = _rel(f, tol.rel)
        d = np.where(near & f.finite, tol.rel, d)
        dl = np.where(near, 0.0, dl)
        klo, khi = value_window(f.hi, f.lo, d, d, fmt, dl, dl, ends=ends,
                                absolute=near & f.finite)
    else:
        raise ValueError(f"tolerance_window cannot build kind {k!r}")
    if k != "ulp" or tol.ulp not in (0.5, 1.0):
        refine_edges(f, klo, khi, ends)  # ends that may sit exactly on a pattern
    if k == "ulp" and tol.ulp >= 1.0:
        window_top(f.hi, f.lo, klo, khi, fmt)
    fin = f.finite
    np.minimum(klo, np.where(fin, kb, klo), out=klo)  # the correctly rounded value is in
    np.maximum(khi, np.where(fin, kb, khi), out=khi)
    zero = exact_zero(f) & ~f.absolute_window  # ALLOWED-ZERO: that zero alone
    if zero.any():
        klo[zero] = kb[zero]
        khi[zero] = kb[zero]
    return klo, khi


def exact_zero(f: Facts) -> np.ndarray:
    """The exact result is a zero (of the sign in ``f.hi``): 1 - 1, sqrt(0), rcp(INF),
    0 * 3. A window relative to it holds that zero only; a ULP count at zero (2^-149)
    would admit a denormal that no evaluation produces (ALLOWED-ZERO)."""
    z = f.hi == 0
    if z.any() and not is_zero_residual(f.lo):
        z &= f.lo == 0
    return z


def window_top(hi: np.ndarray, lo: np.ndarray, klo: np.ndarray, khi: np.ndarray,
               fmt: FloatFormat) -> None:
    """F32-WINDOW-TOP on the key interval of a 1-ULP window, in place: the window holds
    the exact value's two neighbours, rounded down and rounded up; INF is the upper
    neighbour only of an exact value beyond the largest finite value (whose lower
    neighbour, the largest finite value, is then in too). A finite exact value at or
    below it never admits INF, though max + 1 ULP is 2^128 for an f32 ULP count."""
    top = grid.to_key(np.array([fmt.max_finite_bits], dtype=fmt.dtype), fmt)[0]
    if not fmt.signed:
        bottom = np.int64(0)
    else:
        bottom = grid.to_key(np.array([fmt.max_finite_bits | fmt.sign_mask],
                                      dtype=fmt.dtype), fmt)[0]
    big = float(fmt.decode(np.array([fmt.max_finite_bits], dtype=fmt.dtype))[0])
    with np.errstate(invalid="ignore"):
        a = np.abs(hi)
        fin = np.isfinite(hi)
        beyond = fin & ((a > big) | ((a == big) & (np.asarray(lo) * np.sign(hi) > 0)))
        inside = fin & ~beyond
        pos = ~np.signbit(hi)
    np.minimum(khi, np.where(inside, top, khi), out=khi)
    np.maximum(klo, np.where(inside, bottom, klo), out=klo)
    if beyond.any():
        inf_k = top + 1
        np.minimum(klo, np.where(beyond & pos, top, klo), out=klo)
        np.maximum(khi, np.where(beyond & pos, inf_k, khi), out=khi)
        np.minimum(klo, np.where(beyond & ~pos, bottom - 1, klo), out=klo)
        np.maximum(khi, np.where(beyond & ~pos, bottom, khi), out=khi)


def flush_key(k: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """F32-FTZ on keys: a denormal key becomes the key of the zero of its sign."""
    return grid.to_key(grid.flush_pat(grid.from_key(k, fmt), fmt), fmt)


def finish_windows(f: Facts, klo: np.ndarray, khi: np.ndarray,
                   pins: np.ndarray | None = None) -> AllowedArrays:
    """The allowed sets of a window-shaped rule: special results, pins, flush, NaN.

    ``pins``: elements whose result is exactly the model's (F32-IDENT).
    """
    ctx: Ctx = f.ctx
    fmt = ctx.fmt
    kb = grid.to_key(f.core.bits, fmt)
    exact_only = f.exact_inf if pins is None else (f.exact_inf | pins)
    if exact_only.any():
        klo = np.where(exact_only, kb, klo)
        khi = np.where(exact_only, kb, khi)
    nan = f.exact_nan
    windows: list[tuple[np.ndarray, np.ndarray, bool]] = []
    if ctx.flush:
        if not ctx.strict_out:  # option ftz_output=either: the unflushed results too
            windows.append((klo, khi, False))
        klo, khi = flush_key(klo, fmt), flush_key(khi, fmt)
    if nan.any():
        klo = np.where(nan, 1, klo)
        khi = np.where(nan, 0, khi)
        windows = [(np.where(nan, 1, a), np.where(nan, 0, b), d) for a, b, d in windows]
    windows.insert(0, (klo, khi, ctx.strict_out))
    return AllowedArrays(fmt, windows, [], nan.copy())
